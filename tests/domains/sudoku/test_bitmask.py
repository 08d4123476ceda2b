"""The bit-mask solver against the plain-Python oracle: counts, other solutions, singles."""

from __future__ import annotations

import random

import numpy as np
import pytest

from epcg_spec.domains.sudoku import bitmask
from tests.oracles.sudoku_oracle import HARD, count_solutions, parse, solved_by_singles


def full_grid(box: int, rng: random.Random) -> list[int]:
    """A valid complete grid: the pattern grid with digits relabelled at random."""
    side = box * box
    digits = list(range(side))
    rng.shuffle(digits)
    return [
        digits[(box * (r % box) + r // box + c) % side] for r in range(side) for c in range(side)
    ]


def holed(box: int, rng: random.Random, blanks: int) -> list[int]:
    grid = full_grid(box, rng)
    for cell in rng.sample(range(len(grid)), blanks):
        grid[cell] = -1
    return grid


# blanks per grid size: from easy to many solutions, around where uniqueness is lost
BLANKS = {2: (6, 9, 11, 13), 3: (40, 50, 55, 58, 62), 4: (110, 130)}
CASES = [(box, blanks) for box, counts in BLANKS.items() for blanks in counts]


@pytest.mark.parametrize("box,blanks", CASES)
def test_counts_match_the_oracle(box, blanks):
    rng, board = random.Random(blanks), bitmask.board(box)
    limit = 3 if box == 4 else 20
    for _ in range(4 if box == 4 else 25):
        grid = holed(box, rng, blanks)
        ours = bitmask.solutions_upto(board, np.array(grid, dtype=np.int64), limit)
        assert ours == count_solutions(grid, box, limit)


@pytest.mark.parametrize("box,blanks", [(2, 10), (3, 52), (3, 58)])
def test_another_solution_is_a_solution_differing_in_the_cell(box, blanks):
    rng, board = random.Random(blanks), bitmask.board(box)
    side = box * box
    for _ in range(25):
        grid = holed(box, rng, blanks)
        cell = rng.choice([c for c, v in enumerate(grid) if v < 0])
        digit = rng.randrange(side)
        others = sum(
            count_solutions([*grid[:cell], d, *grid[cell + 1 :]], box, 1)
            for d in range(side)
            if d != digit
        )
        ours = bitmask.another_solution(board, np.array(grid, dtype=np.int64), cell, digit)
        assert ours == (others > 0)


@pytest.mark.parametrize("hidden", [False, True])
def test_singles_match_the_oracle(hidden):
    rng, board = random.Random(7), bitmask.board(3)
    agree = {True: 0, False: 0}
    for blanks in (45, 50, 55):
        for _ in range(30):
            grid = holed(3, rng, blanks)
            ours = bitmask.solved_by_singles(board, np.array(grid, dtype=np.int64), hidden)
            assert ours == solved_by_singles(grid, 3, hidden)
            agree[ours] += 1
    assert agree[True] and agree[False]  # both answers were exercised


def test_hard_puzzles_are_unique_and_clashing_clues_have_none():
    board = bitmask.board(3)
    for text in HARD.values():
        assert bitmask.solutions_upto(board, np.array(parse(text), dtype=np.int64), 2) == 1
    clash = np.full(81, -1, dtype=np.int64)
    clash[0] = clash[8] = 4
    assert bitmask.solutions_upto(board, clash, 2) == 0
