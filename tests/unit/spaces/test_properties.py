"""Property tests on large spaces (up to 2**63 - 1 states) against the plain-Python oracle,
through the Python methods and through the generated kernels."""

from __future__ import annotations

from bisect import bisect_right

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from epcg_spec.spaces import (
    CombinationSpace,
    KPermutationSpace,
    MultisetSpace,
    PermutationSpace,
    PowerSpace,
    ProductSpace,
    RadixSpace,
    RankedSpace,
)
from tests.oracles import spaces_oracle as oracle
from tests.unit.spaces.helpers import SPACES, Ops, load_space_module


def check_ops(ops: Ops, reference: oracle.Oracle, data: st.DataObject) -> None:
    """unrank, rank, increment, subtree and skip at one drawn rank and depth."""
    space = ops.space
    edges = st.sampled_from([0, space.max_rank - 1, space.max_rank // 2])
    i = data.draw(edges | st.integers(0, space.max_rank - 1), label="rank")
    x = ops.unrank(i)
    assert tuple(x) == reference.unrank(i)
    assert ops.rank(x) == i
    y = x.copy()
    assert (ops.skip(y, space.length) == -1) == (i == space.max_rank - 1)
    assert ops.rank(y) == (i + 1) % space.max_rank
    depth = data.draw(st.integers(0, space.length), label="depth")
    subtree = ops.subtree(x, depth)
    assert subtree == reference.count(tuple(x[:depth]))
    after = reference.rank(reference.first(tuple(x[:depth]))) + subtree
    expected, changed = reference.skip(tuple(x), depth)
    assert ops.skip(x, depth) == changed
    assert tuple(x) == expected
    assert ops.rank(x) == after % space.max_rank
    if ops.walks and space.length:
        check_first_next(ops, reference, ops.unrank(i), data.draw(st.integers(0, space.length - 1)))


def check_first_next(ops: Ops, reference: oracle.Oracle, x, p: int) -> None:
    """first / next at position p of state x: the oracle's next values after x[:p], and no
    other position touched."""
    prefix = tuple(x[:p].tolist())
    choices = reference.choices(prefix)  # ascending; a range may be too long to list

    def first_live(values) -> int | None:
        return next((v for v in values if reference.count((*prefix, v))), None)

    y = x.copy()
    assert ops.first(y, p)
    assert y[p] == first_live(choices)
    assert np.array_equal(np.delete(y, p), np.delete(x, p))
    y = x.copy()
    later = first_live(choices[bisect_right(choices, int(x[p])) :])
    assert ops.next(y, p) == (later is not None)
    assert y[p] == (x[p] if later is None else later)
    assert np.array_equal(np.delete(y, p), np.delete(x, p))


@settings(max_examples=300, deadline=None)
@given(pair=SPACES, data=st.data())
def test_methods_agree_with_oracle(pair: tuple[RankedSpace, oracle.Oracle], data) -> None:
    space, reference = pair
    assert space.max_rank == reference.size
    check_ops(Ops(space), reference, data)


# Fixed spaces for the generated kernels (each compiles one module, cached across runs);
# together they hold every prefix-ordered type, with tables and radices at the int64 edge.
# The products have the shapes (factor types in order) of test_exhaustive's: their modules
# are the ones compiled there.
GENERATED = {
    "C(66,33)": (CombinationSpace(66, 33), oracle.combination(66, 33)),
    "radix": (RadixSpace([3037000499, 1, 3037000499]), oracle.radix([3037000499, 1, 3037000499])),
    "CxpowerxM": (
        ProductSpace(
            [("c", CombinationSpace(30, 10)), ("p", PowerSpace(7, 9)), ("m", MultisetSpace(5, 3))]
        ),
        oracle.product([oracle.combination(30, 10), oracle.radix([7] * 9), oracle.multiset(5, 3)]),
    ),
    "M(20,15)xP(100,4)xradix": (
        ProductSpace(
            [
                ("m", MultisetSpace(20, 15)),
                ("k", KPermutationSpace(100, 4)),
                ("r", RadixSpace([3, 1, 7])),
            ]
        ),
        oracle.product(
            [oracle.multiset(20, 15), oracle.kpermutation(100, 4), oracle.radix([3, 1, 7])]
        ),
    ),
    "powerxC(30,10)x8!": (
        ProductSpace(
            [
                ("w", PowerSpace(7, 5)),
                ("c", CombinationSpace(30, 10)),
                ("q", PermutationSpace(8)),
            ]
        ),
        oracle.product([oracle.radix([7] * 5), oracle.combination(30, 10), oracle.permutation(8)]),
    ),
}


@pytest.mark.parametrize("name", list(GENERATED))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_generated_kernels_agree_with_oracle(name: str, module_dir, data) -> None:
    space, reference = GENERATED[name]
    check_ops(Ops(space, load_space_module(space, module_dir)), reference, data)
