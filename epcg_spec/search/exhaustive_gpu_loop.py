"""The exhaustive back end on a CUDA GPU: the CPU's loops, one slice of ranks per thread.

This file is a template, never imported: the connector appends it, after the CPU template
(exhaustive_loop.py), to a problem's generated module when the run asks for `--device gpu`.
Besides the names the CPU template leaves free, it needs `cuda` (numba.cuda),
`STATE_LENGTH` (the state's length) and `MASK_GROUPS` (the prefix check's mask groups):
the sizes of each thread's local arrays, which CUDA needs as constants.

Each thread takes a contiguous slice of the chunk's ranks and runs the CPU template's own
loop over it: `_scan` (unrank the first rank once, then increment) or the pruned walk
(`_mask_walk` / `_prune_walk`, from the root, restricted to the slice), exactly as a CPU
block does over its ranks. The constraint, objective and space kernels are the very njit
functions the CPU runs, which numba-cuda compiles as device functions. Thread t keeps its
counts and its top list in slot t. Arrays travel in tuples, which numba's simulator passes
through as they are.
"""

# ruff: noqa: F401, F821

import numpy as np
from numba import njit, prange

MASK_ROWS = STATE_LENGTH + 1  # a global, so that CUDA reads it as the constant it needs


@njit(cache=True, inline="always")
def _gpu_slice(t, first, last, per_thread, tallies, kept):
    """Thread t's ranks [start, end), its slot cleared; start >= end: nothing to do."""
    if t >= kept.shape[0]:
        return 0, 0
    kept[t] = 0
    for i in range(3):
        tallies[t, i] = 0
    start = first + t * per_thread
    return start, min(start + per_thread, last)


@cuda.jit(cache=True)
def gpu_scan(first, last, per_thread, scored, inputs, outputs):
    """Every rank of thread t's slice, all constraints on each; tallies[t] = found,
    evaluated, 0."""
    P, S, _ = inputs
    tallies, bs, br, bx, kept = outputs
    t = cuda.grid(1)
    start, end = _gpu_slice(t, first, last, per_thread, tallies, kept)
    if start >= end:
        return
    x = cuda.local.array(STATE_LENGTH, np.int64)
    space_unrank(start, x, S)
    tallies[t, 0] = _scan(t, start, end, P, S, scored, bs, br, bx, kept, x)
    tallies[t, 1] = end - start


@cuda.jit(cache=True)
def gpu_walk(first, last, per_thread, scored, inputs, outputs):
    """The pruned walk over thread t's slice; tallies[t] = found, evaluated, pruned."""
    P, S, T = inputs
    tallies, bs, br, bx, kept = outputs
    t = cuda.grid(1)
    start, end = _gpu_slice(t, first, last, per_thread, tallies, kept)
    if start >= end:
        return
    x = cuda.local.array(STATE_LENGTH, np.int64)
    lo = cuda.local.array(STATE_LENGTH, np.int64)
    todo = cuda.local.array(STATE_LENGTH, np.uint64)
    keep = cuda.local.array(STATE_LENGTH, np.uint64)
    masks = cuda.local.array((MASK_ROWS, MASK_GROUPS), np.uint64)
    tally = cuda.local.array(3, np.int64)
    for p in range(STATE_LENGTH):
        x[p] = 0
        lo[p] = 0
        todo[p] = 0
        keep[p] = 0
    for d in range(MASK_ROWS):
        for g in range(MASK_GROUPS):
            masks[d, g] = 0
    for i in range(3):
        tally[i] = 0
    if MASK_WALK:
        _mask_walk(
            t, start, end, P, S, T, scored, bs, br, bx, kept, x, lo, masks, todo, keep, tally
        )
    else:
        _prune_walk(t, start, end, P, S, T, scored, bs, br, bx, kept, x, lo, masks, tally)
    for i in range(3):
        tallies[t, i] = tally[i]


@cuda.jit(cache=True)
def gpu_gather(outputs, offsets, packed):
    """Copy each thread's kept (value, rank, state) entries to `packed` from offsets[t] on."""
    _, bs, br, bx, kept = outputs
    scores, ranks, states = packed
    t = cuda.grid(1)
    if t >= kept.shape[0]:
        return
    at = offsets[t]
    for i in range(kept[t]):
        scores[at + i] = bs[t, i]
        ranks[at + i] = br[t, i]
        for p in range(bx.shape[2]):
            states[at + i, p] = bx[t, i, p]
