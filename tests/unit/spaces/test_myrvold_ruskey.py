"""The Myrvold-Ruskey order against the published recursive unrank1 / rank1."""

from __future__ import annotations

import itertools
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from epcg_spec.spaces import PermutationSpace
from tests.oracles.spaces_oracle import myrvold_ruskey_rank, myrvold_ruskey_unrank


@pytest.mark.parametrize("n", range(8))
def test_bijection(n: int) -> None:
    space = PermutationSpace(n, order="myrvold-ruskey")
    states = [tuple(space.unrank(r)) for r in range(space.max_rank)]
    assert sorted(states) == list(itertools.permutations(range(n)))
    assert states == [tuple(myrvold_ruskey_unrank(n, r)) for r in range(space.max_rank)]
    assert all(space.rank(state) == r for r, state in enumerate(states))


def test_not_prefix_ordered() -> None:
    space = PermutationSpace(4, order="myrvold-ruskey")
    heads = [int(space.unrank(r)[0]) for r in range(space.max_rank)]
    assert heads != sorted(heads)
    assert not space.prefix_ordered


def test_increment_walks_rank_order() -> None:
    space = PermutationSpace(5, order="myrvold-ruskey")
    x = space.unrank(0)
    for r in range(1, space.max_rank):
        assert space.increment(x)
        assert space.rank(x) == r
    assert not space.increment(x)
    assert x.tolist() == space.unrank(0).tolist()


@settings(max_examples=200, deadline=None)
@given(r=st.integers(0, factorial(20) - 1))
def test_round_trip_n20(r: int) -> None:
    space = PermutationSpace(20, order="myrvold-ruskey")
    x = space.unrank(r)
    assert x.tolist() == myrvold_ruskey_unrank(20, r)
    assert space.rank(x) == r == myrvold_ruskey_rank(x.tolist())
    assert space.rank(np.array(x)) == r
