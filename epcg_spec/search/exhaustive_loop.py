"""The exhaustive back end's block loop (Algorithm 1 of Sturtevant & Ota, AIIDE 2018).

This file is a template, never imported: the connector copies it into each problem's
generated module, where the names it leaves free are that problem's own kernels:

    space_unrank(r, x, S), space_rank(x, S), space_skip(x, depth, S),
    space_subtree(x, depth, S), space_first(x, p, S), space_next(x, p, S)
                                          the ranked space (spaces/codegen.py)
    check_full(x, P) -> bool              every constraint, on a complete state
    space_candidates(x, p, S) -> uint64   the values x[p] can take after x[:p] (MASK_WALK)
    space_uniform(x, p, S) -> bool        subtree sizes under x[p] do not depend on its value
    prefix_ok(x, d, P, T, A) -> bool      the terms that need exactly d leading positions,
                                          and the bounds of those tested at d
                                          (A: per-depth scratch of the distinct checks)
    forward(x, d, P, T, A) -> uint64      values x[d] must avoid given x[:d] (MASK_WALK)
    score(x, P) -> float                  the objective, oriented so that larger is better
    WALK_NRT                              False when the kernels allocate nothing, so the
                                          depth-first walk runs without numba's runtime
    MASK_WALK                             True when every value is below 64: the walk then
                                          pops candidate values from masks

Numba compiles and caches the module, inlining the kernels into this loop; passing
them as arguments instead would miss the cache on every run (see DESIGN.md, Numba).
"""

# ruff: noqa: F821

import numpy as np
from numba import njit

from epcg_spec.search.blocks import claim


@njit(cache=True, _nrt=WALK_NRT)
def _offer(b, rank, value, x, best_score, best_rank, best_state, kept):
    """Insert (value, rank, x) into block b's top list; ties keep the smaller rank."""
    k = best_score.shape[1]
    n = kept[b]
    if n == k and value <= best_score[b, n - 1]:
        return
    at = n if n < k else k - 1
    while at > 0 and best_score[b, at - 1] < value:
        if at < k:
            best_score[b, at] = best_score[b, at - 1]
            best_rank[b, at] = best_rank[b, at - 1]
            for p in range(x.shape[0]):
                best_state[b, at, p] = best_state[b, at - 1, p]
        at -= 1
    best_score[b, at] = value
    best_rank[b, at] = rank
    for p in range(x.shape[0]):
        best_state[b, at, p] = x[p]
    if n < k:
        kept[b] = n + 1


@njit(cache=True, _nrt=WALK_NRT)
def _scan_block(b, start, end, P, S, scored, counts, evaluated, bs, br, bx, kept, x):
    """Algorithm 1: every rank of the block, `increment` in the loop, all constraints each."""
    space_unrank(start, x, S)
    counts[b] = _scan(b, start, end, P, S, scored, bs, br, bx, kept, x)
    evaluated[b] = end - start


@njit(cache=True, _nrt=WALK_NRT)
def _scan(b, start, end, P, S, scored, bs, br, bx, kept, x):
    """The scan's loop, on a state allocated by the caller (no runtime when nothing allocates)."""
    found = 0
    for rank in range(start, end):
        if check_full(x, P):
            found += 1
            _offer(b, rank, score(x, P) if scored else 0.0, x, bs, br, bx, kept)
        space_skip(x, x.shape[0], S)
    return found


@njit(cache=True, _nrt=WALK_NRT)
def _prune_block(
    b, start, end, P, S, T, scored, counts, evaluated, pruned, bs, br, bx, kept, reach, scratch
):
    """Clear the thread's scratch arrays (exhaustive.py, `_scratch`), then walk the block;
    reach[b]: where the failing prefixes it met end (ranks [end, reach[b]) hold nothing)."""
    x, lo, masks, tally, todo, keep = scratch
    x[:] = 0
    lo[:] = 0
    masks[:] = 0
    tally[:] = 0
    if MASK_WALK:
        todo[:] = 0
        keep[:] = 0
        _mask_walk(
            b, start, end, P, S, T, scored, bs, br, bx, kept, x, lo, masks, todo, keep, tally
        )
    else:
        _prune_walk(b, start, end, P, S, T, scored, bs, br, bx, kept, x, lo, masks, tally)
    counts[b] = tally[0]
    evaluated[b] = tally[1]
    pruned[b] = tally[2]
    reach[b] = tally[3]


@njit(cache=True, inline="always", _nrt=WALK_NRT)
def _visit(b, d, first, last, start, end, passed, P, scored, bs, br, bx, kept, x, tally):
    """Book the child x[:d+1] whose ranks are [first, last), which `passed` prefix_ok or
    not; True: walk into it.

    A complete state that passes is counted and offered to the top list; one that fails
    counts as evaluated; a failing prefix's ranks inside [start, end) count as pruned, and
    tally[3] keeps the furthest rank a failing prefix reaches. The walks call prefix_ok
    (for a child with ranks from `start` on): called in here, numba copied its inlined
    code again with this function's (docs/benchmarks.md, "The prefix check inlined once").
    """
    if last <= start:
        return False
    if passed:
        if d + 1 < x.shape[0]:
            return True
        tally[0] += 1
        tally[1] += 1
        _offer(b, first, score(x, P) if scored else 0.0, x, bs, br, bx, kept)
    elif d + 1 == x.shape[0]:
        tally[1] += 1
    else:
        tally[2] += _overlap(first, last, start, end)
        tally[3] = max(tally[3], last)
    return False


