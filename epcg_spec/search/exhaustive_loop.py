"""The exhaustive back end's block loop (Algorithm 1 of Sturtevant & Ota, AIIDE 2018).

This file is a template, never imported: the connector copies it into each problem's
generated module, where the names it leaves free are that problem's own kernels:

    space_unrank(r, x, S), space_rank(x, S), space_skip(x, depth, S),
    space_subtree(x, depth, S), space_first(x, p, S), space_next(x, p, S)
                                          the ranked space (spaces/codegen.py)
    check_full(x, P) -> bool              every constraint, on a complete state
    prefix_ok(x, d, P, T) -> bool         the terms that need exactly d leading positions
    score(x, P) -> float                  the objective, oriented so that larger is better

Numba compiles and caches the module, inlining the kernels into this loop; passing
them as arguments instead would miss the cache on every run (see DESIGN.md, Numba).
"""

# ruff: noqa: F821

import numpy as np
from numba import njit, prange


@njit(cache=True)
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
            best_state[b, at, :] = best_state[b, at - 1, :]
        at -= 1
    best_score[b, at] = value
    best_rank[b, at] = rank
    best_state[b, at, :] = x
    if n < k:
        kept[b] = n + 1


@njit(cache=True)
def _scan_block(b, start, end, P, S, scored, counts, evaluated, bs, br, bx, kept):
    """Algorithm 1: every rank of the block, `increment` in the loop, all constraints each."""
    x = np.empty(bx.shape[2], np.int64)
    space_unrank(start, x, S)
    found = 0
    for rank in range(start, end):
        if check_full(x, P):
            found += 1
            _offer(b, rank, score(x, P) if scored else 0.0, x, bs, br, bx, kept)
        space_skip(x, x.shape[0], S)
    counts[b] = found
    evaluated[b] = end - start


@njit(cache=True)
def _prune_block(b, start, end, P, S, T, scored, counts, evaluated, pruned, bs, br, bx, kept):
    """Depth-first over the prefix tree, restricted to ranks [start, end).

    Position d is set by space_first/space_next only; a prefix whose new terms fail
    is skipped whole, its subtree size added to `pruned`. lo[d] is the first rank
    under the prefix x[:d+1], so a leaf's rank is known without calling rank().
    """
    length = bx.shape[2]
    x = np.empty(length, np.int64)
    lo = np.zeros(length, np.int64)
    found = 0
    leaves = 0
    skipped = 0
    d = 0
    live = space_first(x, 0, S)
    while live:
        first = lo[d]
        if first >= end:
            break
        last = first + space_subtree(x, d + 1, S)
        if last > start:
            if prefix_ok(x, d + 1, P, T):
                if d + 1 < length:
                    d += 1
                    lo[d] = first
                    live = space_first(x, d, S)
                    continue
                leaves += 1
                found += 1
                _offer(b, first, score(x, P) if scored else 0.0, x, bs, br, bx, kept)
            elif d + 1 == length:
                leaves += 1
            else:
                skipped += min(last, end) - max(first, start)
        lo[d] = last
        live = space_next(x, d, S)
        while not live and d > 0:
            d -= 1
            lo[d] += space_subtree(x, d + 1, S)
            live = space_next(x, d, S)
    counts[b] = found
    evaluated[b] = leaves
    pruned[b] = skipped


@njit(cache=True, parallel=True)
def run_blocks(starts, ends, P, S, T, prune, scored, counts, evaluated, pruned, bs, br, bx, kept):
    """Run every block [starts[b], ends[b]) in parallel; block b writes only slot b."""
    for b in prange(starts.shape[0]):
        if prune:
            _prune_block(
                b,
                starts[b],
                ends[b],
                P,
                S,
                T,
                scored,
                counts,
                evaluated,
                pruned,
                bs,
                br,
                bx,
                kept,
            )
        else:
            _scan_block(b, starts[b], ends[b], P, S, scored, counts, evaluated, bs, br, bx, kept)
