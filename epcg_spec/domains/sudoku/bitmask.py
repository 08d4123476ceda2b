"""A Sudoku solver on candidate bit masks, for the generator's many small questions.

Digging one minimal 9 x 9 puzzle asks about 80 times "is it still unique?", and each answer
from the general back end (`search.backtrack` over the propagate network) costs more in
setting up its state than in searching. This solver keeps only what Sudoku needs: one
candidate mask per cell, naked singles (a placed digit leaves its peers) and hidden singles
(a digit with one place left in a unit goes there), and fewest-candidates choice with a stack
of whole-grid copies. Both rules reach the same fixed point as the group propagators of
`network.py`, so the answers (and every graded or dug puzzle) are the same; `fill` makes the
back end's random choices too, so it completes a grid as the back end's search would.

Every kernel here is called with one type per argument (numpy scalars, not Python literals,
which numba would compile a copy for each), and those only other kernels call have no Python
wrapper: a cold build compiles each once (docs/benchmarks.md, "Cold compile").
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ...search.propagate import MRV_NOISE
from ...search.splitmix import mix64, next_unit
from .network import units

Board = namedtuple("Board", "units peers cell_units popcount cand done queue pick rest")
# units[u, k]: cell k of unit u; peers[c, k]: the other cells of c's units; cell_units[c]:
# c's row, column and box; popcount[m]: bits in m; the rest is work space, one row per depth
# of the search: cand (candidates), done (a cell's single already removed from its peers),
# queue (cells whose single waits to be removed), pick and rest (the cell a depth branches
# on and the digits it has not tried yet)

CELL = np.uint16  # unsigned index tables: numba adds no negative-index wraparound
# numpy scalars, typed int64 and bool: a Python literal (0, True) is typed Literal[int](0) or
# Literal[bool](True), and each compiles one more copy of the kernel it is passed to
ZERO, ONE = np.int64(0), np.int64(1)
NAKED_ONLY, WITH_HIDDEN = np.bool_(False), np.bool_(True)

inner = njit(cache=True, no_cpython_wrapper=True)  # a kernel only other kernels call


def board(box: int) -> Board:
    """The tables and work space of a grid of side box * box."""
    side = box * box
    cells = side * side
    unit_cells = np.array(units(box), dtype=CELL)
    cell_units = np.zeros((cells, 3), dtype=CELL)
    for u, members in enumerate(units(box)):
        for cell in members:
            cell_units[cell, u // side] = u
    peers = np.array(
        [sorted({p for u in cell_units[c] for p in unit_cells[u]} - {c}) for c in range(cells)],
        dtype=CELL,
    )
    popcount = np.array([bin(m).count("1") for m in range(1 << side)], dtype=np.uint8)
    return Board(
        unit_cells,
        peers,
        cell_units,
        popcount,
        np.zeros((cells + 1, cells), dtype=np.uint32),
        np.zeros((cells + 1, cells), dtype=np.uint8),
        np.zeros(cells, dtype=CELL),
        np.zeros(cells + 1, dtype=np.int64),
        np.zeros(cells + 1, dtype=np.uint32),
    )


@inner
def _settle(b, depth, tail, hidden):
    """Apply naked singles (the `tail` cells queued) and, with `hidden`, hidden singles at
    `depth` until neither changes a mask; False on a contradiction."""
    cand, done, queue = b.cand[depth], b.done[depth], b.queue
    side = b.units.shape[1]
    full = np.uint32((1 << side) - 1)
    head = 0
    while True:
        while head < tail:
            c = queue[head]
            head += 1
            if done[c]:
                continue
            done[c] = 1
            bit = cand[c]
            for k in range(b.peers.shape[1]):
                p = b.peers[c, k]
                m = cand[p]
                if m & bit:
                    m &= ~bit
                    if m == 0:
                        return False
                    cand[p] = m
                    if m & (m - np.uint32(1)) == 0:
                        queue[tail] = p
                        tail += 1
        if not hidden:
            return True
        for u in range(b.units.shape[0]):
            once = np.uint32(0)
            twice = np.uint32(0)
            for k in range(side):
                m = cand[b.units[u, k]]
                twice |= once & m
                once |= m
            if once != full:
                return False
            single = once & ~twice
            if single == 0:
                continue
            for k in range(side):
                c = b.units[u, k]
                m = cand[c] & single
                if m != 0:
                    if m & (m - np.uint32(1)):  # the only place of two digits
                        return False
                    if cand[c] != m:
                        cand[c] = m
                        queue[tail] = c
                        tail += 1
        if head == tail:
            return True


@inner
def _load(b, grid, hidden):
    """Depth 0 = the clues of `grid` (-1 blank) and what the singles then decide; False if
    they clash."""
    side = b.units.shape[1]
    cells = grid.shape[0]
    used = np.zeros(b.units.shape[0], dtype=np.uint32)
    cand, done = b.cand[0], b.done[0]
    for c in range(cells):
        if grid[c] >= 0:
            bit = np.uint32(1) << np.uint32(grid[c])
            for j in range(3):
                u = b.cell_units[c, j]
                if used[u] & bit:
                    return False
                used[u] |= bit
    full = np.uint32((1 << side) - 1)
    tail = ZERO
    for c in range(cells):
        if grid[c] >= 0:
            cand[c] = np.uint32(1) << np.uint32(grid[c])
            done[c] = 1
        else:
            u = b.cell_units[c]
            m = full & ~(used[u[0]] | used[u[1]] | used[u[2]])
            cand[c] = m
            done[c] = 0
            if m == 0:
                return False
            if m & (m - np.uint32(1)) == 0:
                b.queue[tail] = c
                tail += 1
    return _settle(b, ZERO, tail, hidden)


@inner
def _count(b, limit):
    """Solutions below depth 0 (already settled), counting at most `limit`."""
    cells = b.cand.shape[1]
    found = 0
    depth = ZERO
    while True:
        cand = b.cand[depth]
        pick, fewest = -1, 1 << 30
        for c in range(cells):
            n = b.popcount[cand[c]]
            if 1 < n < fewest:
                pick, fewest = c, n
                if n == 2:
                    break
        if pick < 0:
            found += 1
            if found >= limit:
                return found
            b.rest[depth] = 0
        else:
            b.pick[depth] = pick
            b.rest[depth] = cand[pick]
        while True:  # the next digit to try, backing up from depths that have none left
            while depth >= 0 and b.rest[depth] == 0:
                depth -= 1
            if depth < 0:
                return found
            rest = b.rest[depth]
            bit = rest & (~rest + np.uint32(1))
            b.rest[depth] = rest & ~bit
            if _guess(b, depth, b.pick[depth], bit):
                depth += 1
                break


@njit(cache=True, no_cpython_wrapper=True, inline="always")
def _guess(b, depth, cell, bit):
    """Depth + 1 = `depth` with `cell` set to the digit `bit`, settled; False on a
    contradiction. (Rows copied in a loop: a whole-row assignment would compile numba's
    shape check, with its error message's string code.)"""
    cand, done = b.cand[depth + 1], b.done[depth + 1]
    for c in range(cand.shape[0]):
        cand[c] = b.cand[depth, c]
    for c in range(done.shape[0]):
        done[c] = b.done[depth, c]
    cand[cell] = bit
    b.queue[0] = cell
    return _settle(b, depth + 1, ONE, WITH_HIDDEN)


@inner
def _narrow(b, depth, cell, m):
    """`cell` at `depth` narrowed to the digits of `m` (not 0), settled; False on a
    contradiction."""
    b.cand[depth, cell] = m
    tail = ZERO
    if m & (m - np.uint32(1)) == 0:
        b.queue[0] = cell
        tail = ONE
    return _settle(b, depth, tail, WITH_HIDDEN)


@njit(cache=True)
def solutions_upto(b, grid, limit):
    """How many solutions `grid` (-1 = blank) has, counting at most `limit`."""
    if not _load(b, grid, WITH_HIDDEN):
        return 0
    return _count(b, limit)


@njit(cache=True)
def another_solution(b, grid, cell, digit):
    """True if `grid` has a solution with `cell` (a blank) other than `digit`."""
    if not _load(b, grid, WITH_HIDDEN):
        return False
    cand = b.cand[0]
    rest = cand[cell] & ~(np.uint32(1) << np.uint32(digit))
    if rest == 0:
        return False
    if rest != cand[cell] and not _narrow(b, ZERO, cell, rest):
        return False
    return _count(b, ONE) > 0


@njit(cache=True)
def solved_by_singles(b, grid, hidden):
    """True if naked singles (and, with `hidden`, hidden singles) decide every cell."""
    if not _load(b, grid, hidden):
        return False
    cand = b.cand[0]
    for c in range(cand.shape[0]):  # noqa: SIM110 (numba compiles no generators)
        if cand[c] & (cand[c] - np.uint32(1)):
            return False
    return True


@inner
def _draw(rng, popcount, m):
    """A digit of mask `m` as the back end's `choose_value` draws it (every weight 1)."""
    target = next_unit(rng) * np.float64(popcount[m])
    last = m
    while m != 0:
        last = m & (~m + np.uint32(1))
        m &= ~last
        target -= 1.0
        if target < 0.0:
            break
    return last


@njit(cache=True)
def fill(b, grid, seed, out):
    """Complete `grid` (-1 = blank) into `out` as the back end's search does; False if it
    cannot be completed.

    The same search as `search.backtrack.search` with fewest-candidates choice and every
    rule, seeded `seed`: the same random stream (tie-break noise per cell, then one draw per
    guess), the cell of fewest candidates (ties to the least noise), a digit drawn from it,
    and on a contradiction the last guess undone and its digit removed. Its states are the
    same fixed points, so it makes the same choices and ends at the same grid.
    """
    cells = grid.shape[0]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = mix64(np.uint64(seed))
    noise = np.empty(cells)
    for c in range(cells):
        noise[c] = next_unit(rng)
    if not _load(b, grid, WITH_HIDDEN):
        return False
    depth = ZERO
    while True:
        cand = b.cand[depth]
        pick, least = cells, np.inf
        for c in range(cells):
            n = b.popcount[cand[c]]
            if n > 1 and n + MRV_NOISE * noise[c] < least:
                pick, least = c, n + MRV_NOISE * noise[c]
        if pick == cells:
            for c in range(cells):
                digit, m = 0, cand[c]
                while m > np.uint32(1):
                    m >>= np.uint32(1)
                    digit += 1
                out[c] = digit
            return True
        bit = _draw(rng, b.popcount, cand[pick])
        b.pick[depth] = pick
        b.rest[depth] = bit
        if _guess(b, depth, pick, bit):
            depth += 1
            continue
        while True:  # remove the digit that failed, backing up while that fails too
            m = b.cand[depth, b.pick[depth]] & ~b.rest[depth]
            if m != 0 and _narrow(b, depth, b.pick[depth], m):
                break
            if depth == 0:
                return False
            depth -= 1
