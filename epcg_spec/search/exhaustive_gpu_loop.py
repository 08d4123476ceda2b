"""The exhaustive back end's scan on a CUDA GPU: the same loop as the CPU's, one per thread.

This file is a template, never imported: the connector appends it, after the CPU template
(exhaustive_loop.py), to a problem's generated module when the run asks for `--device gpu`.
Besides the names the CPU template leaves free, it needs `cuda` (numba.cuda) and
`STATE_LENGTH` (the state's length, the size of each thread's local state).

Each thread takes a contiguous slice of the chunk's ranks, unranks its first rank once and
runs the CPU template's `_scan` over the slice: the constraint, objective and space kernels
are the very njit functions the CPU runs, which numba-cuda compiles as device functions.
Thread t keeps its own top list in slot t, so a thread plays the part a block plays on the
CPU. Arrays travel in tuples, which numba's simulator passes through as they are.
"""

# ruff: noqa: F401, F821

import numpy as np
from numba import njit, prange


@cuda.jit(cache=True)
def gpu_scan(first, last, per_thread, scored, inputs, outputs):
    """Thread t scans ranks [first + t * per_thread, ...) up to `last`, into slot t."""
    P, S = inputs
    counts, bs, br, bx, kept = outputs
    t = cuda.grid(1)
    if t >= counts.shape[0]:
        return
    kept[t] = 0
    counts[t] = 0
    start = first + t * per_thread
    end = min(start + per_thread, last)
    if start >= end:
        return
    x = cuda.local.array(STATE_LENGTH, np.int64)
    space_unrank(start, x, S)
    counts[t] = _scan(t, start, end, P, S, scored, bs, br, bx, kept, x)


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
