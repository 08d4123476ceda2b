"""The branch-and-bound back end's driver: choose p of n candidates with the best value.

A problem brings a candidate library (n items, whatever tables its evaluator reads) and an
evaluator `bb_extend` (see branch_bound_loop.py) that updates an incremental state as items
join a set and bounds every completion. The sets are explored in lexicographic order, one
block per first item, in chunks of a fixed number of blocks run in parallel; the best list
is merged serially in block order after each chunk and passed to the next one as the bound
to beat, so neither the result nor the node count depends on the number of threads (the
driver keeps these chunks fixed for the same reason).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from ..compile.connector import generated_module, loop_template
from ..core.context import RunContext
from . import driver, resumed
from .blocks import each_claimed, own_lines, use_threads
from .driver import Report

CHUNK_BLOCKS = 64


def evaluator_module(what: str, imports: list[str]) -> ModuleType:
    """The generated module of the loop, with `imports` bringing in `bb_extend`."""
    return generated_module(what, imports, [loop_template("branch_bound_loop")])


@dataclass
class Problem:
    """What the back end needs: the loop module, the evaluator's root state and tables."""

    module: ModuleType
    items: int
    size: int  # p: items per set
    root: np.ndarray
    tables: tuple
    top: int = 1


@dataclass
class Outcome:
    best: list[tuple[float, tuple[int, ...]]] = field(default_factory=list)
    nodes: int = 0
    report: Report | None = None


@dataclass
class BranchBoundJob:
    """The driver's job: units are first items; chunks are fixed, since each chunk starts
    from the best list of the chunks before it (the bound, and so the node count)."""

    problem: Problem
    outcome: Outcome
    label: str = "branch and bound over first items"
    noun: str = "first items"
    fixed: int = CHUNK_BLOCKS
    most: int = CHUNK_BLOCKS
    finished: bool = False

    @property
    def units(self) -> int:
        return self.problem.items

    def prepare(self, first: int) -> None:
        self.fold(self.work(0, 0))

    def work(self, lo: int, hi: int) -> tuple[list, int]:
        """The sets found in blocks lo..hi - 1 (beating the bound so far) and nodes."""
        problem, n = self.problem, hi - lo
        first = np.arange(lo, hi, dtype=np.int64)
        values = np.full((n, problem.top), -np.inf)
        sets = np.zeros((n, problem.top, problem.size), np.int64)
        kept = np.zeros(n, np.int64)
        nodes = np.zeros(n, np.int64)
        best = self.outcome.best
        full = len(best) == problem.top
        threshold = best[-1][0] if full else -np.inf
        loop, last = problem.module.bb_blocks, first + 1
        args = (first, last, problem.items, problem.tables, threshold, full)
        outputs = (values, sets, kept, nodes)
        each_claimed(
            lambda following, size: loop(following, size, *args, *outputs, _work(problem)), n
        )
        found = [
            (float(values[b, k]), tuple(int(i) for i in sets[b, k]))
            for b in range(n)
            for k in range(kept[b])
        ]
        return found, int(nodes.sum())

    def fold(self, partial: tuple[list, int]) -> None:
        found, nodes = partial
        merged = sorted(self.outcome.best + found, key=lambda item: (-item[0], item[1]))
        self.outcome.best = merged[: self.problem.top]
        self.outcome.nodes += nodes

    def snapshot(self) -> dict:
        return {"nodes": self.outcome.nodes, "best": [[v, list(s)] for v, s in self.outcome.best]}

    def restore(self, state: dict) -> None:
        self.outcome.nodes = resumed.count(state["nodes"])
        best = resumed.rows(state["best"], 2)
        self.outcome.best = [(resumed.number(v), tuple(resumed.integers(s))) for v, s in best]

    def weight(self, lo: int, hi: int) -> int:
        return hi - lo


def _work(problem: Problem) -> tuple:
    """One thread's arrays for bb_blocks, made by numpy (the loop allocates nothing): the
    evaluator's state at each depth (the root at depth 0), the chosen items, and the next
    item to try at each depth, on cache lines of their own."""
    acc, chosen, following = own_lines(
        ((problem.size + 1, problem.root.shape[0]), problem.root.dtype),
        (problem.size, np.int64),
        (problem.size, np.int64),
    )
    acc[0] = problem.root
    return acc, chosen, following


def run(problem: Problem, ctx: RunContext, key: str) -> Outcome:
    """Explore every set (pruned by the bound) through the driver; resumable."""
    use_threads(ctx.threads)
    outcome = Outcome()
    outcome.report = driver.run(BranchBoundJob(problem, outcome), ctx, key)
    return outcome
