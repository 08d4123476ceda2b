"""The exhaustive back end's driver: blocks, progress, checkpoints, shards, top-k merge.

The hot loop is `run_blocks` of a generated module (see exhaustive_loop.py). Here it
runs over chunks of blocks so that progress can be shown and Ctrl-C can stop the run
between chunks; the per-block results are merged serially in block order, so the
outcome never depends on the number of threads or on the chunking.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import ModuleType

import numba
import numpy as np

from ..compile.protocols import RunContext
from .blocks import MIN_BLOCK, MIN_PRUNED_BLOCK, block_bounds, shard_range
from .chunked import Chunks, run_in_chunks


@dataclass
class Tally:
    """Merged results: counts and the best states as (value, rank, state) triples."""

    count: int = 0
    evaluated: int = 0
    pruned: int = 0
    best: list[tuple[float, int, list[int]]] = field(default_factory=list)

    def add(self, other: Tally, top: int) -> None:
        self.count += other.count
        self.evaluated += other.evaluated
        self.pruned += other.pruned
        merged = sorted(self.best + other.best, key=lambda item: (-item[0], item[1]))
        self.best = merged[:top]

    def as_state(self) -> dict:
        return {
            "count": self.count,
            "evaluated": self.evaluated,
            "pruned": self.pruned,
            "best": [[v, r, s] for v, r, s in self.best],
        }

    @classmethod
    def from_state(cls, state: dict) -> Tally:
        best = [(float(v), int(r), list(s)) for v, r, s in state["best"]]
        return cls(state["count"], state["evaluated"], state["pruned"], best)


@dataclass
class Kernels:
    """A generated module with `run_blocks`, and the arrays it takes."""

    module: ModuleType
    length: int
    params: np.ndarray
    space_args: tuple
    tables: tuple
    groups: int
    scored: bool


@dataclass
class Outcome:
    tally: Tally
    lo: int
    hi: int
    seconds: float
    blocks: int
    ready_seconds: float


def run(kernels: Kernels, size: int, prune: bool, top: int, ctx: RunContext, key: str) -> Outcome:
    """Enumerate the ranks of this run's shard; resumable from a checkpoint."""
    if ctx.threads:
        numba.set_num_threads(min(ctx.threads, numba.config.NUMBA_NUM_THREADS))
    lo, hi = shard_range(size, ctx.shard)
    starts, ends = block_bounds(lo, hi, MIN_PRUNED_BLOCK if prune else MIN_BLOCK)
    ready = time.perf_counter()
    empty = np.zeros(0, np.int64)
    _chunk(kernels, empty, empty, prune, top)
    ready_seconds = time.perf_counter() - ready
    tally = Tally()

    def work(first: int, stop: int) -> None:
        tally.add(_chunk(kernels, starts[first:stop], ends[first:stop], prune, top), top)

    def restore(state: dict) -> None:
        tally.__dict__.update(Tally.from_state(state).__dict__)

    chunks = Chunks(
        units=len(starts),
        label=f"enumerating ranks {lo:,}..{hi:,}",
        noun="blocks",
        weight=lambda a, b: int(ends[b - 1] - starts[a]) if b > a else 0,
    )
    initial = 16 * numba.get_num_threads()
    seconds = run_in_chunks(chunks, work, ctx, key, tally.as_state, restore, initial)
    return Outcome(tally, lo, hi, seconds, len(starts), ready_seconds)


def _chunk(kernels: Kernels, starts, ends, prune: bool, top: int) -> Tally:
    n = len(starts)
    counts = np.zeros(n, np.int64)
    evaluated = np.zeros(n, np.int64)
    pruned = np.zeros(n, np.int64)
    best_score = np.full((n, top), -np.inf)
    best_rank = np.zeros((n, top), np.int64)
    best_state = np.zeros((n, top, kernels.length), np.int64)
    kept = np.zeros(n, np.int64)
    arrays = (counts, evaluated)
    best_arrays = (best_score, best_rank, best_state, kept)
    starts, ends = np.ascontiguousarray(starts), np.ascontiguousarray(ends)
    if prune:
        kernels.module.run_pruned(
            starts,
            ends,
            kernels.params,
            kernels.space_args,
            kernels.tables,
            kernels.groups,
            kernels.scored,
            *arrays,
            pruned,
            *best_arrays,
        )
    else:
        kernels.module.run_scanned(
            starts,
            ends,
            kernels.params,
            kernels.space_args,
            kernels.scored,
            *arrays,
            *best_arrays,
        )
    best = [
        (float(best_score[b, i]), int(best_rank[b, i]), best_state[b, i].tolist())
        for b in range(n)
        for i in range(kept[b])
    ]
    best.sort(key=lambda item: (-item[0], item[1]))
    return Tally(int(counts.sum()), int(evaluated.sum()), int(pruned.sum()), best[:top])
