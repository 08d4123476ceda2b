"""Layer counts and the boards themselves, from the retrograde back end, against the oracle."""

from math import comb

import numpy as np
import pytest

from epcg_spec.core.context import RunContext
from epcg_spec.domains.fling.problem import layered_space
from epcg_spec.search.retrograde import Plan, Retrograde
from tests.domains.fling.conftest import oracle, oracle_layer
from tests.oracles.fling_oracle import board_from_cells

RULES = ("moves", "boards")


def layers(shape, top, unique_by, folder):
    retro = Retrograde(layered_space(*shape), folder, RunContext())
    return retro, retro.run(Plan(top, top, RULES, unique_by))


def bits_set(bits: np.ndarray, size: int) -> list[int]:
    flags = np.unpackbits(bits.view(np.uint8), bitorder="little")[:size]
    return np.flatnonzero(flags).tolist()


# Counted by hand: two pieces in one row with a gap between them, per row C(w, 2) - (w - 1)
# pairs, and the same per column; 267 on the game's 7 x 8 board (8 x 15 + 7 x 21).
@pytest.mark.parametrize(
    ("shape", "known"), [((7, 8), 267), ((4, 5), 39), ((1, 9), 28), ((3, 3), 6), ((8, 8), 336)]
)
def test_two_pieces_are_solvable_exactly_when_they_share_a_line_with_a_gap(shape, known, tmp_path):
    width, height = shape
    _, reports = layers(shape, 2, "predecessors", tmp_path)
    formula = height * (comb(width, 2) - (width - 1)) + width * (comb(height, 2) - (height - 1))
    assert formula == known
    assert reports[1].solvable == known
    assert reports[1].unique["moves"] == known


@pytest.mark.parametrize(("shape", "top"), [((7, 8), 3), ((4, 5), 6), ((5, 5), 5), ((3, 6), 6)])
@pytest.mark.parametrize("unique_by", ["predecessors", "scan"])
def test_every_layer_holds_the_oracles_boards(shape, top, unique_by, tmp_path):
    retro, reports = layers(shape, top, unique_by, tmp_path)
    for report in reports[1:]:
        m = report.pieces
        expected = oracle_layer(*shape, m)
        assert report.size == comb(shape[0] * shape[1], m)
        assert bits_set(retro.solvable_bits(m), report.size) == expected["solvable"]
        assert report.solvable == len(expected["solvable"])
        for rule in RULES:
            assert retro.unique_ranks(rule, m).tolist() == expected[rule]
            assert report.unique[rule] == len(expected[rule])


@pytest.fixture(scope="module")
def game_layers(tmp_path_factory):
    retro, reports = layers((7, 8), 6, "predecessors", tmp_path_factory.mktemp("layers"))
    return retro, reports


@pytest.mark.parametrize("pieces", [4, 5, 6])
def test_sampled_game_boards_agree_with_the_oracle(game_layers, pieces):
    retro, _ = game_layers
    o = oracle(7, 8)
    size = comb(56, pieces)
    solvable = np.unpackbits(retro.solvable_bits(pieces).view(np.uint8), bitorder="little")
    unique = {rule: set(retro.unique_ranks(rule, pieces).tolist()) for rule in RULES}
    rng = np.random.default_rng(pieces)
    from epcg_spec.spaces import CombinationSpace

    space = CombinationSpace(56, pieces)
    picks = rng.integers(0, size, 300).tolist()
    picks += rng.choice(sorted(unique["moves"]), 50).tolist()  # the rare ones too
    for rank in picks:
        board = board_from_cells(space.unrank(rank).tolist(), 7)
        assert bool(solvable[rank]) == o.solvable(board)
        assert (rank in unique["moves"]) == o.unique_moves(board)
        assert (rank in unique["boards"]) == o.unique_boards(board)


def test_both_ways_of_finding_unique_boards_agree_on_the_game_board(game_layers, tmp_path):
    retro, reports = game_layers
    scanned, again = layers((7, 8), 6, "scan", tmp_path)
    for report, other in zip(reports, again, strict=True):
        assert report.unique == other.unique and report.solvable == other.solvable
        for rule in RULES:
            m = report.pieces
            assert np.array_equal(retro.unique_ranks(rule, m), scanned.unique_ranks(rule, m))
