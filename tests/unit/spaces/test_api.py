"""The Python layer: sizes at the int64 edge, refusal of larger spaces, input validation,
descriptions and the registry."""

from __future__ import annotations

import itertools
from math import comb, factorial, perm

import numpy as np
import pytest

from epcg_spec.core.errors import SpaceTooLarge
from epcg_spec.spaces import (
    INT64_MAX,
    CombinationSpace,
    KPermutationSpace,
    MultisetSpace,
    PermutationSpace,
    PowerSpace,
    ProductSpace,
    RadixSpace,
    make_space,
    space_kernel_source,
)
from epcg_spec.spaces.binomial import binomial_table
from epcg_spec.spaces.bits import bit_index, lowest_bit, popcount
from tests.oracles import spaces_oracle as oracle


def test_binomial_table_saturates() -> None:
    table = binomial_table(70, 36)
    assert table.shape == (37, 71)
    assert all(table[j, a] == min(comb(a, j), INT64_MAX) for j in range(37) for a in range(71))
    assert table[33, 66] == comb(66, 33) < INT64_MAX
    assert table[33, 67] == table[34, 68] == INT64_MAX


@pytest.mark.parametrize(
    ("space", "reference"),
    [
        (CombinationSpace(66, 33), oracle.combination(66, 33)),
        (CombinationSpace(70, 65), oracle.combination(70, 65)),
        (CombinationSpace(67, 62), oracle.combination(67, 62)),
        (MultisetSpace(34, 33), oracle.multiset(34, 33)),
        (MultisetSpace(10, 61), oracle.multiset(10, 61)),
    ],
    ids=["C(66,33)", "C(70,65)", "C(67,62)", "M(34,33)", "M(10,61)"],
)
def test_binomial_spaces_exact_at_the_edges(space, reference) -> None:
    """Tables with saturated entries still rank exactly: the kernels never read them."""
    for r in [0, 1, space.max_rank // 3, space.max_rank - 2, space.max_rank - 1]:
        x = space.unrank(r)
        assert tuple(x) == reference.unrank(r)
        assert space.rank(x) == r
        for depth in range(space.length + 1):
            assert space.subtree_size(x, depth) == reference.count(tuple(x[:depth]))


@pytest.mark.parametrize(
    ("space", "size"),
    [
        (PermutationSpace(21), factorial(21)),
        (CombinationSpace(67, 33), comb(67, 33)),
        (CombinationSpace(68, 34), comb(68, 34)),
        (MultisetSpace(35, 33), comb(67, 33)),
        (KPermutationSpace(100, 11), perm(100, 11)),
        (PowerSpace(2, 63), 2**63),
        (ProductSpace([("a", PowerSpace(2, 40)), ("b", PowerSpace(2, 40))]), 2**80),
    ],
    ids=["21!", "C(67,33)", "C(68,34)", "M(35,33)", "P(100,11)", "2^63", "2^40x2^40"],
)
def test_too_large_is_refused_with_exact_size(space, size) -> None:
    assert space.max_rank == size
    assert space.describe().endswith(f"= {size:,} states")
    for call in [
        space.check_fits,
        space.kernel_args,
        lambda: space.unrank(0),
        lambda: space_kernel_source(space),
    ]:
        with pytest.raises(SpaceTooLarge) as info:
            call()
        assert f"{size:,} states" in str(info.value)
        assert info.value.size == size


def test_largest_spaces_that_fit() -> None:
    space = PermutationSpace(20)
    assert space.unrank(factorial(20) - 1).tolist() == list(range(19, -1, -1))
    radix = RadixSpace([INT64_MAX])
    assert radix.unrank(INT64_MAX - 1).tolist() == [INT64_MAX - 1]
    assert radix.rank([INT64_MAX - 1]) == INT64_MAX - 1
    assert CombinationSpace(66, 33).unrank(comb(66, 33) - 1).tolist() == list(range(33, 66))


def test_huge_sizes_are_exact() -> None:
    assert CombinationSpace(1000, 500).max_rank == comb(1000, 500)
    assert PermutationSpace(100).describe() == f"permutation 100! = {factorial(100):,} states"


def test_descriptions() -> None:
    assert CombinationSpace(56, 8).describe() == "combination C(56, 8) = 1,420,494,075 states"
    assert KPermutationSpace(10, 3).describe() == "k-permutation P(10, 3) = 720 states"
    assert MultisetSpace(10, 3).describe() == "multiset M(10, 3) = 220 states"
    assert PowerSpace(2, 10).describe() == "power 2^10 = 1,024 states"
    assert RadixSpace([2, 3, 4]).describe() == "radix [2, 3, 4] = 24 states"
    mr = PermutationSpace(4, order="myrvold-ruskey")
    assert mr.describe() == "permutation 4! (myrvold-ruskey order) = 24 states"
    product = ProductSpace([("c", CombinationSpace(5, 2)), ("b", PowerSpace(2, 3))])
    assert product.describe() == "product c: combination C(5, 2) x b: power 2^3 = 80 states"


def test_value_ranges() -> None:
    assert [CombinationSpace(10, 3).value_range(i) for i in range(3)] == [(0, 7), (1, 8), (2, 9)]
    assert MultisetSpace(4, 2).value_range(1) == (0, 3)
    assert KPermutationSpace(9, 2).value_range(0) == (0, 8)
    assert PermutationSpace(5).value_range(4) == (0, 4)
    assert RadixSpace([3, 1, 5]).value_range(2) == (0, 4)
    product = ProductSpace([("c", CombinationSpace(5, 2)), ("r", RadixSpace([3, 7]))])
    assert [product.value_range(i) for i in range(4)] == [(0, 3), (1, 4), (0, 2), (0, 6)]
    assert product.slice_of("r") == slice(2, 4)
    with pytest.raises(ValueError, match=r"position must be in 0\.\.3"):
        product.value_range(4)
    with pytest.raises(ValueError, match="no factor 'z'; factors: c, r"):
        product.slice_of("z")


def test_kernel_args_shapes() -> None:
    prm, tab = CombinationSpace(7, 3).kernel_args()
    assert prm.dtype == tab.dtype == np.int64
    assert prm.tolist() == [7, 3, 1]  # n, k, strict
    assert MultisetSpace(7, 3).kernel_args()[0].tolist() == [7, 3, 0]
    assert tab.ndim == 2
    product = ProductSpace([("a", CombinationSpace(7, 3)), ("b", PermutationSpace(4))])
    args = product.kernel_args()
    assert len(args) == 4
    assert args[2].tolist() == [4, 4]


def test_prefix_ordered_flags() -> None:
    mr = PermutationSpace(4, order="myrvold-ruskey")
    assert not mr.prefix_ordered
    assert PermutationSpace(4).prefix_ordered
    assert not ProductSpace([("a", PowerSpace(2, 2)), ("q", mr)]).prefix_ordered
    assert ProductSpace([("a", PowerSpace(2, 2)), ("c", CombinationSpace(4, 2))]).prefix_ordered


def test_increment_wraps_at_the_end() -> None:
    space = CombinationSpace(5, 3)
    x = space.unrank(space.max_rank - 1)
    assert not space.increment(x)
    assert x.tolist() == [0, 1, 2]
    assert space.increment(x)
    assert x.tolist() == [0, 1, 3]


@pytest.mark.parametrize("bad", [-1, 10, 1.0, True, "3", None])
def test_unrank_rejects_bad_ranks(bad) -> None:
    with pytest.raises(ValueError, match=r"out of range 0\.\.9 for combination C\(5, 2\)"):
        CombinationSpace(5, 2).unrank(bad)


@pytest.mark.parametrize(
    "bad", [[1, 0], [0, 5], [0], [0, 1, 2], [-1, 2], [0.0, 1.0], [[0, 1]], [2**64, 0], "ab"]
)
def test_bad_states_are_rejected(bad) -> None:
    space = CombinationSpace(5, 2)
    assert not space.contains(bad)
    with pytest.raises(ValueError, match=r"is not a state of combination C\(5, 2\)"):
        space.rank(bad)
    with pytest.raises(ValueError, match="is not a state"):
        space.subtree_size(bad, 1)


def test_states_of_any_integer_type() -> None:
    space = RadixSpace([3, 300])
    assert space.rank([2, 299]) == 899
    assert space.rank(np.array([2, 299], dtype=np.uint16)) == 899
    assert space.contains((1, 0))
    assert KPermutationSpace(5, 0).rank([]) == 0


def test_in_place_operations_need_a_writeable_int64_array() -> None:
    space = PowerSpace(3, 2)
    for bad in [[0, 0], np.zeros(2, dtype=np.int32)]:
        with pytest.raises(ValueError, match="writeable int64 numpy array"):
            space.increment(bad)
    frozen = np.zeros(2, dtype=np.int64)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        space.skip(frozen, 1)
    with pytest.raises(ValueError, match="is not a state"):
        space.increment(np.array([0, 3]))


def test_depths_are_checked() -> None:
    x = np.array([0, 1, 2], dtype=np.int64)
    with pytest.raises(ValueError, match=r"depth must be in 0\.\.3, got 4"):
        PermutationSpace(3).skip(x, 4)
    with pytest.raises(ValueError, match="depth must be >= 0"):
        PermutationSpace(3).subtree_size(x, -1)
    mr = PermutationSpace(3, order="myrvold-ruskey")
    with pytest.raises(ValueError, match="not prefix-ordered: depth must be 0 or 3, got 1"):
        mr.skip(x, 1)
    with pytest.raises(ValueError, match="not prefix-ordered"):
        mr.subtree_size(x, 2)
    assert mr.subtree_size(x, 0) == 6
    assert mr.subtree_size(x, 3) == 1
    product = ProductSpace([("q", mr), ("c", CombinationSpace(4, 2))])
    state = product.unrank(0)
    assert product.subtree_size(state, 4) == 3
    with pytest.raises(ValueError, match="not prefix-ordered"):
        product.skip(state, 2)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: CombinationSpace(3, 4), "needs k <= n, got n=3, k=4"),
        (lambda: CombinationSpace(-1, 0), "n must be >= 0, got -1"),
        (lambda: CombinationSpace(True, 0), "n must be an integer, got True"),
        (lambda: MultisetSpace(0, 2), "n must be >= 1, got 0"),
        (lambda: KPermutationSpace(2, 3), "needs k <= n"),
        (lambda: PermutationSpace(3, order="colex"), "valid: lex, myrvold-ruskey"),
        (lambda: RadixSpace([2, 0]), r"radices\[1\] must be >= 1, got 0"),
        (lambda: RadixSpace("23"), "radices must be a list of integers"),
        (lambda: PowerSpace(0, 3), "p must be >= 1"),
        (lambda: ProductSpace([]), "non-empty list of"),
        (lambda: ProductSpace([("a", PowerSpace(2, 1)), ("a", PowerSpace(2, 1))]), "used twice"),
        (lambda: ProductSpace([("1a", PowerSpace(2, 1))]), "is not an identifier"),
        (lambda: ProductSpace([("a", ProductSpace([("b", PowerSpace(2, 1))]))]), "lone space"),
    ],
)
def test_constructors_validate(make, message) -> None:
    with pytest.raises(ValueError, match=message):
        make()


