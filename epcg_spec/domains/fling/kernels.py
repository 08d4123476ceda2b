"""Fling! boards as uint64 bit masks (cell = y * width + x): moves, ranks, predecessors.

A move flings the piece on cell p in direction d (0 right, 1 left, 2 down, 3 up). It is legal
when the next cell along d is empty and some piece lies further along the line. The flung
piece slides up to the first piece in its way, which passes the momentum on, and so on, and
the last piece of the line slides off the board: as a set, every piece beyond p ends one cell
closer to p and cell p is emptied. A move is coded p * 4 + d.

A board of m pieces is ranked lexicographically over its ascending cell list (the order of
`CombinationSpace(cells, m)`): rank = C(N, m) - 1 - sum_i C(N - 1 - c_i, m - i).

Every kernel takes the tables G = `geometry(width, height)` of the board shape. Tables are
flat and indexed with unsigned integers, which spares numba's negative-index checks: the
rank loop runs in about half the time. These kernels are also the retrograde back end's
`layer_*` kernels (see search/retrograde_loop.py).
"""

from __future__ import annotations

from math import comb
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from .model import MAX_CELLS

kernel = njit(cache=True, inline="always")
# Small kernels are called: LLVM inlines them, while numba would type a copy at every site.
called = njit(cache=True)

ZERO = np.uint64(0)
ONE = np.uint64(1)
DIRECTIONS = ("right", "left", "down", "up")
MAX_MOVES = 4 * MAX_CELLS  # room for the moves of any board
MAX_PREDECESSORS = 4 * MAX_CELLS  # an empty cell and a direction give at most one
STATE_TYPE = np.uint64  # a board: one bit per cell
SMEAR = 8  # per direction: one step, then doublings (enough for lines of 64 cells), then 0
_I64 = ir.IntType(64)
_COUNT_ZEROS = ir.FunctionType(_I64, [_I64, ir.IntType(1)])
_ONE_ARG = ir.FunctionType(_I64, [_I64])


def _bit_intrinsic(name: str, doc: str):
    """A numba intrinsic uint64 -> uint64 calling LLVM's `name` (one instruction on x86)."""

    def typer(typingctx, value):
        if value != types.uint64:
            return None

        def codegen(context, builder, signature, args):
            if name in ("llvm.ctlz", "llvm.cttz"):
                fn = builder.module.declare_intrinsic(name, [_I64], _COUNT_ZEROS)
                return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])
            fn = builder.module.declare_intrinsic(name, [_I64], _ONE_ARG)
            return builder.call(fn, [args[0]])

        return types.uint64(types.uint64), codegen

    typer.__name__ = name.replace("llvm.", "_")
    typer.__doc__ = doc
    return intrinsic(typer)


_ctlz = _bit_intrinsic("llvm.ctlz", "Leading zero bits (64 for 0).")
_cttz = _bit_intrinsic("llvm.cttz", "Trailing zero bits (64 for 0).")
_ctpop = _bit_intrinsic("llvm.ctpop", "Set bits.")


@called
def piece_count(b):
    return np.int64(_ctpop(b))


@called
def _back(v, d, j, G):
    """Bits of v moved by G.smear_shift[d, j] against direction d, then masked."""
    at = np.uint64(d) * np.uint64(SMEAR) + np.uint64(j)
    if d & 1 == 0:
        return (v >> G.smear_shift[at]) & G.smear_mask[at]
    return (v << G.smear_shift[at]) & G.smear_mask[at]


@kernel
def movers(b, d, G):
    """The cells whose piece can be flung in direction d on board b: the next cell along d
    is empty (the first `_back` step) and some piece lies beyond (smeared by doublings)."""
    open_next = _back(~b & G.board, d, 0, G)
    beyond = _back(b, d, 0, G)
    for j in range(1, SMEAR):
        if G.smear_shift[np.uint64(d) * np.uint64(SMEAR) + np.uint64(j)] == ZERO:
            break
        beyond |= _back(beyond, d, j, G)
    return b & open_next & beyond


