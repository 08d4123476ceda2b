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
from ..errors import Interrupted
from .blocks import block_bounds, shard_range
from .checkpoint import Checkpoint

CHUNK_SECONDS = 0.5
CHECKPOINT_SECONDS = 5.0


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
    starts, ends = block_bounds(lo, hi)
    checkpoint = Checkpoint(ctx.work_dir / ".checkpoint.json", key) if ctx.work_dir else None
    tally, next_block = Tally(), 0
    if checkpoint and ctx.resume:
        saved = checkpoint.load()
        if saved:
            tally, next_block = Tally.from_state(saved["tally"]), saved["next_block"]
    ready = time.perf_counter()
    empty = np.zeros(0, np.int64)
    _chunk(kernels, empty, empty, prune, top)
    ready_seconds = time.perf_counter() - ready
    progress = ctx.progress
    if progress:
        progress.start(f"enumerating ranks {lo:,}..{hi:,}", hi - lo)
        progress.advance(int(starts[next_block] - lo) if next_block < len(starts) else hi - lo)
    began = time.perf_counter()
    chunk = max(1, 2 * numba.get_num_threads())
    last_save = began
    try:
        while next_block < len(starts):
            stop = min(next_block + chunk, len(starts))
            t0 = time.perf_counter()
            tally.add(
                _chunk(kernels, starts[next_block:stop], ends[next_block:stop], prune, top), top
            )
            elapsed = time.perf_counter() - t0
            if progress:
                progress.advance(int(ends[stop - 1] - starts[next_block]))
            next_block = stop
            chunk = _resize(chunk, elapsed)
            if checkpoint and time.perf_counter() - last_save > CHECKPOINT_SECONDS:
                checkpoint.save({"tally": tally.as_state(), "next_block": next_block})
                last_save = time.perf_counter()
    except KeyboardInterrupt:
        if checkpoint:
            checkpoint.save({"tally": tally.as_state(), "next_block": next_block})
            raise Interrupted(
                f"interrupted after {next_block} of {len(starts)} blocks; checkpoint saved to "
                f"{checkpoint.path}; run again with --resume to continue"
            ) from None
        raise Interrupted("interrupted; no checkpoint (give --out to save one)") from None
    finally:
        if progress:
            progress.finish()
    if checkpoint:
        checkpoint.clear()
    return Outcome(tally, lo, hi, time.perf_counter() - began, len(starts), ready_seconds)


def _resize(chunk: int, elapsed: float) -> int:
    if elapsed < CHUNK_SECONDS / 2:
        return min(chunk * 2, 1 << 14)
    if elapsed > CHUNK_SECONDS * 2 and chunk > 1:
        return chunk // 2
    return chunk


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
