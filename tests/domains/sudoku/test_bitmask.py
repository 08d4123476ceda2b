"""The bit-mask solver against the plain-Python oracle: counts, other solutions, singles."""

from __future__ import annotations

import random

import numpy as np
import pytest

from epcg_spec.domains.sudoku import bitmask
from epcg_spec.domains.sudoku.network import sudoku_network
from epcg_spec.search import backtrack
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


def back_end_fill(grid: list[int], box: int, seed: int) -> tuple[int, list[int] | None]:
    """The back end's random completion of `grid`: (its attempt seed, the grid or None)."""
    model = sudoku_network(box, np.array(grid))
    policy = backtrack.Policy(heuristic="mrv", attempts=1)
    outcome = backtrack.solve(model, seed, policy)
    attempt = outcome.attempt_seeds[0] if outcome.attempt_seeds else seed
    return attempt, outcome.values.tolist() if outcome.status == "solved" else None


def fill_cases() -> list[tuple[int, list[int]]]:
    """Empty grids (16 x 16 ones guess wrong and back up), valid holed grids, the hard
    puzzles (many guesses), and random clues, most of which clash after propagation."""
    rng = random.Random(4)
    cases = [(box, [-1] * box**4) for box, n in ((2, 30), (3, 30), (4, 12)) for _ in range(n)]
    cases += [(3, holed(3, rng, 60)) for _ in range(10)] + [(4, holed(4, rng, 170))] * 2
    cases += [(3, parse(text)) for text in HARD.values()]
    for box in (2, 3):
        for _ in range(15):
            grid = [-1] * box**4
            for cell in rng.sample(range(len(grid)), len(grid) // 5):
                grid[cell] = rng.randrange(box * box)
            cases.append((box, grid))
    return cases


def test_fill_makes_the_back_ends_choices():
    """Same random stream, same fixed points: the same grid as the back end's search, or
    none where it finds none."""
    rng = random.Random(11)
    boards = {box: bitmask.board(box) for box in (2, 3, 4)}
    solved = 0
    for box, grid in fill_cases():
        attempt, expected = back_end_fill(grid, box, rng.getrandbits(63))
        out = np.zeros(len(grid), dtype=np.int64)
        found = bitmask.fill(boards[box], np.array(grid, dtype=np.int64), attempt, out)
        assert found == (expected is not None)
        if found:
            assert out.tolist() == expected
            solved += 1
    assert 80 < solved < len(fill_cases())  # completions and failures both exercised
