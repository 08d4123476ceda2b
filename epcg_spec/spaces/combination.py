"""Combination C(n, k): increasing k-subsets of 0..n-1 in lexicographic order."""

from __future__ import annotations

from math import comb

import numpy as np

from epcg_spec.spaces.base import Kernels, LoneSpace, check_int, values_below
from epcg_spec.spaces.binomial import binomial_table
from epcg_spec.spaces.jit import kernel
from epcg_spec.spaces.sorted_sequence import (
    sorted_candidates,
    sorted_first,
    sorted_next,
    sorted_rank,
    sorted_skip,
    sorted_subtree,
    sorted_unrank,
)


@kernel
def combination_unrank(r, x, off, prm, tab):
    sorted_unrank(r, x, off, prm[0], prm[1], 1, tab)


@kernel
def combination_rank(x, off, prm, tab):
    return sorted_rank(x, off, prm[0], prm[1], 1, tab)


@kernel
def combination_skip(x, off, depth, prm, tab):
    return sorted_skip(x, off, depth, prm[0], prm[1], 1)


@kernel
def combination_subtree(x, off, depth, prm, tab):
    return sorted_subtree(x, off, depth, prm[0], prm[1], 1, tab)


@kernel
def combination_first(x, off, p, prm, tab):
    return sorted_first(x, off, p, prm[0], prm[1], 1)


@kernel
def combination_next(x, off, p, prm, tab):
    return sorted_next(x, off, p, prm[0], prm[1], 1)


@kernel
def combination_candidates(x, off, p, prm, tab):
    return sorted_candidates(x, off, p, prm[0], prm[1], 1)


class CombinationSpace(LoneSpace):
    """The k-subsets of 0..n-1, as increasing arrays, in `itertools.combinations` order."""

    type_name = "combination"
    kernels = Kernels(
        combination_unrank,
        combination_rank,
        combination_skip,
        combination_subtree,
        combination_first,
        combination_next,
        combination_candidates,
    )

    def __init__(self, n: int, k: int):
        self.n = check_int("n", n, 0)
        self.k = check_int("k", k, 0)
        if self.k > self.n:
            raise ValueError(f"combination C(n, k) needs k <= n, got n={n}, k={k}")
        super().__init__(self.k, comb(self.n, self.k), f"combination C({self.n}, {self.k})")

    def value_range(self, pos: int) -> tuple[int, int]:
        pos = self._check_pos(pos)
        return pos, self.n - self.k + pos

    def _contains(self, x: np.ndarray) -> bool:
        return bool(np.all(np.diff(x) > 0)) and values_below(x, self.n)

    def _rule(self) -> str:
        return f"increasing values in 0..{self.n - 1}"

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        return np.array([self.n, self.k], dtype=np.int64), binomial_table(self.n, self.k)

    def __repr__(self) -> str:
        return f"CombinationSpace({self.n}, {self.k})"
