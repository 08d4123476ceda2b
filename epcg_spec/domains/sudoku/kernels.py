"""Numba kernels of Sudoku: load a puzzle into the state, test uniqueness, grade, dig holes.

They run the shared back end (`search.propagate`, `search.backtrack`) by module-level name,
so one generated puzzle is one compiled loop with no Python in between.

Python reaches them through one entry kernel, `_entry`, and `call` (an op code picks the
kernel): numba compiles each kernel called from Python with its own copy of every kernel it
reaches, and LLVM optimises each copy of `search` and `propagate` again, seconds apiece on a
cold start. So the kernels below are inlined into `_entry` (`inline="always"`), and a kernel
of another module may call them too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...search.backtrack import NO_CAP, SOLVED, search
from ...search.propagate import (
    ALL_RULES,
    MRV,
    RULE_HI,
    SOLUTIONS,
    begin_attempt,
    load_state,
    propagate,
    restrict_to,
)

NAKED, HIDDEN, GUESS = 1, 2, 3
SOLVE, COUNT, GRADE, DIG = 0, 1, 2, 3  # op codes of `_entry`
_NONE = np.zeros(0, dtype=np.int64)  # an array argument an op does not use


@njit(cache=True)
def _plain(x):
    """x as a run-time int64: a literal constant argument would compile `search` once more
    (returning `x` itself keeps numba's literal type, and with it one more compile)."""
    return np.int64(x)


@njit(cache=True, inline="always")
def _search(m, s, rules, count_limit):
    """The back end's search with fewest-candidates choice, no backtrack cap, no budget
    (constants every call shares: as literals they compile once and fold into the loop; the
    cap is NO_CAP, typed as the cap of `search`'s own `_backtrack` call, so one copy)."""
    return search(m, s, MRV, rules, NO_CAP, count_limit, -1, 1)


@njit(cache=True, inline="always")
def place(m, s, base, grid):
    """State = base with every clue of `grid` (-1 = blank) placed; False if they clash."""
    load_state(base, s)
    for v in range(grid.shape[0]):
        if grid[v] >= 0:
            if s.size[v] == 0 or (s.dom[v, 0] >> np.uint64(grid[v])) & np.uint64(1) == 0:
                return False
            restrict_to(m, s, np.int32(v), grid[v])  # v typed as `search` passes it
    return True


@njit(cache=True, inline="always")
def solutions_upto(m, s, base, grid, rules, limit):
    """How many solutions the puzzle has, counting at most `limit`."""
    if not place(m, s, base, grid):
        return 0
    begin_attempt(s, _plain(0), MRV)
    _search(m, s, rules, limit)
    return s.ctr[SOLUTIONS]


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def solved_by_rules(m, s, base, grid, rules):
    """True if propagation alone (with `rules`) decides every cell: no guess is needed."""
    if not place(m, s, base, grid) or not propagate(m, s, rules):
        return False
    return np.all(s.size == 1)


@njit(cache=True, inline="always")
def dig(m, s, base, solution, order, partner, target, rules_needed, tried, grid):
    """Remove clues in `order` (with their partners) while the puzzle stays fit; into `grid`.

    Fit means: exactly one solution (rules_needed == 0), or solved by those propagation
    rules alone (which implies one solution). A removal that fails is never retried:
    removing more clues can only add solutions, so it would fail again. `tried` counts checks.
    """
    grid[:] = solution
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
        if rules_needed == 0:
            fit = solutions_upto(m, s, base, grid, _plain(ALL_RULES), _plain(2)) == 1
        else:
            fit = solved_by_rules(m, s, base, grid, rules_needed)
        if fit:
            clues -= drop
        else:
            grid[v] = keep_v
            grid[w] = keep_w


@njit(cache=True, inline="always")
def grade(m, s, base, grid):
    """1: naked singles suffice, 2: hidden singles too, 3: a guess is needed."""
    if solved_by_rules(m, s, base, grid, _plain(RULE_HI)):
        return NAKED
    if solved_by_rules(m, s, base, grid, _plain(ALL_RULES)):
        return HIDDEN
    return GUESS


@njit(cache=True)
def _entry(op, m, s, base, grid, seed, out, order, partner, target, rules, tried):
    """The one kernel Python calls: `op` picks the kernel, the arguments it does not take
    are ignored (see the module docstring for why there is one)."""
    if op == SOLVE:
        return np.int64(solve_into(m, s, base, grid, seed, out))
    if op == COUNT:
        return np.int64(solutions_upto(m, s, base, grid, rules, target))
    if op == GRADE:
        return np.int64(grade(m, s, base, grid))
    dig(m, s, base, grid, order, partner, target, rules, tried, out)
    return np.int64(0)


def call(
    op: int,
    model,
    work,
    base,
    grid: np.ndarray,
    *,
    seed: int = 0,
    out: np.ndarray = _NONE,
    order: np.ndarray = _NONE,
    partner: np.ndarray = _NONE,
    target: int = 0,
    rules: int = 0,
    tried: np.ndarray = _NONE,
) -> int:
    """Run kernel `op` on (model, work state, base state, grid) from Python:

    SOLVE: a solution (random among them by `seed`) into `out`; 1 if found, else 0.
    COUNT: the number of solutions, counting at most `target`, with `rules`.
    GRADE: NAKED, HIDDEN or GUESS. DIG: `grid` (a solution) dug into `out` (see `dig`).
    """
    return int(_entry(op, model, work, base, grid, seed, out, order, partner, target, rules, tried))
