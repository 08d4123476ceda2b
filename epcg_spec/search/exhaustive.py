"""The exhaustive back end as a driver job: rank blocks, counted and folded into a top-k.

The hot loops are `run_pruned` and `run_scanned` of a generated module (see
exhaustive_loop.py), over runs of blocks on threads (blocks.py). The blocks depend only on
the space's size, so a shard is a contiguous run of blocks and the shards of a space
together cover every block once; the per-block results are merged serially in block
order, so the outcome never depends on threads, chunks, shards or a resume.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType

import numpy as np

from ..core.context import RunContext
from . import driver, exhaustive_gpu, resumed
from .blocks import each_claimed, own_lines, use_threads
from .driver import Report

MIN_BLOCK = 1 << 16  # ranks per block of a scan: about a millisecond of work
# A pruned walk starts each block from the root and skips most of its ranks at once, so its
# blocks are larger: fewer descents from the root, with still enough blocks to balance threads.
MIN_PRUNED_BLOCK = 1 << 20
CHUNK_BYTES = 64 << 20  # the most memory the block results of one chunk or cluster task take


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
        best = [
            (resumed.number(v), resumed.count(r), resumed.integers(s))
            for v, r, s in resumed.rows(state["best"], 3)
        ]
        counts = (resumed.count(state[name]) for name in ("count", "evaluated", "pruned"))
        return cls(*counts, best)


@dataclass
class Kernels:
    """A generated module with the block loops, the arrays they take, and the device they
    run on: "cpu" (`run_scanned`, `run_pruned`) or "gpu" (`gpu_scan`, exhaustive_gpu.py)."""

    module: ModuleType
    length: int
    params: np.ndarray
    space_args: tuple
    tables: tuple
    groups: int
    scored: bool
    device: str = "cpu"
    gpu_inputs: tuple | None = None  # P, S and T, once sent to the GPU
    gpu_outputs: tuple | None = None  # the threads' result slots on the GPU, reused


@dataclass
class Outcome:
    tally: Tally
    lo: int
    hi: int
    report: Report
    blocks: int


@dataclass
class Held:
    """The result arrays of a job's chunks (`_results`), made for the most blocks a chunk
    has had so far and reused: arrays made afresh each chunk are paged in afresh, which
    costs most where pruning makes the chunks many and short (docs/benchmarks.md)."""

    arrays: tuple[np.ndarray, ...] | None = None

    def take(self, blocks: int, top: int, length: int) -> tuple[np.ndarray, ...]:
        """The arrays of a chunk of `blocks` blocks, cleared where `_results` clears them."""
        if self.arrays is None or self.arrays[0].shape[0] < blocks:
            self.arrays = _results(blocks, top, length)
        arrays = tuple(array[:blocks] for array in self.arrays)
        for cleared in (*arrays[:3], arrays[6]):
            cleared[:] = 0
        return arrays


@dataclass
class ExhaustiveJob:
    """The driver's job: units are rank blocks of the whole space, folded into a Tally."""

    kernels: Kernels
    prune: bool
    top: int
    size: int  # ranks in the whole space
    block: int  # ranks per block (the last one may hold fewer)
    label: str
    noun: str = "blocks"
    fixed: int = 0
    finished: bool = False
    remote: tuple[str, dict] | None = None
    tally: Tally = field(default_factory=Tally)
    held: Held = field(default_factory=Held)

    @property
    def units(self) -> int:
        return -(-self.size // self.block)

    def bounds(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Rank ranges [start, end) of blocks lo..hi - 1, without overflowing int64."""
        starts = np.arange(lo, hi, dtype=np.int64) * np.int64(self.block)
        ends = np.minimum(starts, self.size - self.block) + np.int64(self.block)
        return starts, ends

    @property
    def most(self) -> int:
        if self.kernels.device == "gpu":
            return max(1, exhaustive_gpu.most_ranks(self.prune) // self.block)
        # chunks are sized by time below this; the fewer chunks, the fewer times the
        # threads wait for each other at a chunk's end
        return chunk_most(self.top, self.kernels.length)

    def prepare(self, first: int) -> None:
        empty = np.zeros(0, np.int64)
        _chunk(self.kernels, empty, empty, self.prune, self.top, self.held)

    def work(self, lo: int, hi: int) -> Tally:
        return _chunk(self.kernels, *self.bounds(lo, hi), self.prune, self.top, self.held)

    def fold(self, partial: Tally) -> None:
        self.tally.add(partial, self.top)

    def snapshot(self) -> dict:
        return self.tally.as_state()

    def restore(self, state: dict) -> None:
        tally = Tally.from_state(state)
        length = self.kernels.length
        if len(tally.best) > self.top or any(
            r >= self.size or len(s) != length for _, r, s in tally.best
        ):
            raise resumed.NotResumable(f"its best list is not one of this space's top {self.top}")
        self.tally = tally

    def weight(self, lo: int, hi: int) -> int:
        return min(hi * self.block, self.size) - lo * self.block if hi > lo else 0

    def skip(self, lo: int, hi: int) -> tuple[int, Tally] | None:
        """Blocks lo..stop - 1, of lo..hi - 1, that failing prefixes cover whole, and their
        tally (every rank pruned, as walking them finds); None where block lo may hold a
        state. Found by walking single ranks: one walk passes a whole failing subtree."""
        if not self.prune or self.kernels.device != "cpu":
            return None
        rank, end = lo * self.block, min(hi * self.block, self.size)
        while rank < end:
            reach = self._reach(rank)
            if reach - rank < self.block:
                break
            rank = reach
        stop = min(rank // self.block, hi)
        return (stop, Tally(pruned=self.weight(lo, stop))) if stop > lo else None

    @cached_property
    def _reach(self) -> Callable[[int], int]:
        return _prober(self.kernels)


def _results(blocks: int, top: int, length: int) -> tuple[np.ndarray, ...]:
    """The arrays the blocks of a chunk write: counts, evaluated and pruned states, then
    the kept states' scores, ranks and states, and how many each block kept (only a
    block's first kept[b] slots are ever read, so those three are not cleared)."""
    return (
        np.zeros(blocks, np.int64),
        np.zeros(blocks, np.int64),
        np.zeros(blocks, np.int64),
        np.empty((blocks, top)),
        np.empty((blocks, top), np.int64),
        np.empty((blocks, top, length), np.int64),
        np.zeros(blocks, np.int64),
    )


def result_bytes(top: int, length: int) -> int:
    """The memory one block's partial result takes."""
    return sum(array.nbytes for array in _results(1, top, length))


def chunk_most(top: int, length: int) -> int:
    """The most blocks one chunk holds on the CPU: their results fit in CHUNK_BYTES."""
    return max(1, CHUNK_BYTES // result_bytes(top, length))


def job(kernels: Kernels, size: int, prune: bool, top: int) -> ExhaustiveJob:
    """The job enumerating every rank of a space of `size` ranks."""
    block = MIN_PRUNED_BLOCK if prune else MIN_BLOCK
    return ExhaustiveJob(kernels, prune, top, size, block, f"enumerating ranks 0..{size:,}")


def run(job: ExhaustiveJob, ctx: RunContext, key: str) -> Outcome:
    """Enumerate the ranks of this run's shard through the driver (resumable, limited)."""
    use_threads(ctx.threads)
    lo, hi = driver.shard_units(job.units, ctx.shard)
    first, last = min(lo * job.block, job.size), min(hi * job.block, job.size)
    job.label = f"enumerating ranks {first:,}..{last:,}"
    report = driver.run(job, ctx, key)
    return Outcome(job.tally, first, last, report, job.units)


def _chunk(kernels: Kernels, starts, ends, prune: bool, top: int, held: Held) -> Tally:
    if kernels.device == "gpu":  # blocks lo..hi - 1 are one run of ranks: one launch
        first, last = (int(starts[0]), int(ends[-1])) if len(starts) else (0, 0)
        return exhaustive_gpu.scan(kernels, first, last, prune, top)
    n = len(starts)
    counts, evaluated, pruned, *best_arrays = held.take(n, top, kernels.length)
    arrays = (counts, evaluated)
    starts, ends = np.ascontiguousarray(starts), np.ascontiguousarray(ends)
    if prune:
        loop = kernels.module.run_pruned
        reach = np.zeros(n, np.int64)
        args = (kernels.tables, kernels.scored, *arrays, pruned, *best_arrays, reach)
    else:
        loop, args = kernels.module.run_scanned, (kernels.scored, *arrays, *best_arrays)
    space = (kernels.params, kernels.space_args)

    def work(following: np.ndarray, size: int) -> None:
        loop(following, size, n, starts, ends, *space, *args, _scratch(kernels))

    each_claimed(work, n)
    best = _top(best_arrays, top, kernels.scored)
    return Tally(int(counts.sum()), int(evaluated.sum()), int(pruned.sum()), best)


def _prober(kernels: Kernels) -> Callable[[int], int]:
    """reach(rank): where the failing prefixes over `rank` end, walking that one rank (the
    ranks from `rank` up to there hold nothing; at most `rank` where none fails). Its
    arrays are made once: a skip walks thousands of ranks."""
    following, starts, ends, reach = (np.zeros(1, np.int64) for _ in range(4))
    args = (
        kernels.params, kernels.space_args, kernels.tables, kernels.scored,
        *_results(1, 1, kernels.length), reach, _scratch(kernels),
    )  # fmt: skip
    walk = kernels.module.run_pruned

    def reached(rank: int) -> int:
        following[0], starts[0], ends[0] = 0, rank, rank + 1
        walk(following, 1, 1, starts, ends, *args)
        return int(reach[0])

    return reached


def _scratch(kernels: Kernels) -> tuple[np.ndarray, ...]:
    """One thread's scratch arrays for the block loops (x, lo, masks, tally, todo, keep),
    made by numpy, so that the loops allocate nothing and run without numba's runtime."""
    length = kernels.length
    return own_lines(
        ((length,), np.int64),
        ((length,), np.int64),
        ((length + 1, kernels.groups), np.uint64),
        ((4,), np.int64),
        ((length,), np.uint64),
        ((length,), np.uint64),
    )


def _top(
    best_arrays: list[np.ndarray], top: int, scored: bool
) -> list[tuple[float, int, list[int]]]:
    """The chunk's `top` best (value, rank, state) of every block's kept ones: highest value
    first, ties by rank; chosen with numpy, so that only those few become Python objects.

    Unscored, every value is 0 and the blocks keep their first ranks, in rank order: the
    best are in the first blocks that keep `top` between them, and only those are sorted
    (the threads wait while this runs)."""
    if not scored:
        enough = int(np.searchsorted(np.cumsum(best_arrays[3]), top)) + 1
        best_arrays = [array[:enough] for array in best_arrays]
    rows = np.flatnonzero(best_arrays[3])  # the blocks that kept any: few, when pruning
    best_score, best_rank, best_state, kept = (array[rows] for array in best_arrays)
    blocks, slots = np.nonzero(np.arange(best_score.shape[1]) < kept[:, None])
    scores, ranks = best_score[blocks, slots], best_rank[blocks, slots]
    chosen = np.lexsort((ranks, -scores))[:top]
    states = best_state[blocks[chosen], slots[chosen]]
    return [
        (float(scores[j]), int(ranks[j]), state.tolist())
        for j, state in zip(chosen, states, strict=True)
    ]
