"""Every board of up to six pieces on the game's 7 x 8 board against the plain-Python oracle
(32.5 million boards in the last layer: tens of minutes)."""

import numpy as np
import pytest

from epcg_spec.core.context import RunContext
from epcg_spec.domains.fling.problem import layered_space
from epcg_spec.search.retrograde import Plan, Retrograde
from tests.domains.fling.conftest import oracle_layer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def layers(tmp_path_factory):
    retro = Retrograde(layered_space(7, 8), tmp_path_factory.mktemp("layers"), RunContext())
    return retro, retro.run(Plan(6, 6, ("moves", "boards"), "predecessors"))


@pytest.mark.parametrize("pieces", [2, 3, 4, 5, 6])
def test_every_game_board_of_up_to_six_pieces(layers, pieces):
    retro, reports = layers
    expected = oracle_layer(7, 8, pieces)
    flags = np.unpackbits(retro.solvable_bits(pieces).view(np.uint8), bitorder="little")
    assert np.flatnonzero(flags[: reports[pieces - 1].size]).tolist() == expected["solvable"]
    for rule in ("moves", "boards"):
        assert retro.unique_ranks(rule, pieces).tolist() == expected[rule]
