"""numba kernels of the Witness rules: regions of a line, constraint checks, piece tiling,
and which lines solve a panel.

Cells are numbered c = y * width + x (y upwards), so a region is a uint64 cell mask; a line
is a bitset of the slots (edges, then vertices) it uses. Tables come from `grid_tables`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ...spaces.bits import bit_index, lowest_bit, popcount
from .model import PIECE, SQUARE, STAR, TRIANGLE, Grid

ONE = np.uint64(1)
ZERO = np.uint64(0)
# Directions of a cell's sides and neighbours: right, left, up, down.
CELL_DX = (1, -1, 0, 0)
CELL_DY = (0, 0, 1, -1)


def grid_tables(grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """nbr[c, d]: the cell next to cell c in direction d, or -1 off the panel;
    side[c, d]: the slot of the edge on that side of cell c."""
    w, h = grid.width, grid.height
    nbr = np.full((grid.cells, 4), -1, dtype=np.int64)
    side = np.zeros((grid.cells, 4), dtype=np.int64)
    for c in range(grid.cells):
        x, y = grid.cell_xy(c)
        side[c] = [
            grid.edge((x + 1, y), (x + 1, y + 1)),
            grid.edge((x, y), (x, y + 1)),
            grid.edge((x, y + 1), (x + 1, y + 1)),
            grid.edge((x, y), (x + 1, y)),
        ]
        for d in range(4):
            nx, ny = x + CELL_DX[d], y + CELL_DY[d]
            if 0 <= nx < w and 0 <= ny < h:
                nbr[c, d] = grid.cell(nx, ny)
    return nbr, side


@njit(cache=True, inline="always")
def has_slot(bits, s):
    return (bits[s >> 6] >> np.uint64(s & 63)) & ONE != ZERO


@njit(cache=True, inline="always")
def insert_sorted(a, n, value):
    """Insert `value` into the increasing a[:n] (a holds one more): a[:n + 1] increases."""
    at = n
    while at > 0 and a[at - 1] > value:
        a[at] = a[at - 1]
        at -= 1
    a[at] = value


@njit(cache=True, nogil=True)
def region_labels(lo, hi, lines, nbr, side, labels, counts):
    """labels[i, c]: the region of cell c cut by line i (regions numbered from the lowest
    cell up); counts[i]: how many regions line i makes; for the lines lo <= i < hi."""
    cells = nbr.shape[0]
    for i in range(lo, hi):
        line = lines[i]
        lab = labels[i]
        lab[:] = -1
        stack = np.empty(cells, np.int64)
        r = 0
        for c in range(cells):
            if lab[c] >= 0:
                continue
            lab[c] = r
            top = 0
            stack[0] = c
            while top >= 0:
                u = stack[top]
                top -= 1
                for d in range(4):
                    v = nbr[u, d]
                    if v >= 0 and lab[v] < 0 and not has_slot(line, side[u, d]):
                        lab[v] = r
                        top += 1
                        stack[top] = v
            r += 1
        counts[i] = r


@njit(cache=True, nogil=True)
def region_masks(lo, hi, labels, start, masks):
    """masks[start[i] + r]: the cell mask of region r of line i, for lo <= i < hi."""
    for i in range(lo, hi):
        for c in range(labels.shape[1]):
            masks[start[i] + labels[i, c]] |= ONE << np.uint64(c)


@njit(cache=True)
def tiles(region, types, place):
    """Whether the pieces `types` (sorted piece indices) tile the cell mask `region` exactly,
    each piece translated only; the caller has checked that the areas add up."""
    n = types.shape[0]
    used = np.zeros(n, np.bool_)
    tried = np.zeros(n + 1, np.int64)
    piece = np.full(n + 1, -1, np.int64)
    rest = np.zeros(n + 1, np.uint64)
    rest[0] = region
    depth = 0
    while depth >= 0:
        if rest[depth] == ZERO:
            return True
        j = tried[depth]
        if j == n:
            tried[depth] = 0
            depth -= 1
            if depth >= 0:
                used[piece[depth]] = False
            continue
        tried[depth] = j + 1
        if used[j] or (j > 0 and types[j] == types[j - 1] and not used[j - 1]):
            continue
        cell = bit_index(lowest_bit(rest[depth]))
        mask = place[types[j], cell]
        if mask == ZERO or (mask & ~rest[depth]) != ZERO:
            continue
        used[j] = True
        piece[depth] = j
        rest[depth + 1] = rest[depth] & ~mask
        depth += 1
    return False


@njit(cache=True, inline="always")
def line_local_ok(line, P, side):
    """Whether the line meets the symbols that need no regions: must-cross, cannot-cross and
    triangles."""
    must, cannot, kind, param, marked = P
    for w in range(must.shape[0]):
        if (line[w] & must[w]) != must[w] or (line[w] & cannot[w]) != ZERO:
            return False
    for k in range(marked.shape[0]):
        c = marked[k]
        if kind[c] == TRIANGLE:
            on = 0
            for d in range(4):
                if has_slot(line, side[c, d]):
                    on += 1
            if on != param[c]:
                return False
    return True


@njit(cache=True, inline="always")
def region_failures(i, L, P, R, colour, area, types):
    """(colour, piece) bit masks of the regions of line i whose squares and stars, or whose
    pieces, break the rules; `colour`, `area` and `types` are scratch arrays of length
    cells."""
    _, labels, reg_start, reg_mask = L
    _, _, kind, param, marked = P
    _, place, sizes = R
    base = reg_start[i]
    regions = reg_start[i + 1] - base
    lab = labels[i]
    bad_colour = ZERO
    bad_piece = ZERO
    for r in range(regions):
        colour[r] = -1
        area[r] = 0
    for k in range(marked.shape[0]):
        c = marked[k]
        r = lab[c]
        if kind[c] == SQUARE:
            if colour[r] == -1:
                colour[r] = param[c]
            elif colour[r] != param[c]:
                bad_colour |= ONE << np.uint64(r)
        elif kind[c] == PIECE:
            area[r] += sizes[param[c]]
        elif kind[c] == STAR:
            same = 0
            for m in range(marked.shape[0]):
                e = marked[m]
                coloured = kind[e] == SQUARE or kind[e] == STAR
                if coloured and param[e] == param[c] and lab[e] == r:
                    same += 1
            if same != 2:
                bad_colour |= ONE << np.uint64(r)
    for r in range(regions):
        if area[r] == 0:
            continue
        if area[r] != popcount(reg_mask[base + r]):
            bad_piece |= ONE << np.uint64(r)
            continue
        held = 0
        for k in range(marked.shape[0]):
            if kind[marked[k]] == PIECE and lab[marked[k]] == r:
                insert_sorted(types, held, param[marked[k]])
                held += 1
        if not tiles(reg_mask[base + r], types[:held], place):
            bad_piece |= ONE << np.uint64(r)
    return bad_colour, bad_piece


@njit(cache=True, nogil=True)
def base_filter(lo, hi, L, P, side, R, ok, fail_colour, fail_piece):
    """For the panel P and the lines lo <= i < hi of L: ok[i] whether line i meets the
    line-local symbols (`side`: the slot of each side of each cell), and if it does, the
    regions of line i where the symbols break the colour or piece rules (line i solves the
    panel if ok[i] and it has neither), under the rule tables R (see `rules.py`); R is None
    where the panel has no square, star or piece (numba then compiles no region rules)."""
    scratch = np.empty((3, L[1].shape[1]), np.int64)
    for i in range(lo, hi):
        ok[i] = line_local_ok(L[0][i], P, side)
        if R is not None and ok[i]:
            fail_colour[i], fail_piece[i] = region_failures(
                np.int64(i), L, P, R, scratch[0], scratch[1], scratch[2]
            )
