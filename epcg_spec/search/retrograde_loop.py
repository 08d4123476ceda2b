"""The retrograde back end's loops (Algorithm 5 of Sturtevant & Ota, AIIDE 2018).

This file is a template, never imported: the connector copies it into each problem's
generated module, where the names it leaves free are the domain's own kernels, imported
by module-level name (G is the domain's table tuple, m a layer's number of pieces):

    layer_unrank(r, m, G) -> state          the state of rank r in layer m
    layer_next(state, m, G) -> state        the state of the next rank
    layer_rank(state, m, G) -> int64
    layer_moves(state, G, moves) -> n       the moves of a state as int64 codes, in a fixed order
    layer_successor_rank(state, move, m, G) -> int64
                                            rank in layer m - 1 of the state a move leads to
    layer_predecessors(state, G, states, moves) -> n
                                            every (state, move) of layer m + 1 whose move
                                            leads to `state`, each exactly once
    layer_is_canonical(state, G) -> bool    whether the state stands for its class
    layer_canonical(state, G) -> state      the canonical state of its class, which has the
                                            same solvability and uniqueness (a symmetry)
    MAX_MOVES, MAX_PREDECESSORS             sizes of the scratch buffers
    STATE_TYPE                              the dtype of a state

Layers are bit arrays of uint64 words, bit r of word r >> 6 for rank r. A state is
solvable when a move leads to a solvable state; it is unique under the moves rule when
exactly one move does and that state is unique, under the boards rule when its solvable
successors are one and the same state and that state is unique. On the first layer above
the goal layer (free_last), every solvable state is unique: the last move may be any.

A layer is judged in two passes over the same blocks: `scan_blocks` judges the canonical
states, `fill_blocks` copies each other state's bits from its canonical state. Each pass
runs its blocks on threads (search/blocks.py), each block one call of a `nogil` kernel.
"""

# ruff: noqa: F821

import numpy as np
from numba import njit

from epcg_spec.search.blocks import each_run, own_lines

RULE_MOVES = 1
RULE_BOARDS = 2
SOLVABLE_ONLY = 4


@njit(cache=True)
def _bit(bits, r):
    return (bits[r >> 6] >> np.uint64(r & 63)) & np.uint64(1)


@njit(cache=True, inline="always")
def _judge(state, m, below, below_moves, below_boards, rules, G, moves):
    """(solvable, unique under the moves rule, unique under the boards rule) as 0/1."""
    n = layer_moves(state, G, moves)
    count = 0
    first = -1
    distinct = 0
    for i in range(n):
        r = layer_successor_rank(state, moves[i], m, G)
        if _bit(below, r) == 0:
            continue
        if rules & SOLVABLE_ONLY:
            return 1, 0, 0
        count += 1
        if first < 0:
            first = r
            distinct = 1
        elif r != first:
            distinct = 2
        if count >= 2 and (distinct >= 2 or rules & RULE_BOARDS == 0):
            break
    if first < 0:
        return 0, 0, 0
    by_moves = 0
    by_boards = 0
    if rules & RULE_MOVES and count == 1:
        by_moves = np.int64(_bit(below_moves, first))
    if rules & RULE_BOARDS and distinct == 1:
        by_boards = np.int64(_bit(below_boards, first))
    return 1, by_moves, by_boards


def scan_blocks(m, starts, ends, below, below_moves, below_boards, rules, free_last, G, out, tally):
    """Judge every canonical state of layer m in the rank blocks [starts[b], ends[b]).

    out[0], out[1], out[2]: the layer's solvable, unique-moves and unique-boards words
    (blocks start at multiples of 64 ranks, so each block writes its own words only; an
    empty array is not written); tally[b]: the block's counts of the three.
    """

    def run(lo, hi):
        (moves,) = own_lines((MAX_MOVES, np.int64))
        for b in _run_blocks(lo, hi):
            _scan_block(
                m, b, _at(starts, b), _at(ends, b), below, below_moves, below_boards, rules,
                free_last, G, out, tally, moves,
            )  # fmt: skip

    each_run(run, starts.shape[0])


def _run_blocks(lo, hi):
    """Blocks lo..hi - 1; an empty run, block 0 (with no ranks: it writes nothing, but its
    kernel is compiled before the pass is timed)."""
    return range(lo, hi) if hi > lo else range(1)


def _at(bounds, b):
    """bounds[b], or 0 past the end (the empty run's block)."""
    return bounds[b] if b < bounds.shape[0] else np.int64(0)


