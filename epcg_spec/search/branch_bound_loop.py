"""The branch-and-bound back end's block loop (Algorithm 6 of Sturtevant & Ota, AIIDE 2018:
incremental sets with an upper bound).

This file is a template, never imported: the connector copies it into a generated module
where the one name it leaves free is the problem's evaluator, imported by module-level name:

    bb_extend(acc, chosen, d, T) -> float
        chosen[:d + 1] is a set of candidate indices (increasing), chosen[d] just added;
        write acc[d + 1] from acc[d] (the evaluator's incremental state, acc[0] = root);
        return, while d + 1 < p, an upper bound on the value of every completion to p items,
        and at d + 1 == p the value of the complete set; -inf where no completion (or this
        set) is acceptable. It allocates nothing: the loop runs without numba's runtime
        (no atomic reference counts on its arrays).

A block explores, depth first in lexicographic order, the sets whose first item lies in its
range; it keeps its own best list and prunes a branch whose bound cannot beat the worst
entry of a full list (the block's own, or the one passed in from earlier blocks); since
sets are met in lexicographic order, a later set that only ties never displaces an entry.
"""

# ruff: noqa: F821

import numpy as np
from numba import njit

from epcg_spec.search.blocks import claim


@njit(cache=True)
def _offer(b, value, chosen, values, sets, kept):
    """Insert a complete set into block b's best list (ties keep the earlier set)."""
    top = values.shape[1]
    n = kept[b]
    if n == top and value <= values[b, n - 1]:
        return
    at = n if n < top else top - 1
    while at > 0 and values[b, at - 1] < value:
        values[b, at] = values[b, at - 1]
        for k in range(chosen.shape[0]):  # loops, not slice copies: those compile for seconds
            sets[b, at, k] = sets[b, at - 1, k]
        at -= 1
    values[b, at] = value
    for k in range(chosen.shape[0]):
        sets[b, at, k] = chosen[k]
    if n < top:
        kept[b] = n + 1


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def bb_blocks(
    following, size, first, last, n_items, T, threshold, full, values, sets, kept, nodes, work
):
    """Block b explores the sets whose first item is in first[b]..last[b] - 1; on the runs
    of `size` blocks this thread claims (search/blocks.py, each_claimed). work: this
    thread's arrays (see branch_bound.py, `_work`)."""
    acc, chosen, upcoming = work
    lo = claim(following, size)
    while lo < first.shape[0]:
        for b in range(lo, min(lo + size, first.shape[0])):
            nodes[b] = _explore(
                b, first[b], last[b], n_items, T, threshold, full, values, sets, kept, acc,
                chosen, upcoming,
            )  # fmt: skip
        lo = claim(following, size)


@njit(cache=True, inline="always")
def _explore(
    b, first, last, n_items, T, threshold, full, values, sets, kept, acc, chosen, upcoming
):
    """Explore block b's sets (first item in first..last - 1) into its best list; return
    the nodes expanded."""
    p = chosen.shape[0]
    top = values.shape[1]
    upcoming[0] = first
    kept[b] = 0
    limit = threshold if full else -np.inf
    pruning = full
    expanded = 0
    d = 0
    while d >= 0:
        item = upcoming[d]
        end = last if d == 0 else n_items - (p - 1 - d)
        if item >= end:
            d -= 1
            continue
        upcoming[d] = item + 1
        chosen[d] = item
        expanded += 1
        bound = bb_extend(acc, chosen, np.int64(d), T)  # d: one type wherever typed
        if bound == -np.inf or (pruning and bound <= limit):
            continue
        if d + 1 < p:
            d += 1
            upcoming[d] = item + 1
            continue
        _offer(b, bound, chosen, values, sets, kept)
        if kept[b] == top and values[b, top - 1] > limit:
            limit = values[b, top - 1]
            pruning = True
    return expanded
