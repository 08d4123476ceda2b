"""Every state of small spaces against itertools: ranks, the increment walk, skip, subtree."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

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
from tests.oracles.spaces_oracle import myrvold_ruskey_unrank
from tests.unit.spaces.helpers import (
    Ops,
    check_exhaustive,
    check_walk,
    import_text,
    load_space_module,
)


def _combinations(n: int, k: int):
    return CombinationSpace(n, k), list(itertools.combinations(range(n), k))


def _multisets(n: int, k: int):
    return MultisetSpace(n, k), list(itertools.combinations_with_replacement(range(n), k))


def _kpermutations(n: int, k: int):
    return KPermutationSpace(n, k), list(itertools.permutations(range(n), k))


def _permutations(n: int):
    return PermutationSpace(n), list(itertools.permutations(range(n)))


def _myrvold_ruskey(n: int):
    space = PermutationSpace(n, order="myrvold-ruskey")
    return space, [tuple(myrvold_ruskey_unrank(n, r)) for r in range(space.max_rank)]


def _radix(radices: list[int]):
    return RadixSpace(radices), list(itertools.product(*(range(r) for r in radices)))


def _power(p: int, k: int):
    return PowerSpace(p, k), list(itertools.product(range(p), repeat=k))


def _product(*named):
    space = ProductSpace([(name, s) for name, (s, _) in named])
    states = [sum(parts, ()) for parts in itertools.product(*(states for _, (_, states) in named))]
    return space, states


LONE = {
    **{f"C({n},{k})": _combinations(n, k) for n, k in [(0, 0), (1, 0), (1, 1), (5, 0), (5, 5)]},
    **{f"C({n},{k})": _combinations(n, k) for n, k in [(6, 3), (7, 2), (8, 5), (9, 1)]},
    **{f"M({n},{k})": _multisets(n, k) for n, k in [(1, 0), (1, 3), (3, 0), (3, 3), (4, 4)]},
    **{f"M({n},{k})": _multisets(n, k) for n, k in [(5, 2), (2, 5)]},
    **{f"P({n},{k})": _kpermutations(n, k) for n, k in [(0, 0), (1, 1), (4, 0), (4, 4)]},
    **{f"P({n},{k})": _kpermutations(n, k) for n, k in [(5, 2), (5, 3), (6, 4), (66, 2)]},
    **{f"{n}!": _permutations(n) for n in range(6)},
    **{f"radix{r}": _radix(r) for r in [[], [1], [1, 1], [2, 1, 3], [3, 2, 2], [1, 4, 1]]},
    **{f"{p}^{k}": _power(p, k) for p, k in [(2, 4), (3, 0), (1, 3), (5, 2)]},
}

# test_properties checks large spaces of the first, second and fourth shapes: the generated
# source depends on the factors' types and order only, so those modules are compiled once
PRODUCTS = {
    "C(4,2)xpowerxM": _product(
        ("c", _combinations(4, 2)), ("p", _power(2, 2)), ("m", _multisets(2, 2))
    ),
    "MxP(3,2)xradix": _product(
        ("m", _multisets(2, 2)), ("k", _kpermutations(3, 2)), ("r", _radix([2, 1]))
    ),
    "emptyxC": _product(("e", _radix([])), ("c", _combinations(3, 1))),
    "powerxC(3,0)x3!": _product(
        ("w", _power(2, 1)), ("e", _combinations(3, 0)), ("p", _permutations(3))
    ),
}

MYRVOLD_RUSKEY = {f"mr{n}!": _myrvold_ruskey(n) for n in range(5)}
MIXED = {"mr3!xC(4,2)": _product(("q", _myrvold_ruskey(3)), ("c", _combinations(4, 2)))}


def _depths(space: RankedSpace) -> list[int]:
    if space.prefix_ordered:
        return list(range(space.length + 1))
    if isinstance(space, ProductSpace):
        return [0, *range(space.offsets[1], space.length + 1)]
    return [0, space.length]


ALL = {**LONE, **PRODUCTS, **MYRVOLD_RUSKEY, **MIXED}


@pytest.mark.parametrize("name", list(ALL))
def test_every_state(name: str) -> None:
    space, states = ALL[name]
    ops = Ops(space)
    check_exhaustive(ops, states, _depths(space))
    if ops.walks:
        check_walk(ops, states)


# Lone types get their generated kernels checked on large spaces in test_properties.
GENERATED = ["mr4!", *PRODUCTS, *MIXED]


@pytest.mark.parametrize("name", GENERATED)
def test_generated_kernels(name: str, module_dir) -> None:
    space, states = ALL[name]
    ops = Ops(space, load_space_module(space, module_dir))
    check_exhaustive(ops, states, _depths(space))
    if ops.walks:
        check_walk(ops, states)


def test_known_combination_ranks() -> None:
    space = CombinationSpace(20, 4)
    assert space.unrank(0).tolist() == [0, 1, 2, 3]
    assert space.unrank(4841).tolist() == [15, 16, 17, 19]
    assert space.unrank(4844).tolist() == [16, 17, 18, 19]
    assert space.max_rank == 4845


NO_RUNTIME_LOOP = """
import numpy as np
from numba import njit
from {module} import space_first, space_next, space_rank, space_skip, space_subtree, space_unrank


@njit(cache=True, _nrt=False)
def walk(x, count, S, out):
    space_unrank(0, x, S)
    for i in range(count):
        out[i, 0] = space_rank(x, S)
        out[i, 1] = space_subtree(x, 1, S)
        out[i, 2] = space_first(x, 1, S)
        out[i, 3] = space_next(x, 1, S)
        space_unrank(out[i, 0], x, S)
        out[i, 4] = space_skip(x, x.shape[0], S)
"""


@pytest.mark.parametrize("name", ["mr3!xC(4,2)", "MxP(3,2)xradix"])
def test_kernels_run_with_the_runtime_off(name: str, module_dir) -> None:
    """No kernel allocates: the generated functions compile into a loop with njit(_nrt=False),
    where no refcount operations are emitted at all."""
    space, states = ALL[name]
    ops = Ops(space, load_space_module(space, module_dir))
    loop = import_text(NO_RUNTIME_LOOP.format(module=ops.module.__name__), module_dir)
    out = np.zeros((len(states), 5), dtype=np.int64)
    loop.walk(np.zeros(space.length, dtype=np.int64), len(states), ops.args, out)
    assert out[:, 0].tolist() == list(range(len(states)))
    assert out[-1, 4] == -1
    assert (out[:-1, 4] >= 0).all()