@kernel
def layer_moves(b, G, out):
    """Write the legal moves of b into out (by direction, then ascending cells); the count."""
    n = 0
    for d in range(4):
        x = movers(b, d, G)
        while x != ZERO:
            out[n] = np.int64(_cttz(x)) * 4 + d
            x &= x - ONE
            n += 1
    return n


@called
def is_legal(b, move, G):
    """Whether `move` is legal on board b: its piece is there, some piece lies beyond it,
    and the next cell along its direction (then on the board) is empty."""
    at = np.uint64(move)
    cell = at >> np.uint64(2)
    if (b >> cell) & ONE == ZERO or b & G.ray[at] == ZERO:
        return False
    step = G.step[at & np.uint64(3)]
    following = cell + step if move & 1 == 0 else cell - step
    return (b >> following) & ONE == ZERO


@kernel
def apply_move(b, move, G):
    """The board after the legal move `move` on board b."""
    at = np.uint64(move)
    beyond = b & G.ray[at]
    rest = b ^ beyond ^ (ONE << (at >> np.uint64(2)))
    if move & 1 == 0:
        return rest | (beyond >> G.step[at & np.uint64(3)])
    return rest | (beyond << G.step[at & np.uint64(3)])


@kernel
def layer_rank(b, m, G):
    """Lexicographic rank of the m-piece board b among all m-piece boards."""
    at = np.uint64(m) << np.uint64(12)
    total = 0
    x = b
    while x != ZERO:
        total += G.terms[at + (_cttz(x) << np.uint64(6))]
        x &= x - ONE
        at += ONE
    return G.last[np.uint64(m)] - total


@kernel
def layer_successor_rank(b, move, m, G):
    """Rank among the (m - 1)-piece boards of the board `move` leads to from the m-piece b."""
    return layer_rank(apply_move(b, move, G), m - 1, G)


@njit(cache=True)  # called, not inlined: once per block, or per board a block starts from
def layer_unrank(r, m, G):
    """The m-piece board of rank r."""
    n = G.cells
    rest = G.last[m] - r
    a = n - 1
    b = ZERO
    for i in range(m):
        j = m - i
        while G.binom[a, j] > rest:
            a -= 1
        rest -= G.binom[a, j]
        b |= ONE << np.uint64(n - 1 - a)
        a -= 1
    return b


@kernel
def layer_next(b, m, G):
    """The m-piece board following b in rank order (b must not be the last one): the
    highest piece below the run of pieces at the end moves up one cell and the run
    follows right behind it."""
    n = np.uint64(G.cells)
    run = _ctlz(~(b << (np.uint64(64) - n)))
    rest = b ^ (((ONE << run) - ONE) << (n - run))
    h = np.uint64(63) - _ctlz(rest)
    return (rest ^ (ONE << h)) | (((ONE << (run + ONE)) - ONE) << (h + ONE))


@njit(cache=True)  # called, not inlined: once per board whose predecessors are looked for
def layer_predecessors(s, G, boards, moves):
    """Every (board, move) whose move leads to s: boards[i] with moves[i]; returns the count.

    Undoing a move (p, d): cell p is empty on s, some piece lies beyond p along d, and the
    piece furthest along d is not on the edge; every piece beyond p goes one cell further
    along d and a piece is put back on p.
    """
    n = 0
    x = ~s & G.board
    while x != ZERO:
        p = _cttz(x)
        x &= x - ONE
        for d in range(4):
            at = (p << np.uint64(2)) + np.uint64(d)
            ray = G.ray[at]
            beyond = s & ray
            if beyond == ZERO:
                continue
            step = G.step[np.uint64(d)]
            moved = beyond << step if d & 1 == 0 else beyond >> step
            if _ctpop(moved & ray) != _ctpop(beyond):
                continue  # the furthest piece would leave the board
            boards[n] = (s ^ beyond) | moved | (ONE << p)
            moves[n] = np.int64(at)
            n += 1
    return n