@njit(cache=True, _nrt=WALK_NRT)
def _prune_walk(b, start, end, P, S, T, scored, bs, br, bx, kept, x, lo, masks, tally):
    """Depth-first over the prefix tree, restricted to ranks [start, end).

    Position d is set by space_first/space_next only; a prefix whose new terms fail
    is skipped whole, its subtree size added to the pruned count. lo[d] is the first
    rank under the prefix x[:d+1], so a leaf's rank is known without calling rank().
    Compiled without numba's runtime (no reference counting) when nothing allocates:
    every array it touches is passed in.
    """
    d = 0
    live = space_first(x, 0, S)
    while live:
        first = lo[d]
        if first >= end:
            break
        last = first + space_subtree(x, d + 1, S)
        passed = last > start and prefix_ok(x, d + 1, P, T, masks)
        if _visit(b, d, first, last, start, end, passed, P, scored, bs, br, bx, kept, x, tally):
            d += 1
            lo[d] = first
            live = space_first(x, d, S)
            continue
        lo[d] = last
        live = space_next(x, d, S)
        while not live and d > 0:
            d -= 1
            lo[d] += space_subtree(x, d + 1, S)
            live = space_next(x, d, S)


@njit(cache=True, inline="always")
def _overlap(first, last, start, end):
    """How many of the ranks [first, last) lie in [start, end)."""
    return max(min(last, end) - max(first, start), 0)


@njit(cache=True, _nrt=WALK_NRT)
def _mask_walk(b, start, end, P, S, T, scored, bs, br, bx, kept, x, lo, masks, todo, keep, tally):
    """The depth-first walk where every value fits a mask (MASK_WALK).

    todo[d] holds the values x[d] has yet to take, keep[d] those the forward check (values a
    distinct group already holds) leaves; passed-over values count as pruned. lo[d] is the
    first rank of the current child at depth d, advanced past each child as it is left.
    Each kernel the walk inlines has one call site (numba types and lowers every inlined
    copy anew): a cold build of n-queens spent 5 s of CPU on this walk with two or more.
    """
    d = 0
    lo[0] = 0
    fresh = True  # x[d]'s candidates are still to be found
    while True:
        if fresh:
            todo[d] = space_candidates(x, d, S)
            keep[d] = todo[d] & ~forward(x, d, P, T, masks)
            fresh = False
        if lo[d] >= end:
            break
        open_ = todo[d] & keep[d]
        bit = open_ & (~open_ + np.uint64(1))
        passed = todo[d] & (bit - np.uint64(1)) if open_ != 0 else todo[d]
        span = passed | bit  # the passed-over values, then the open one
        size = 0
        while span != 0:
            low = span & (~span + np.uint64(1))
            x[d] = popcount(low - np.uint64(1))
            size = space_subtree(x, d + 1, S)
            if low == bit:
                break
            if space_uniform(x, d, S):  # every passed-over value left at once
                size *= popcount(span & ~bit)
                span = bit
            else:
                span ^= low
            tally[2] += _overlap(lo[d], lo[d] + size, start, end)
            lo[d] += size
            tally[3] = max(tally[3], lo[d])
        if open_ == 0:
            if d == 0:
                break
            d -= 1
            lo[d] = lo[d + 1]
            continue
        todo[d] &= ~(bit | (bit - np.uint64(1)))
        first = lo[d]
        if first >= end:
            break
        last = first + size
        passed = last > start and prefix_ok(x, d + 1, P, T, masks)
        if _visit(b, d, first, last, start, end, passed, P, scored, bs, br, bx, kept, x, tally):
            d += 1
            lo[d] = first
            fresh = True
            continue
        lo[d] = last


@njit(cache=True, nogil=True, _nrt=WALK_NRT)
def run_pruned(
    following, size, count, starts, ends, P, S, T, scored, counts, evaluated, pruned,
    bs, br, bx, kept, reach, scratch,
):  # fmt: skip
    """Walk the runs of `size` blocks this thread claims (search/blocks.py) until blocks
    0..count - 1 are all taken, block b over [starts[b], ends[b]), writing only slot b.
    A block that a failing prefix of the block before it covers whole is not walked: all
    its ranks are pruned, as its walk would find (the slots start at zero).
    Without numba's runtime (when the kernels allocate nothing): reference counts of the
    arrays every thread shares would be atomic writes to the same cache lines."""
    lo = claim(following, size)
    while lo < count:
        b, stop = lo, min(lo + size, count)
        while b < stop:
            _prune_block(
                b, starts[b], ends[b], P, S, T, scored, counts, evaluated, pruned, bs, br, bx,
                kept, reach, scratch,
            )  # fmt: skip
            dead = reach[b]
            b += 1
            while b < stop and ends[b] <= dead:
                pruned[b] = ends[b] - starts[b]
                reach[b] = dead
                b += 1
        lo = claim(following, size)


@njit(cache=True, nogil=True, _nrt=WALK_NRT)
def run_scanned(
    following, size, count, starts, ends, P, S, scored, counts, evaluated, bs, br, bx, kept,
    scratch,
):  # fmt: skip
    """Scan the runs of `size` blocks this thread claims, as run_pruned walks them."""
    x = scratch[0]
    lo = claim(following, size)
    while lo < count:
        for b in range(lo, min(lo + size, count)):
            _scan_block(b, starts[b], ends[b], P, S, scored, counts, evaluated, bs, br, bx, kept, x)
        lo = claim(following, size)