def test_make_space() -> None:
    assert make_space("combination", n=5, k=2).max_rank == 10
    assert make_space("permutation", n=4).prefix_ordered
    assert not make_space("permutation", n=4, order="myrvold-ruskey").prefix_ordered
    assert make_space("k-permutation", n=5, k=2).max_rank == 20
    assert make_space("multiset", n=3, k=2).max_rank == 6
    assert make_space("power", p=3, k=2).type_name == "power"
    assert make_space("radix", radices=[2, 5]).max_rank == 10
    with pytest.raises(ValueError, match="unknown space type 'combo'; valid types: combination"):
        make_space("combo", n=5, k=2)
    with pytest.raises(ValueError, match=r"missing k: expected combination\(n, k\)"):
        make_space("combination", n=5)
    with pytest.raises(ValueError, match=r"unknown size: expected power\(p, k\)"):
        make_space("power", p=2, k=2, size=3)
    with pytest.raises(ValueError, match=r"permutation\(n, order=lex\|myrvold-ruskey\)"):
        make_space("permutation", m=3)
    with pytest.raises(ValueError, match="unknown space type"):
        make_space(["combination"], n=3, k=1)


def test_every_radix_state_is_contained() -> None:
    space = RadixSpace([2, 1, 3])
    states = list(itertools.product(range(2), range(1), range(3)))
    assert all(space.contains(s) for s in states)
    assert not space.contains((0, 1, 0))