@kernel
def layer_canonical(b, G):
    """b moved up and then left until it touches the top row and the left column.

    Pieces slide until they meet another piece or leave the board, however far the edge
    is, so a board plays exactly like its translates: a whole class of translates is
    solvable, or unique, or neither, together. (A half turn keeps the rules too, but the
    ranks of turned boards are scattered, and looking their bits up costs more than it
    saves.)
    """
    up = b >> (_cttz(b) // np.uint64(G.width) * np.uint64(G.width))
    columns = up
    for j in range(SMEAR):
        if G.fold[j] == ZERO:
            break
        columns |= columns >> G.fold[j]
    return up >> _cttz(columns & G.top_row)


@kernel
def layer_is_canonical(b, G):
    """Whether b touches the top row and the left column (b == layer_canonical(b))."""
    return (b & G.top_row) != ZERO and (b & G.left_column) != ZERO


class Geometry(NamedTuple):
    """The tables of one board shape, passed to every kernel as G."""

    width: int
    height: int
    cells: int
    board: np.uint64  # every cell
    top_row: np.uint64
    left_column: np.uint64
    ray: np.ndarray  # uint64[4 * 64]: [p * 4 + d] the cells strictly beyond p along d
    step: np.ndarray  # uint64[4]: one step along d, in bit positions (1 or width)
    smear_shift: np.ndarray  # uint64[4 * SMEAR]: see `movers` (0 ends a direction's list)
    smear_mask: np.ndarray  # uint64[4 * SMEAR]
    fold: np.ndarray  # uint64[SMEAR]: shifts by 1, 2, 4... rows folding every row onto the top
    terms: np.ndarray  # int64[65 * 64 * 64]: [m << 12 | c << 6 | i] = C(N - 1 - c, m - i)
    last: np.ndarray  # int64[65]: C(N, m) - 1, the last rank of layer m
    binom: np.ndarray  # int64[N + 1, 65]: C(a, j)


def geometry(width: int, height: int) -> Geometry:
    """The tables of a width x height board (at most 64 cells)."""
    cells = width * height
    if not 1 <= cells <= MAX_CELLS:
        raise ValueError(f"a board has 1..{MAX_CELLS} cells, not {width} x {height}")
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    ray = np.zeros(4 * MAX_CELLS, np.uint64)
    for p in range(cells):
        for d, (dx, dy) in enumerate(steps):
            x, y = p % width + dx, p // width + dy
            while 0 <= x < width and 0 <= y < height:
                ray[p * 4 + d] |= np.uint64(1 << (y * width + x))
                x, y = x + dx, y + dy
    smear_shift = np.zeros(4 * SMEAR, np.uint64)
    smear_mask = np.zeros(4 * SMEAR, np.uint64)
    for d, (dx, dy) in enumerate(steps):
        unit, length = (1, width) if dx else (width, height)
        spans = [1]
        while sum(spans) < length - 1:
            spans.append(sum(spans))
        for j, span in enumerate(spans):
            smear_shift[d * SMEAR + j] = span * unit
            smear_mask[d * SMEAR + j] = _cells_with_room(width, height, dx * span, dy * span)
    fold = np.array([width << j if width << j < cells else 0 for j in range(SMEAR)], np.uint64)
    terms = np.zeros(65 * 64 * 64, np.int64)
    for m in range(min(cells, 64) + 1):
        for c in range(cells):
            for i in range(m):
                terms[m << 12 | c << 6 | i] = comb(cells - 1 - c, m - i)
    last = np.array([comb(cells, m) - 1 if m <= cells else -1 for m in range(65)], np.int64)
    binom = np.array([[comb(a, j) for j in range(65)] for a in range(cells + 1)], np.int64)
    return Geometry(
        width,
        height,
        cells,
        np.uint64((1 << cells) - 1),
        np.uint64((1 << width) - 1),
        np.uint64(sum(1 << (y * width) for y in range(height))),
        ray,
        np.array([1, 1, width, width], np.uint64),
        smear_shift,
        smear_mask,
        fold,
        terms,
        last,
        binom,
    )


def _cells_with_room(width: int, height: int, dx: int, dy: int) -> np.uint64:
    """The cells (x, y) for which (x + dx, y + dy) is on the board."""
    mask = 0
    for y in range(height):
        for x in range(width):
            if 0 <= x + dx < width and 0 <= y + dy < height:
                mask |= 1 << (y * width + x)
    return np.uint64(mask)
