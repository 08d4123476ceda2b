"""The retrograde back end's passes on a CUDA GPU: the CPU's block loops, one block a thread.

This file is a template, never imported: for `--device gpu` the connector makes it a
generated module of its own, which imports from the CPU's generated module (the one with
retrograde_loop.py) the loops it runs, `_scan_block`, `_fill_block` and `_predecessor_block`,
and the sizes and type of their scratch: MAX_MOVES, MAX_PREDECESSORS and STATE_TYPE (the
dtype of a state). It also needs `cuda` (numba.cuda).

Thread b runs the CPU template's own loop over block b (`_scan_block`, `_fill_block`,
`_predecessor_block`) on scratch arrays local to the thread, and writes only what block b
owns: its words of the layer (blocks start at multiples of 64 ranks), its row of tally,
found and out. Arrays travel in one tuple, which numba's simulator passes through as it is.
"""

# ruff: noqa: F401, F821

import numpy as np
from numba import njit


@cuda.jit(cache=True)
def gpu_scan_blocks(m, rules, free_last, G, arrays):
    """scan_blocks, block b on thread b."""
    starts, ends, below, below_moves, below_boards, out, tally = arrays
    b = cuda.grid(1)
    if b >= starts.shape[0]:
        return
    moves = cuda.local.array(MAX_MOVES, np.int64)
    _scan_block(
        m, b, starts[b], ends[b], below, below_moves, below_boards, rules, free_last, G,
        out, tally, moves,
    )  # fmt: skip


@cuda.jit(cache=True)
def gpu_fill_blocks(m, G, arrays):
    """fill_blocks, block b on thread b."""
    starts, ends, out, tally = arrays
    b = cuda.grid(1)
    if b >= starts.shape[0]:
        return
    _fill_block(m, b, starts[b], ends[b], G, out, tally)


@cuda.jit(cache=True)
def gpu_predecessor_blocks(m, rule, free_last, G, arrays):
    """predecessor_blocks, block b on thread b."""
    unique_below, starts, ends, below, out, found = arrays
    b = cuda.grid(1)
    if b >= starts.shape[0]:
        return
    moves = cuda.local.array(MAX_MOVES, np.int64)
    states = cuda.local.array(MAX_PREDECESSORS, STATE_TYPE)
    back = cuda.local.array(MAX_PREDECESSORS, np.int64)
    _predecessor_block(
        m, b, unique_below, starts[b], ends[b], below, rule, free_last, G, out, found,
        moves, states, back,
    )  # fmt: skip
