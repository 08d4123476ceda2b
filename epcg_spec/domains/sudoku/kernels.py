"""Numba kernels of Sudoku: make a puzzle, solve a given one, and the back end's proof.

A build calls one kernel: `make_puzzle` (fill a grid, dig holes, grade) or `solve`, each on
the bit-mask solver (`bitmask.py`), so a cold build compiles one module and none of the
propagate back end (docs/benchmarks.md, "Cold compile"). `solutions_upto` runs the shared
back end (`search.propagate`, `search.backtrack`) for the benchmarks that compare the two.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ...search.backtrack import BEGIN, NO_CAP, SEARCH, engine
from ...search.propagate import (
    MRV,
    RULE_LO,
    SOLUTIONS,
    load_state,
    restrict_to,
)
from . import bitmask
from .bitmask import NAKED_ONLY, WITH_HIDDEN, inner

NAKED, HIDDEN, GUESS = 1, 2, 3
TWO = np.int64(2)  # the uniqueness limit, typed int64 as Python's calls pass it


@njit(cache=True)
def _plain(x):
    """x as a run-time int64: a literal constant argument would compile `search` once more
    (returning `x` itself keeps numba's literal type, and with it one more compile)."""
    return np.int64(x)


@njit(cache=True)
def place(m, s, base, grid):
    """State = base with every clue of `grid` (-1 = blank) placed; False if they clash."""
    load_state(base, s)
    for v in range(grid.shape[0]):
        if grid[v] >= 0:
            if s.size[v] == 0 or (s.dom[v, 0] >> np.uint64(grid[v])) & np.uint64(1) == 0:
                return False
            restrict_to(m, s, np.int32(v), grid[v])  # v typed as `engine` passes it
    return True


@njit(cache=True)
def solutions_upto(m, s, base, grid, rules, limit):
    """How many solutions the puzzle has, counting at most `limit`, on the back end."""
    if not place(m, s, base, grid):
        return 0
    engine(m, s, BEGIN, _plain(MRV), rules, NO_CAP, limit, -1, _plain(1), np.uint64(0))
    engine(m, s, SEARCH, _plain(MRV), rules, NO_CAP, limit, -1, _plain(1), np.uint64(0))
    return s.ctr[SOLUTIONS]


@njit(cache=True)
def make_puzzle(b, seed, order, partner, target, rules_needed, tried, solution):
    """Fill `solution` from `seed`, dig a puzzle from it; return the puzzle, its grade, and
    its solutions counted up to 2 (the caller's check)."""
    bitmask.fill(b, np.full(solution.shape[0], -1, dtype=np.int64), seed, solution)
    puzzle = dig(b, solution, order, partner, target, rules_needed, tried)
    return puzzle, grade(b, puzzle), bitmask.solutions_upto(b, puzzle, TWO)


@njit(cache=True)
def solve(b, grid, seed, solution):
    """Fill `solution` with a solution of `grid` (random among them by `seed`); return
    whether there is one, the solutions counted up to 2, and the grade."""
    found = bitmask.fill(b, grid, seed, solution)
    return found, bitmask.solutions_upto(b, grid, TWO), grade(b, grid)


@inner
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
            fit = bitmask.solutions_upto(b, grid, TWO) == 1
        if fit:
            clues -= drop
        else:
            grid[v] = keep_v
            grid[w] = keep_w
    return grid


@inner
def grade(b, grid):
    """1: naked singles suffice, 2: hidden singles too, 3: a guess is needed."""
    if bitmask.solved_by_singles(b, grid, NAKED_ONLY):
        return NAKED
    if bitmask.solved_by_singles(b, grid, WITH_HIDDEN):
        return HIDDEN
    return GUESS
