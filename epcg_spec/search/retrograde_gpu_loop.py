"""The retrograde back end's passes on a CUDA GPU: the CPU's block loops, on pieces of a block.

This file is a template, never imported: for `--device gpu` the connector makes it a
generated module of its own, which imports from the CPU's generated module (the one with
retrograde_loop.py) the loops it runs, `_scan_block`, `_fill_block` and `_predecessor_block`,
and the sizes and type of their scratch: MAX_MOVES, MAX_PREDECESSORS and STATE_TYPE (the
dtype of a state). It also needs `cuda` (numba.cuda).

A block is cut into pieces of `piece` ranks (or unique states), `per_block` of them, so
that a layer's blocks keep a GPU's hundreds of thousands of threads busy. Thread g runs the
CPU template's own loop (`_scan_block`, `_fill_block`, `_predecessor_block`) over piece g
on scratch arrays local to the thread and writes only what piece g owns: its words of the
layer (pieces start at multiples of 64 ranks) and, for predecessors, its row of out and
found, which retrograde_gpu.py packs in order. Its counts are added to its block's row of
tally atomically. Arrays travel in one tuple, which numba's simulator passes through as
it is.
"""

# ruff: noqa: F821

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _piece(g, starts, ends, piece, per_block):
    """Piece g: its block and its range [start, end), empty past the last block."""
    b = g // per_block
    if b >= starts.shape[0]:
        return 0, 0, 0
    start = starts[b] + (g % per_block) * piece
    return b, start, min(start + piece, ends[b])


@cuda.jit(cache=True)
def gpu_scan_blocks(m, rules, free_last, G, piece, per_block, arrays):
    """scan_blocks, piece g on thread g."""
    starts, ends, below, below_moves, below_boards, out, tally = arrays
    b, start, end = _piece(cuda.grid(1), starts, ends, piece, per_block)
    if end <= start:
        return
    moves = cuda.local.array(MAX_MOVES, np.int64)
    counts = cuda.local.array((1, 3), np.int64)
    _scan_block(
        m, 0, start, end, below, below_moves, below_boards, rules, free_last, G, out, counts,
        moves,
    )  # fmt: skip
    for i in range(3):
        cuda.atomic.add(tally, (b, i), counts[0, i])


@cuda.jit(cache=True)
def gpu_fill_blocks(m, G, piece, per_block, arrays):
    """fill_blocks, piece g on thread g."""
    starts, ends, out, tally = arrays
    b, start, end = _piece(cuda.grid(1), starts, ends, piece, per_block)
    if end <= start:
        return
    counts = cuda.local.array((1, 3), np.int64)
    _fill_block(m, 0, start, end, G, out, counts)
    for i in range(3):
        cuda.atomic.add(tally, (b, i), counts[0, i])


@cuda.jit(cache=True)
def gpu_predecessor_blocks(m, rule, free_last, G, piece, per_block, arrays):
    """predecessor_blocks, piece g on thread g: its ranks to out[g, :found[g]]."""
    unique_below, starts, ends, below, out, found = arrays
    g = cuda.grid(1)
    _, start, end = _piece(g, starts, ends, piece, per_block)
    if end <= start:
        return
    moves = cuda.local.array(MAX_MOVES, np.int64)
    states = cuda.local.array(MAX_PREDECESSORS, STATE_TYPE)
    back = cuda.local.array(MAX_PREDECESSORS, np.int64)
    _predecessor_block(
        m, g, unique_below, start, end, below, rule, free_last, G, out, found, moves, states,
        back,
    )  # fmt: skip


@cuda.jit(cache=True)
def gpu_pack(out, found, offsets, packed):
    """Piece g's ranks, out[g, :found[g]], to packed from offsets[g] on."""
    g = cuda.grid(1)
    if g >= found.shape[0]:
        return
    at = offsets[g]
    for i in range(found[g]):
        packed[at + i] = out[g, i]
