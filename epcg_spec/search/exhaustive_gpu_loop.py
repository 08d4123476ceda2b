"""The exhaustive back end on a CUDA GPU: the CPU's loops, one slice of ranks per thread.

This file is a template, never imported: for `--device gpu` the connector makes it a
generated module of its own, which imports from the problem's CPU module (a generated
module with exhaustive_loop.py) the very loops it runs: `_scan`, `_mask_walk`,
`_prune_walk`, `space_unrank` and MASK_WALK. It also needs `cuda` (numba.cuda),
`STATE_LENGTH` (the state's length) and `MASK_GROUPS` (the prefix check's mask groups):
the sizes of each thread's local arrays, which CUDA needs as constants.

The chunk's ranks are cut into equal slices, which the threads take from a queue (an
atomic counter), so that a thread whose slices are pruned away at once takes more. On each
slice a thread runs the CPU template's own loop: `_scan` (unrank the first rank once, then
increment) or the pruned walk (`_mask_walk` / `_prune_walk`, from the root, restricted to
the slice), exactly as a CPU block does over its ranks. The constraint, objective and space
kernels are the very njit functions the CPU runs, which numba-cuda compiles as device
functions. Thread t adds its counts and offers its states to slot t; as the queue hands
out slices in rank order, each thread meets its ranks in increasing order, which the top
list's tie rule (the earlier rank stays) needs. Arrays travel in tuples, which numba's
simulator passes through as they are.
"""

# ruff: noqa: F821

import numpy as np
from numba import njit

MASK_ROWS = STATE_LENGTH + 1  # a global, so that CUDA reads it as the constant it needs


@njit(cache=True, inline="always")
def _gpu_clear(t, tallies, kept):
    """Thread t's slot, emptied."""
    kept[t] = 0
    for i in range(3):
        tallies[t, i] = 0


@cuda.jit(cache=True)
def gpu_scan(first, last, per_slice, scored, inputs, outputs):
    """Every rank of each slice thread t takes, all constraints on each; tallies[t] +=
    found, evaluated, 0."""
    P, S, _ = inputs
    tallies, bs, br, bx, kept, queue = outputs
    t = cuda.grid(1)
    if t >= kept.shape[0]:
        return
    _gpu_clear(t, tallies, kept)
    x = cuda.local.array(STATE_LENGTH, np.int64)
    while True:
        start = first + cuda.atomic.add(queue, 0, 1) * per_slice
        if start >= last:
            return
        end = min(start + per_slice, last)
        space_unrank(start, x, S)
        tallies[t, 0] += _scan(t, start, end, P, S, scored, bs, br, bx, kept, x)
        tallies[t, 1] += end - start


@cuda.jit(cache=True)
def gpu_walk(first, last, per_slice, scored, inputs, outputs):
    """The pruned walk over each slice thread t takes; tallies[t] += found, evaluated,
    pruned."""
    P, S, T = inputs
    tallies, bs, br, bx, kept, queue = outputs
    t = cuda.grid(1)
    if t >= kept.shape[0]:
        return
    _gpu_clear(t, tallies, kept)
    x = cuda.local.array(STATE_LENGTH, np.int64)
    lo = cuda.local.array(STATE_LENGTH, np.int64)
    todo = cuda.local.array(STATE_LENGTH, np.uint64)
    keep = cuda.local.array(STATE_LENGTH, np.uint64)
    masks = cuda.local.array((MASK_ROWS, MASK_GROUPS), np.uint64)
    tally = cuda.local.array(4, np.int64)  # found, evaluated, pruned, the walk's reach
    while True:
        start = first + cuda.atomic.add(queue, 0, 1) * per_slice
        if start >= last:
            return
        end = min(start + per_slice, last)
        for p in range(STATE_LENGTH):  # as fresh as the CPU's scratch for each block
            x[p] = 0
            lo[p] = 0
            todo[p] = 0
            keep[p] = 0
        for d in range(MASK_ROWS):
            for g in range(MASK_GROUPS):
                masks[d, g] = 0
        for i in range(4):
            tally[i] = 0
        if MASK_WALK:
            _mask_walk(
                t, start, end, P, S, T, scored, bs, br, bx, kept, x, lo, masks, todo, keep, tally
            )
        else:
            _prune_walk(t, start, end, P, S, T, scored, bs, br, bx, kept, x, lo, masks, tally)
        for i in range(3):
            tallies[t, i] += tally[i]


@cuda.jit(cache=True)
def gpu_gather(outputs, offsets, packed):
    """Copy each thread's kept (value, rank, state) entries to `packed` from offsets[t] on."""
    _, bs, br, bx, kept, _ = outputs
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
