"""Numba kernels of Sudoku: solve and count on the shared back end, dig holes, grade.

Filling a grid and solving or counting a given puzzle run the shared back end
(`search.propagate`, `search.backtrack`) by module-level name; digging and grading ask many
small questions, which the bit-mask solver (`bitmask.py`) answers without its set-up cost.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...search.backtrack import NO_CAP, SOLVED, search
from ...search.propagate import (
    ALL_RULES,
    MRV,
    RULE_LO,
    SOLUTIONS,
    begin_attempt,
    load_state,
    restrict_to,
)
from . import bitmask

NAKED, HIDDEN, GUESS = 1, 2, 3


@njit(cache=True)
def _plain(x):
    """x as a run-time int64: a literal constant argument would compile `search` once more
    (returning `x` itself keeps numba's literal type, and with it one more compile)."""
    return np.int64(x)


@njit(cache=True)
def _search(m, s, rules, count_limit):
    """The back end's search with fewest-candidates choice, no backtrack cap, no budget
    (constants every call shares: as literals they compile once and fold into the loop)."""
    return search(m, s, MRV, rules, NO_CAP, count_limit, -1, 1)  # NO_CAP: typed as search's own


@njit(cache=True)
def place(m, s, base, grid):
    """State = base with every clue of `grid` (-1 = blank) placed; False if they clash."""
    load_state(base, s)
    for v in range(grid.shape[0]):
        if grid[v] >= 0:
            if s.size[v] == 0 or (s.dom[v, 0] >> np.uint64(grid[v])) & np.uint64(1) == 0:
                return False
            restrict_to(m, s, np.int32(v), grid[v])  # v typed as `search` passes it
    return True


@njit(cache=True)
def solutions_upto(m, s, base, grid, rules, limit):
    """How many solutions the puzzle has, counting at most `limit`."""
    if not place(m, s, base, grid):
        return 0
    begin_attempt(s, _plain(0), MRV)
    _search(m, s, rules, limit)
    return s.ctr[SOLUTIONS]


@njit(cache=True)
def solve_into(m, s, base, grid, seed, out):
    """Fill `out` with a solution (random among them by `seed`); False if there is none."""
    if not place(m, s, base, grid):
        return False
    begin_attempt(s, seed, MRV)
    status = _search(m, s, _plain(ALL_RULES), _plain(0))
    if status != SOLVED:
        return False
    for v in range(out.shape[0]):
        word = s.dom[v, 0]
        digit = 0
        while (word >> np.uint64(digit)) & np.uint64(1) == 0:
            digit += 1
        out[v] = digit
    return True


@njit(cache=True)
def dig(b, solution, order, partner, target, rules_needed, tried):
    """Remove clues in `order` (with their partners) while the puzzle stays fit; return it.

    Fit means: exactly one solution (rules_needed == 0), or solved by those propagation
    rules alone (which implies one solution). A removal that fails is never retried:
    removing more clues can only add solutions, so it would fail again. `tried` counts checks.
    The puzzle stays unique at every step, so removing one clue keeps it unique exactly when
    no solution puts another digit in that cell: one search for one solution, not two.
    """
    grid = solution.copy()
    clues = grid.shape[0]
    for k in range(order.shape[0]):
        v = order[k]
        w = partner[v]
        if grid[v] < 0:
            continue
        drop = 1 if (w == v or grid[w] < 0) else 2
        if clues - drop < target:
            continue
        keep_v, keep_w = grid[v], grid[w]
        grid[v] = -1
        grid[w] = -1
        tried[0] += 1
        if rules_needed != 0:
            fit = bitmask.solved_by_singles(b, grid, (rules_needed & RULE_LO) != 0)
        elif drop == 1:
            fit = not bitmask.another_solution(b, grid, v, solution[v])
        else:
            fit = bitmask.solutions_upto(b, grid, 2) == 1
        if fit:
            clues -= drop
        else:
            grid[v] = keep_v
            grid[w] = keep_w
    return grid


@njit(cache=True)
def grade(b, grid):
    """1: naked singles suffice, 2: hidden singles too, 3: a guess is needed."""
    if bitmask.solved_by_singles(b, grid, False):
        return NAKED
    if bitmask.solved_by_singles(b, grid, True):
        return HIDDEN
    return GUESS
