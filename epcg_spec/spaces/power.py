"""Mixed radix: tuples with x[i] in 0..radices[i]-1, last position fastest; power p^k."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np

from epcg_spec.spaces.base import Kernels, LoneSpace, check_int
from epcg_spec.spaces.bits import low_mask
from epcg_spec.spaces.jit import kernel


@kernel
def radix_unrank(r, x, off, prm, tab):
    for i in range(prm.size - 1, -1, -1):
        x[off + i] = r % prm[i]
        r //= prm[i]


@kernel
def radix_rank(x, off, prm, tab):
    r = 0
    for i in range(prm.size):
        r = r * prm[i] + x[off + i]
    return r


@kernel
def radix_skip(x, off, depth, prm, tab):
    i = depth - 1
    while i >= 0 and x[off + i] == prm[i] - 1:
        i -= 1
    if i >= 0:
        x[off + i] += 1
    for p in range(i + 1, prm.size):
        x[off + p] = 0
    return i


@kernel
def radix_subtree(x, off, depth, prm, tab):
    return tab[0, depth]


@kernel
def radix_first(x, off, p, prm, tab):
    x[off + p] = 0
    return True


@kernel
def radix_next(x, off, p, prm, tab):
    if x[off + p] == prm[p] - 1:
        return False
    x[off + p] += 1
    return True


@kernel
def radix_candidates(x, off, p, prm, tab):
    return low_mask(prm[p])


class RadixSpace(LoneSpace):
    """Tuples with x[i] in 0..radices[i]-1, in `itertools.product(range(r0), range(r1), ...)`
    order."""

    type_name = "radix"
    uniform_subtrees = True
    kernels = Kernels(
        radix_unrank,
        radix_rank,
        radix_skip,
        radix_subtree,
        radix_first,
        radix_next,
        radix_candidates,
    )

    def __init__(self, radices: Sequence[int]):
        if not isinstance(radices, Sequence | np.ndarray) or isinstance(radices, str | bytes):
            raise ValueError(f"radices must be a list of integers, got {radices!r}")
        self.radices = tuple(check_int(f"radices[{i}]", r, 1) for i, r in enumerate(radices))
        super().__init__(len(self.radices), prod(self.radices), self._name())

    def _name(self) -> str:
        return f"radix {list(self.radices)}"

    def value_range(self, pos: int) -> tuple[int, int]:
        return 0, self.radices[self._check_pos(pos)] - 1

    def _contains(self, x: np.ndarray) -> bool:
        return all(0 <= v < r for v, r in zip(x.tolist(), self.radices, strict=True))

    def _rule(self) -> str:
        return "values x[i] in 0..radices[i]-1"

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        tab = np.ones((1, self.length + 1), dtype=np.int64)
        for j in range(self.length - 1, -1, -1):
            tab[0, j] = tab[0, j + 1] * self.radices[j]
        return np.array(self.radices, dtype=np.int64), tab

    def __repr__(self) -> str:
        return f"RadixSpace({list(self.radices)})"


class PowerSpace(RadixSpace):
    """p^k: k positions, each in 0..p-1 (`itertools.product(range(p), repeat=k)` order)."""

    type_name = "power"

    def __init__(self, p: int, k: int):
        self.p = check_int("p", p, 1)
        self.k = check_int("k", k, 0)
        super().__init__([self.p] * self.k)

    def _name(self) -> str:
        return f"power {self.p}^{self.k}"

    def __repr__(self) -> str:
        return f"PowerSpace({self.p}, {self.k})"
