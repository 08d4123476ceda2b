"""The move rules on hand-made boards, and every kernel against the plain-Python oracle."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from epcg_spec.domains.fling import kernels as K
from tests.domains.fling.helpers import draw, kernel_moves, picture, to_mask, to_oracle
from tests.oracles.fling_oracle import moves as oracle_moves

G78 = K.geometry(7, 8)


def after(rows, cell, direction):
    """The picture after flinging the piece on (x, y) = cell of the board `rows`."""
    board, width, height = draw(*rows)
    g = K.geometry(width, height)
    x, y = cell
    found = kernel_moves(board, g).get((y * width + x, direction))
    return None if found is None else picture(found, width, height)


@pytest.mark.parametrize(
    ("rows", "cell", "direction", "expected"),
    [
        # a gap, then one piece: the flung piece stops next to it, the other slides off
        ((".o..o..",), (1, 0), "right", ("...o...",)),
        # touching pieces pass the momentum on: only the last one leaves
        ((".o.oo..",), (1, 0), "right", ("..oo...",)),
        # a chain with gaps: every piece slides up to the next one, the last leaves
        (("o.o.o.o",), (0, 0), "right", (".o.o.o.",)),
        (("o.o.o.o",), (6, 0), "left", (".o.o.o.",)),
        # a touching pair, then a gap: the pair stays, the last piece slides on and off
        (("o..oo.o",), (0, 0), "right", ("..oo.o.",)),
        # pieces far from the edge still leave the board: the edge's distance never matters
        (("o.o....",), (0, 0), "right", (".o.....",)),
        # vertically too, both ways
        (("o", ".", "o", "o", ".", "o"), (0, 0), "down", (".", "o", "o", ".", "o", ".")),
        (("o", ".", "o", "o", ".", "o"), (0, 5), "up", (".", "o", ".", "o", "o", ".")),
        # pieces of other lines are left alone
        (("o.o", "o.o"), (0, 1), "right", ("o.o", ".o.")),
    ],
)
def test_a_fling_on_hand_made_boards(rows, cell, direction, expected):
    assert after(rows, cell, direction) == expected


@pytest.mark.parametrize(
    ("rows", "cell", "direction"),
    [
        (("oo.o",), (0, 0), "right"),  # the next cell is taken: no gap
        (("o...",), (0, 0), "right"),  # nothing beyond: a piece never leaves on its own
        (("..o.o",), (4, 0), "right"),  # on the edge
        (("o.o",), (0, 0), "left"),  # off the board at once
        (("o", ".", "o"), (0, 0), "up"),
        (("o.", ".o"), (0, 0), "right"),  # the other piece is in another row
    ],
)
def test_illegal_flings(rows, cell, direction):
    assert after(rows, cell, direction) is None


def test_the_game_board_has_every_move_of_a_crowded_row():
    board, _, _ = draw("o.o.o.o", *(["......."] * 7))
    moves = kernel_moves(board, G78)
    assert sorted(moves) == [(0, "right"), (2, "left"), (2, "right"), (4, "left"), (4, "right"),
                             (6, "left")]  # fmt: skip


masks = st.integers(min_value=1, max_value=(1 << 56) - 1)
shapes = st.sampled_from([(7, 8), (1, 9), (9, 1), (4, 5), (8, 8), (3, 3)])


@settings(max_examples=300, deadline=None)
@given(shape=shapes, seed=st.integers(0, 2**32 - 1), density=st.floats(0.05, 0.9))
def test_moves_agree_with_the_oracle(shape, seed, density):
    width, height = shape
    rng = np.random.default_rng(seed)
    cells = [c for c in range(width * height) if rng.random() < density]
    board = sum(1 << c for c in cells)
    g = K.geometry(width, height)
    expected = {
        (y * width + x, direction): to_mask(result, width)
        for (x, y), direction, result in oracle_moves(to_oracle(board, width), width, height)
    }
    assert kernel_moves(board, g) == expected


@settings(max_examples=300, deadline=None)
@given(shape=shapes, seed=st.integers(0, 2**32 - 1), density=st.floats(0.05, 0.9))
def test_predecessors_are_exactly_the_moves_into_a_board(shape, seed, density):
    """Every (board, move) the kernels undo leads to the board; every move is undone once."""
    width, height = shape
    rng = np.random.default_rng(seed)
    g = K.geometry(width, height)
    board = sum(1 << c for c in range(width * height) if rng.random() < density)
    boards = np.empty(K.MAX_PREDECESSORS, np.uint64)
    codes = np.empty(K.MAX_PREDECESSORS, np.int64)
    for before, move in (
        (int(boards[i]), int(codes[i])) for i in range(K.layer_predecessors(
            np.uint64(board), g, boards, codes))
    ):  # fmt: skip
        assert kernel_moves(before, g)[(move >> 2, K.DIRECTIONS[move & 3])] == board
    for (cell, direction), result in kernel_moves(board, g).items():
        n = K.layer_predecessors(np.uint64(result), g, boards, codes)
        pairs = [(int(boards[i]), int(codes[i])) for i in range(n)]
        assert pairs.count((board, cell * 4 + K.DIRECTIONS.index(direction))) == 1
