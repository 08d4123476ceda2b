"""The rule kernels against the plain-Python oracle: every solution of random panels."""

import random

import pytest

from epcg_spec.domains.witness.lines import line_path, line_set
from epcg_spec.domains.witness.model import Grid, Panel, Symbol
from epcg_spec.domains.witness.rules import solve
from tests.oracles import witness_oracle as oracle

from .helpers import LIBRARY, oracle_panel, random_panel


def solutions(panel: Panel, limit: int = 1 << 40) -> tuple[int, list]:
    lines = line_set(panel.grid)
    solved = solve(panel, LIBRARY, lines, limit, lines.count)
    return solved.count, sorted(tuple(line_path(panel.grid, lines.bits[i])) for i in solved.found)


@pytest.mark.parametrize(
    ("width", "height", "start", "goal"),
    [(3, 3, (0, 0), (3, 3)), (2, 3, (0, 0), (2, 3)), (3, 2, (1, 0), (0, 2))],
)
def test_random_panels_have_the_oracles_solutions(width, height, start, goal):
    grid = Grid(width, height, start, goal)
    every = oracle.lines(width, height, start, goal)
    rng = random.Random(width * 100 + height)
    solvable = 0
    for _ in range(120):
        panel = random_panel(rng, grid, rng.randint(1, 5))
        count, ours = solutions(panel)
        theirs = sorted(tuple(p) for p in oracle.solutions(oracle_panel(panel), every))
        assert ours == theirs, panel
        solvable += count > 0
    assert solvable > 10  # the random panels are not all trivially unsolvable


def test_counting_stops_at_the_limit():
    empty = Panel(Grid(3, 3, (0, 0), (3, 3)), ())
    assert solutions(empty)[0] == 184
    assert solutions(empty, limit=10)[0] == 10


def test_a_known_panel():
    # Two squares of different colours in opposite corners: the line must separate them.
    grid = Grid(2, 2, (0, 0), (2, 2))
    split = Panel(grid, (Symbol("square", 0, 0), Symbol("square", 3, 1)))
    count, found = solutions(split)
    assert found == sorted(tuple(p) for p in oracle.solutions(oracle_panel(split)))
    # along the border, or around cell (1, 0) only: the corners stay together
    assert ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2)) not in found
    assert ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)) not in found
    # straight up the middle: the columns part
    assert ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2)) in found
    # around cell (0, 0): it is cut off from (1, 1)
    assert ((0, 0), (1, 0), (1, 1), (0, 1), (0, 2), (1, 2), (2, 2)) in found
    assert count == 8
