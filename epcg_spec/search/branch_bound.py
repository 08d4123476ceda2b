"""The branch-and-bound back end's driver: choose p of n candidates with the best value.

A problem brings a candidate library (n items, whatever tables its evaluator reads) and an
evaluator `bb_extend` (see branch_bound_loop.py) that updates an incremental state as items
join a set and bounds every completion. The sets are explored in lexicographic order, one
block per first item, in chunks of a fixed number of blocks run in parallel; the best list
is merged serially in block order after each chunk and passed to the next one as the bound
to beat, so neither the result nor the node count depends on the number of threads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import ModuleType

import numba
import numpy as np

from ..compile.connector import generated_module, loop_template
from ..compile.protocols import RunContext
from .chunked import Chunks, run_in_chunks

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
    seconds: float = 0.0
    ready_seconds: float = 0.0


def run(problem: Problem, ctx: RunContext, key: str) -> Outcome:
    """Explore every set (pruned by the bound); resumable from a checkpoint in work_dir."""
    if ctx.threads:
        numba.set_num_threads(min(ctx.threads, numba.config.NUMBA_NUM_THREADS))
    outcome = Outcome()
    ready = time.perf_counter()
    _chunk(problem, 0, 0, outcome)
    outcome.ready_seconds = time.perf_counter() - ready

    def restore(state: dict) -> None:
        outcome.nodes = state["nodes"]
        outcome.best = [(float(v), tuple(s)) for v, s in state["best"]]

    chunks = Chunks(problem.items, "branch and bound over first items", "first items", CHUNK_BLOCKS)
    outcome.seconds = run_in_chunks(
        chunks,
        lambda lo, hi: _chunk(problem, lo, hi, outcome),
        ctx,
        key,
        lambda: _state(outcome),
        restore,
    )
    return outcome


def _state(outcome: Outcome) -> dict:
    return {
        "nodes": outcome.nodes,
        "best": [[v, list(s)] for v, s in outcome.best],
    }


def _chunk(problem: Problem, lo: int, hi: int, outcome: Outcome) -> None:
    """Run the blocks of first items lo..hi - 1 and merge them into `outcome`."""
    n = hi - lo
    first = np.arange(lo, hi, dtype=np.int64)
    values = np.full((n, problem.top), -np.inf)
    sets = np.zeros((n, problem.top, problem.size), np.int64)
    kept = np.zeros(n, np.int64)
    nodes = np.zeros(n, np.int64)
    full = len(outcome.best) == problem.top
    threshold = outcome.best[-1][0] if full else -np.inf
    problem.module.bb_blocks(
        first,
        first + 1,
        problem.items,
        problem.root,
        problem.tables,
        threshold,
        full,
        values,
        sets,
        kept,
        nodes,
    )
    found = [
        (float(values[b, k]), tuple(int(i) for i in sets[b, k]))
        for b in range(n)
        for k in range(kept[b])
    ]
    merged = sorted(outcome.best + found, key=lambda item: (-item[0], item[1]))
    outcome.best = merged[: problem.top]
    outcome.nodes += int(nodes.sum())
