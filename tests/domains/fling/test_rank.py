"""Ranks are CombinationSpace's lexicographic ranks; translates share their canonical board."""

from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from epcg_spec.domains.fling import kernels as K
from epcg_spec.spaces import CombinationSpace

SHAPES = [(7, 8), (8, 8), (4, 5), (1, 9)]


@settings(max_examples=200, deadline=None)
@given(shape=st.sampled_from(SHAPES), data=st.data())
def test_rank_unrank_and_next_follow_the_combination_space(shape, data):
    width, height = shape
    cells = width * height
    m = data.draw(st.integers(1, min(cells, 12)))
    space = CombinationSpace(cells, m)
    g = K.geometry(width, height)
    r = data.draw(st.integers(0, space.max_rank - 1))
    state = space.unrank(r)
    board = K.layer_unrank(r, m, g)
    assert int(board) == sum(1 << int(c) for c in state)
    assert K.layer_rank(np.uint64(board), m, g) == r == space.rank(state)
    if r + 1 < space.max_rank:
        assert int(K.layer_next(np.uint64(board), m, g)) == int(K.layer_unrank(r + 1, m, g))


def test_the_game_board_layers_have_the_binomial_sizes():
    g = K.geometry(7, 8)
    assert [int(g.last[m]) + 1 for m in range(1, 12)] == [comb(56, m) for m in range(1, 12)]
    assert comb(56, 10) == 35_607_051_480


@pytest.mark.parametrize("shape", SHAPES)
def test_every_board_of_a_layer_is_visited_once_in_rank_order(shape):
    width, height = shape
    g = K.geometry(width, height)
    m = 3
    board = np.uint64(K.layer_unrank(0, m, g))
    seen = [int(board)]
    for _ in range(comb(width * height, m) - 1):
        board = np.uint64(K.layer_next(board, m, g))
        seen.append(int(board))
    assert len(set(seen)) == len(seen) == comb(width * height, m)
    assert seen == sorted(seen, key=lambda b: [c for c in range(64) if b >> c & 1])


@settings(max_examples=200, deadline=None)
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1))
def test_canonical_boards_are_the_translates_in_the_top_left_corner(shape, seed):
    width, height = shape
    g = K.geometry(width, height)
    rng = np.random.default_rng(seed)
    cells = sorted(set(rng.integers(0, width * height, rng.integers(1, 8)).tolist()))
    xs, ys = [c % width for c in cells], [c // width for c in cells]
    corner = sum(1 << ((y - min(ys)) * width + x - min(xs)) for x, y in zip(xs, ys, strict=True))
    board = np.uint64(sum(1 << c for c in cells))
    assert int(K.layer_canonical(board, g)) == corner
    assert K.layer_is_canonical(board, g) == (int(board) == corner)
