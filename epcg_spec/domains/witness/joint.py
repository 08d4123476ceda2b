"""Joint panels: p sub-panels solved by one line, chosen by the branch-and-bound back end.

The candidates are the panels of a layout enumeration, each with the bitset of the lines
that solve it. A set's joint solutions are the intersection of its bitsets; its value is the
fewest joint solutions over its proper subsets (the subsets that leave out one panel), and
only sets with exactly one joint solution count. Adding a panel can only shrink an
intersection, so a partial set's own joint count bounds the value of every completion.
The candidates come sorted by their number of solutions, largest first: every completion
adds a later candidate k, and leaving out an earlier panel keeps k, so the value of every
completion is also at most the size of the candidate right after the last one chosen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ...core.context import RunContext
from ...core.errors import BuildError, Interrupted
from ...search import branch_bound
from ...search.driver import checkpoint_key
from ...spaces.bits import popcount
from .layouts import LayoutJob, Outcome, run_layouts
from .lines import LineSet

EVALUATOR = "from epcg_spec.domains.witness.joint import joint_extend as bb_extend"


@njit(cache=True)
def joint_extend(acc, chosen, d, T):
    """The branch-and-bound evaluator over solution bitsets T[0] (one row per candidate) and
    their sizes T[1], in decreasing order."""
    bits = T[0]
    sizes = T[1]
    item = chosen[d]
    p = acc.shape[0] - 1
    total = 0
    for w in range(acc.shape[1]):
        acc[d + 1, w] = acc[d, w] & bits[item, w]
        total += popcount(acc[d + 1, w])
    if total == 0:
        return -np.inf
    if d + 1 < p:
        if item + 1 == sizes.shape[0]:
            return -np.inf
        return float(min(total, sizes[item + 1]))
    if total != 1:
        return -np.inf
    fewest = -1
    for leave in range(p):
        count = 0
        for w in range(acc.shape[1]):
            word = ~np.uint64(0)
            for k in range(p):
                if k != leave:
                    word &= bits[chosen[k], w]
            count += popcount(word)
        if fewest < 0 or count < fewest:
            fewest = count
    return float(fewest)


@dataclass
class JointSearch:
    """The candidates (one per distinct solution set) and what branch and bound found."""

    layouts: Outcome
    candidates: int  # panels whose number of solutions is in range
    ranks: np.ndarray  # layout rank of each distinct candidate, largest solution sets first
    bits: np.ndarray  # uint64[candidates, words]: the lines solving each candidate
    sizes: np.ndarray  # number of solutions of each candidate
    found: branch_bound.Outcome

    def joint_line(self, chosen: tuple[int, ...]) -> int:
        """The one line that solves every candidate of a chosen set."""
        common = np.bitwise_and.reduce(self.bits[list(chosen)], axis=0)
        return int(np.flatnonzero(np.unpackbits(common.view(np.uint8), bitorder="little"))[0])


def search_joint(job: LayoutJob, lines: LineSet, ctx: RunContext) -> JointSearch:
    """Run the layout job (it keeps the candidates), then search the best joint sets."""
    spec, joint = job.spec, job.spec.joint
    layouts = run_layouts(job, ctx)
    if not layouts.report.complete:
        raise Interrupted(
            f"stopped ({layouts.report.stopped}) while collecting candidate panels, before "
            "any checkpoint; a joint search resumes only from its branch-and-bound phase"
        )
    library = layouts.tally.library
    words = (lines.count + 63) // 64
    ranks = np.concatenate(library) if library else np.zeros(0, np.int64)
    bits = (
        np.concatenate(layouts.tally.library_bits) if library else np.zeros((0, words), np.uint64)
    )
    distinct, bits, sizes = distinct_sets(ranks, bits)
    if len(distinct) < joint.panels:
        raise BuildError(
            f"only {len(distinct)} candidate panels with different solutions; a joint set of "
            f"{joint.panels} needs more (widen min_solutions..max_solutions or the layout)",
            at=(("joint", "min_solutions"), ("joint", "max_solutions"), ("joint", "panels")),
        )
    problem = branch_bound.Problem(
        module=branch_bound.evaluator_module("witness joint sets", [EVALUATOR]),
        items=len(distinct),
        size=joint.panels,
        root=np.full(words, np.iinfo(np.uint64).max, np.uint64),
        tables=(bits, sizes),
        top=spec.top,
    )
    found = branch_bound.run(problem, ctx, checkpoint_key(spec.document.data, "joint"))
    return JointSearch(layouts, len(ranks), distinct, bits, sizes, found)


def distinct_sets(ranks: np.ndarray, bits: np.ndarray):
    """One candidate per distinct solution set (the lowest rank), largest sets first.

    Two panels with the same solutions in one set leave, without the other one, the joint
    solution alone, so such a set never beats value 1; keeping one of them loses nothing else.
    """
    _, first = np.unique(bits, axis=0, return_index=True)
    first = np.sort(first)
    ranks, bits = ranks[first], bits[first]
    sizes = np.bitwise_count(bits).sum(axis=1).astype(np.int64)
    order = np.lexsort((ranks, -sizes))
    return ranks[order], np.ascontiguousarray(bits[order]), sizes[order]