def test_generated_source_shape() -> None:
    space = ProductSpace([("a", CombinationSpace(6, 2)), ("b", CombinationSpace(5, 3))])
    imports, source = space_kernel_source(space)
    assert "from numba import njit" in imports
    assert len([line for line in imports if "spaces.sorted_sequence import" in line]) == 1
    assert source.startswith('@njit(cache=True, inline="always")\ndef space_unrank(r, x, S):')
    for signature in [
        "space_unrank(r, x, S)",
        "space_rank(x, S)",
        "space_skip(x, depth, S)",
        "space_subtree(x, depth, S)",
    ]:
        assert f'@njit(cache=True, inline="always")\ndef {signature}:' in source
    assert "S[2], S[3]" in source
    assert "S[4][" in source  # the layout array: offsets and sizes are data, not constants
    assert "S[5]" not in source
    assert str(space.max_rank) not in source


def test_bit_helpers() -> None:
    rng = np.random.default_rng(7)
    for value in [0, 1, 2**63, 2**64 - 1, *rng.integers(0, 2**63, 200).tolist()]:
        assert popcount(np.uint64(value)) == bin(value).count("1")
    assert [bit_index(np.uint64(1) << np.uint64(i)) for i in range(64)] == list(range(64))
    assert lowest_bit(np.uint64(0b101000)) == 0b1000


@pytest.mark.parametrize(
    ("type_name", "params"),
    [
        ("combination", {"n": 6, "k": 3}),
        ("multiset", {"n": 4, "k": 3}),
        ("permutation", {"n": 4}),
        ("k-permutation", {"n": 5, "k": 3}),
        ("radix", {"radices": [2, 3, 2]}),
    ],
)
def test_uniform_subtrees_means_one_subtree_size_per_depth(type_name, params) -> None:
    space = make_space(type_name, **params)
    states = [space.unrank(r) for r in range(space.max_rank)]
    sizes_per_depth = [
        {space.subtree_size(x, depth) for x in states} for depth in range(space.length + 1)
    ]
    assert space.uniform_subtrees == all(len(sizes) == 1 for sizes in sizes_per_depth)
