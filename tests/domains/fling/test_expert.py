"""The expert evaluator against plain-Python search trees, and the labels of the solution."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from epcg_spec.domains.fling import kernels as K
from epcg_spec.domains.fling.expert import judge
from epcg_spec.domains.fling.render import board_text, first_flings
from tests.domains.fling.conftest import oracle
from tests.domains.fling.helpers import draw, to_oracle
from tests.oracles.fling_oracle import fling, moves

G = K.geometry(7, 8)


def brute_tree(board, width, height):
    return 1 + sum(brute_tree(after, width, height) for _, _, after in moves(board, width, height))


def depends(before, move, after, nxt, width, height):
    """The evaluator's definition, written out on the oracle's boards."""
    if nxt == move:
        return True
    first = fling(before, *nxt, width, height)
    if first is None:
        return True
    both = fling(first, *move, width, height)
    return both is None or both != fling(after, *nxt, width, height)


def expert_tree(board, width, height):
    def below(before, move):
        after = fling(before, *move, width, height)
        return 1 + sum(
            below(after, (piece, d))
            for piece, d, _ in moves(after, width, height)
            if depends(before, move, after, (piece, d), width, height)
        )

    return 1 + sum(below(board, (piece, d)) for piece, d, _ in moves(board, width, height))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pieces=st.integers(2, 6))
def test_a_judged_board_agrees_with_the_oracle(seed, pieces):
    rng = np.random.default_rng(seed)
    cells = sorted(rng.choice(56, pieces, replace=False).tolist())
    board = sum(1 << c for c in cells)
    verdict = judge(board, G)
    o = oracle(7, 8)
    b = to_oracle(board, 7)
    assert verdict.solvable == o.solvable(b)
    assert verdict.unique == {"moves": o.unique_moves(b), "boards": o.unique_boards(b)}
    assert verdict.brute_tree == brute_tree(b, 7, 8)
    assert verdict.expert_tree == expert_tree(b, 7, 8)
    if verdict.solvable:
        after = board
        for move in verdict.solution:
            after = int(K.apply_move(np.uint64(after), move, G))
        assert bin(after).count("1") == 1


def test_the_expert_prunes_independent_moves_on_a_hand_made_board():
    # many solutions, and moves that commute: the expert skips their second orders
    board, width, height = draw("o.o.o.o")
    g = K.geometry(width, height)
    verdict = judge(board, g)
    assert verdict.brute_tree == brute_tree(to_oracle(board, width), width, height)
    assert verdict.expert_tree == expert_tree(to_oracle(board, width), width, height)
    assert verdict.expert_tree < verdict.brute_tree
    assert not verdict.unique["moves"] and verdict.solvable


@pytest.mark.parametrize("pieces", [5, 6])
def test_every_move_of_a_unique_solution_depends_on_the_one_before(pieces):
    """The paper's argument, checked on unique boards (moves rule) of the game board."""
    o = oracle(7, 8)
    rng = np.random.default_rng(pieces)
    found = 0
    while found < 20:
        cells = sorted(rng.choice(56, pieces, replace=False).tolist())
        board = sum(1 << c for c in cells)
        if o.unique_moves(to_oracle(board, 7)):
            found += 1
            verdict = judge(board, G)
            assert verdict.expert_follows


def test_pieces_are_labelled_with_the_step_they_are_first_flung_at():
    # .o..o.o : fling (1,0) right: it stops at 3, the piece from 4 slides to 5, 6 leaves.
    # Then ...o.o. : fling the piece on 5 (it came from 4) left: it stops at 4, 3 leaves.
    board, width, height = draw(".o..o.o")
    g = K.geometry(width, height)
    solution = [1 * 4 + 0, 5 * 4 + 1]
    labels = first_flings([1, 4, 6], solution, width, height)
    assert labels == {1: 1, 4: 2}
    assert board_text([1, 4, 6], labels, width, height) == ".1..2.o\n"
    verdict = judge(board, g)
    assert verdict.solvable and verdict.solution[0] == 4
