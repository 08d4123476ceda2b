"""Shared test helpers: exhaustive checks against a list of states, hypothesis strategies of
large spaces paired with their oracles, and loading generated kernel modules."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections import Counter
from math import comb, perm, prod
from pathlib import Path
from types import ModuleType

import numpy as np
from hypothesis import strategies as st

from epcg_spec.spaces import (
    INT64_MAX,
    CombinationSpace,
    KPermutationSpace,
    MultisetSpace,
    PermutationSpace,
    PowerSpace,
    ProductSpace,
    RadixSpace,
    RankedSpace,
    space_kernel_args,
    space_kernel_source,
)
from epcg_spec.spaces.base import LoneSpace
from tests.oracles import spaces_oracle as oracle


class Ops:
    """The operations of a space, either through its Python methods (its own first / next
    kernels for a lone space) or through the generated `space_*` kernels, in one calling
    convention."""

    def __init__(self, space: RankedSpace, module: ModuleType | None = None):
        self.space = space
        self.module = module
        self.args = space.kernel_args() if module is None else space_kernel_args(space)

    def unrank(self, r: int) -> np.ndarray:
        if self.module is None:
            return self.space.unrank(r)
        x = np.empty(self.space.length, dtype=np.int64)
        self.module.space_unrank(r, x, self.args)
        return x

    def rank(self, x: np.ndarray) -> int:
        if self.module is None:
            return self.space.rank(x)
        return int(self.module.space_rank(x, self.args))

    def skip(self, x: np.ndarray, depth: int) -> int:
        if self.module is None:
            return self.space.skip(x, depth)
        return int(self.module.space_skip(x, depth, self.args))

    def subtree(self, x: np.ndarray, depth: int) -> int:
        if self.module is None:
            return self.space.subtree_size(x, depth)
        return int(self.module.space_subtree(x, depth, self.args))

    @property
    def walks(self) -> bool:
        """Whether first / next can be checked: the generated kernels, or a lone space's own
        kernels, of a prefix-ordered space."""
        lone = isinstance(self.space, LoneSpace)
        return self.space.prefix_ordered and (self.module is not None or lone)

    def first(self, x: np.ndarray, p: int) -> bool:
        if self.module is None:
            return bool(self.space.kernels.first(x, 0, p, *self.args))
        return bool(self.module.space_first(x, p, self.args))

    def next(self, x: np.ndarray, p: int) -> bool:
        if self.module is None:
            return bool(self.space.kernels.next(x, 0, p, *self.args))
        return bool(self.module.space_next(x, p, self.args))

    def candidates(self, x: np.ndarray, p: int) -> int:
        if self.module is None:
            return int(self.space.kernels.candidates(x, 0, p, *self.args))
        return int(self.module.space_candidates(x, p, self.args))


def check_exhaustive(ops: Ops, states: list[tuple[int, ...]], depths: list[int]) -> None:
    """Every rank, the whole increment walk, and skip / subtree at `depths` from every state,
    against the list of all states in order."""
    space = ops.space
    assert space.max_rank == len(states)
    for i, state in enumerate(states):
        assert tuple(ops.unrank(i)) == state
        assert ops.rank(np.array(state, dtype=np.int64)) == i
        assert space.contains(state)
    x = ops.unrank(0)
    for state in states[1:]:
        assert ops.skip(x, space.length) >= 0
        assert tuple(x) == state
    assert ops.skip(x, space.length) == -1
    assert tuple(x) == states[0]
    for depth in depths:
        sizes = Counter(state[:depth] for state in states)
        following = _following(states, depth)
        for i, state in enumerate(states):
            x = np.array(state, dtype=np.int64)
            assert ops.subtree(x, depth) == sizes[state[:depth]]
            changed = ops.skip(x, depth)
            j = following[i]
            assert tuple(x) == states[j if j < len(states) else 0]
            if j == len(states):
                assert changed == -1
            else:
                lowest = next(p for p in range(space.length) if x[p] != state[p])
                assert changed == lowest if space.prefix_ordered else 0 <= changed <= lowest


def check_walk(ops: Ops, states: list[tuple[int, ...]]) -> None:
    """A depth-first walk with first / next, as the engine's pruned loop does it, visits every
    state in order; next leaves its position alone when it returns False; where values fit a
    mask, candidates(x, p) is exactly the set of values x[p] takes after the prefix x[:p]."""
    length = ops.space.length
    x = np.zeros(length, dtype=np.int64)
    if length == 0:
        assert ops.module is None or not ops.first(x, 0)
        return

    def advance(p: int) -> bool:
        before = x.copy()
        live = ops.next(x, p)
        assert live or np.array_equal(x, before)
        return live

    def check_candidates(p: int) -> None:
        if ops.space.mask_walkable:
            values = {s[p] for s in states if s[:p] == tuple(x[:p].tolist())}
            assert ops.candidates(x, p) == sum(1 << v for v in values)

    seen = []
    d = 0
    check_candidates(0)
    live = ops.first(x, 0)
    while live:
        if d + 1 < length:
            d += 1
            check_candidates(d)
            assert ops.first(x, d)
            continue
        seen.append(tuple(x.tolist()))
        live = advance(d)
        while not live and d > 0:
            d -= 1
            live = advance(d)
    assert seen == states


def _following(states: list[tuple[int, ...]], depth: int) -> list[int]:
    """For each index, the index of the first later state with another depth-prefix."""
    following = [len(states)] * len(states)
    for i in range(len(states) - 2, -1, -1):
        same = states[i + 1][:depth] == states[i][:depth]
        following[i] = following[i + 1] if same else i + 1
    return following


def load_space_module(space: RankedSpace, directory: Path) -> ModuleType:
    """Import the generated kernels of `space`, as the engine does."""
    imports, source = space_kernel_source(space)
    return import_text("\n".join(imports) + "\n\n\n" + source, directory)


def import_text(text: str, directory: Path) -> ModuleType:
    """Import module source from a file named by its content (an existing file is reused, so
    numba's cache stays valid across runs). The module goes into sys.modules: numba's cache
    looks it up by name when it loads."""
    name = "space_" + hashlib.sha256(text.encode()).hexdigest()[:16]
    if name in sys.modules:
        return sys.modules[name]
    path = directory / f"{name}.py"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(path)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _largest_k(n: int, size, upper: int) -> int:
    """The largest k <= upper with size(n, k) <= INT64_MAX (size increasing in k there)."""
    k = 0
    while k < upper and size(n, k + 1) <= INT64_MAX:
        k += 1
    return k


@st.composite
def combinations(draw) -> tuple[RankedSpace, oracle.Oracle]:
    n = draw(st.sampled_from([66, 67, 68, 70, 120]) | st.integers(1, 200))
    k = draw(st.integers(0, _largest_k(n, comb, n // 2)))
    k = draw(st.sampled_from([k, n - k]))
    return CombinationSpace(n, k), oracle.combination(n, k)


@st.composite
def multisets(draw) -> tuple[RankedSpace, oracle.Oracle]:
    n = draw(st.integers(1, 120))
    k = draw(st.integers(0, _largest_k(n, lambda n, k: comb(n + k - 1, k), 200)))
    return MultisetSpace(n, k), oracle.multiset(n, k)


@st.composite
def kpermutations(draw) -> tuple[RankedSpace, oracle.Oracle]:
    n = draw(st.integers(0, 64) | st.integers(65, 300))
    k = draw(st.integers(0, _largest_k(n, perm, n)))
    return KPermutationSpace(n, k), oracle.kpermutation(n, k)


@st.composite
def permutations(draw) -> tuple[RankedSpace, oracle.Oracle]:
    n = draw(st.integers(0, 20))
    return PermutationSpace(n), oracle.permutation(n)


@st.composite
def radices(draw) -> tuple[RankedSpace, oracle.Oracle]:
    values = draw(st.lists(st.integers(1, 3) | st.integers(1, 2**31), max_size=12))
    while prod(values) > INT64_MAX:
        values.pop()
    if draw(st.booleans()) or not values:
        return RadixSpace(values), oracle.radix(values)
    p = max(values)
    k = _largest_k(p, lambda p, k: p**k, 64) if p > 1 else draw(st.integers(0, 5))
    return PowerSpace(p, k), oracle.radix([p] * k)


LONE = st.one_of(combinations(), multisets(), kpermutations(), permutations(), radices())


@st.composite
def products(draw) -> tuple[RankedSpace, oracle.Oracle]:
    pairs = draw(st.lists(LONE, min_size=1, max_size=3))
    while prod(space.max_rank for space, _ in pairs) > INT64_MAX:
        pairs.pop()
    factors = [(f"f{i}", space) for i, (space, _) in enumerate(pairs)]
    return ProductSpace(factors), oracle.product([o for _, o in pairs])


SPACES = st.one_of(LONE, products())