@njit(cache=True, nogil=True, _nrt=False)
def _scan_block(
    m, b, start, end, below, below_moves, below_boards, rules, free_last, G, out, tally, moves
):
    """One block of scan_blocks, without numba's reference counting in the hot loop."""
    state = layer_unrank(start, m, G)
    w0 = np.uint64(0)
    w1 = np.uint64(0)
    w2 = np.uint64(0)
    c0 = 0
    c1 = 0
    c2 = 0
    for r in range(start, end):
        if layer_is_canonical(state, G):
            solvable, by_moves, by_boards = _judge(
                state, m, below, below_moves, below_boards, rules, G, moves
            )
            if free_last:
                by_moves = solvable if rules & RULE_MOVES else 0
                by_boards = solvable if rules & RULE_BOARDS else 0
            shift = np.uint64(r & 63)
            w0 |= np.uint64(solvable) << shift
            w1 |= np.uint64(by_moves) << shift
            w2 |= np.uint64(by_boards) << shift
            c0 += solvable
            c1 += by_moves
            c2 += by_boards
        if (r & 63) == 63 or r == end - 1:
            _store(out[0], r >> 6, w0)
            _store(out[1], r >> 6, w1)
            _store(out[2], r >> 6, w2)
            w0 = np.uint64(0)
            w1 = np.uint64(0)
            w2 = np.uint64(0)
        if r + 1 < end:
            state = layer_next(state, m, G)
    _tally(tally, b, start, end, c0, c1, c2)


@njit(cache=True)
def _tally(tally, b, start, end, c0, c1, c2):
    """tally[b] = the block's three counts (an empty block writes nothing)."""
    if end > start:
        tally[b, 0] = c0
        tally[b, 1] = c1
        tally[b, 2] = c2


@njit(cache=True)
def _store(words, at, word):
    if words.shape[0] > 0:
        words[at] = word


def fill_blocks(m, starts, ends, G, out, tally):
    """After scan_blocks: set the bits of every other state from its canonical state's."""

    def run(lo, hi):
        for b in _run_blocks(lo, hi):
            _fill_block(m, b, _at(starts, b), _at(ends, b), G, out, tally)

    each_run(run, starts.shape[0])


@njit(cache=True, nogil=True, _nrt=False)
def _fill_block(m, b, start, end, G, out, tally):
    """One block of fill_blocks; its counts kept in locals and stored once at the end (the
    rows of `tally` of blocks that run side by side share cache lines)."""
    state = layer_unrank(start, m, G)
    c0 = 0
    c1 = 0
    c2 = 0
    for r in range(start, end):
        if not layer_is_canonical(state, G):
            c = layer_rank(layer_canonical(state, G), m, G)
            c0 += _copy_bit(out[0], c, r)
            c1 += _copy_bit(out[1], c, r)
            c2 += _copy_bit(out[2], c, r)
        if r + 1 < end:
            state = layer_next(state, m, G)
    _tally(tally, b, start, end, c0, c1, c2)


@njit(cache=True)
def _copy_bit(words, c, r):
    """Set bit r of `words` to bit c (an empty array is not written); the bit, as 0 or 1."""
    if words.shape[0] == 0:
        return 0
    bit = _bit(words, c)
    words[r >> 6] |= bit << np.uint64(r & 63)
    return np.int64(bit)


def predecessor_blocks(m, unique_below, starts, ends, below, rule, free_last, G, out, found):
    """The unique states of layer m, found among predecessors of layer m - 1's unique ones.

    A predecessor P of a unique state U (through move mv) is unique when P's first move
    to a solvable state is mv and, under the moves rule, no other move of P leads to a
    solvable state, or, under the boards rule, every move of P to a solvable state leads
    to U. So each unique P is found exactly once, from its U and its first solvable move.
    Block b writes the ranks it finds to out[b, :found[b]].
    """

    def run(lo, hi):
        moves, states, back = own_lines(
            (MAX_MOVES, np.int64), (MAX_PREDECESSORS, STATE_TYPE), (MAX_PREDECESSORS, np.int64)
        )
        for b in _run_blocks(lo, hi):
            _predecessor_block(
                m, b, unique_below, _at(starts, b), _at(ends, b), below, rule, free_last, G,
                out, found, moves, states, back,
            )  # fmt: skip

    each_run(run, starts.shape[0])


@njit(cache=True, nogil=True, _nrt=False)
def _predecessor_block(
    m, b, unique_below, start, end, below, rule, free_last, G, out, found, moves, states, back
):
    """One block of predecessor_blocks, without reference counting."""
    n_found = 0
    for j in range(start, end):
        u_rank = unique_below[j]
        n = layer_predecessors(layer_unrank(u_rank, m - 1, G), G, states, back)
        for i in range(n):
            p = states[i]
            if _only_route(p, back[i], u_rank, m, below, rule, free_last, G, moves):
                out[b, n_found] = layer_rank(p, m, G)
                n_found += 1
    if end > start:  # an empty block writes nothing
        found[b] = n_found


@njit(cache=True, inline="always")
def _only_route(p, via, u_rank, m, below, rule, free_last, G, moves):
    """Whether `via` is p's first move to a solvable state and p is unique through it."""
    n = layer_moves(p, G, moves)
    seen = 0
    for i in range(n):
        r = layer_successor_rank(p, moves[i], m, G)
        if _bit(below, r) == 0:
            continue
        if seen == 0:
            if moves[i] != via:
                return False
            if free_last:
                return True
        elif rule == RULE_MOVES or r != u_rank:
            return False
        seen += 1
    return seen > 0
