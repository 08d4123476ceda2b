"""Multiset: nondecreasing k-sequences over 0..n-1 (combinations with repetition)."""

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
def multiset_unrank(r, x, off, prm, tab):
    sorted_unrank(r, x, off, prm[0], prm[1], 0, tab)


@kernel
def multiset_rank(x, off, prm, tab):
    return sorted_rank(x, off, prm[0], prm[1], 0, tab)


@kernel
def multiset_skip(x, off, depth, prm, tab):
    return sorted_skip(x, off, depth, prm[0], prm[1], 0)


@kernel
def multiset_subtree(x, off, depth, prm, tab):
    return sorted_subtree(x, off, depth, prm[0], prm[1], 0, tab)


@kernel
def multiset_first(x, off, p, prm, tab):
    return sorted_first(x, off, p, prm[0], prm[1], 0)


@kernel
def multiset_next(x, off, p, prm, tab):
    return sorted_next(x, off, p, prm[0], prm[1], 0)


@kernel
def multiset_candidates(x, off, p, prm, tab):
    return sorted_candidates(x, off, p, prm[0], prm[1], 0)


class MultisetSpace(LoneSpace):
    """k values from 0..n-1 with repetition, as nondecreasing arrays, in
    `itertools.combinations_with_replacement` order."""

    type_name = "multiset"
    kernels = Kernels(
        multiset_unrank,
        multiset_rank,
        multiset_skip,
        multiset_subtree,
        multiset_first,
        multiset_next,
        multiset_candidates,
    )

    def __init__(self, n: int, k: int):
        self.n = check_int("n", n, 1)
        self.k = check_int("k", k, 0)
        size = comb(self.n + self.k - 1, self.k)
        super().__init__(self.k, size, f"multiset M({self.n}, {self.k})")

    def value_range(self, pos: int) -> tuple[int, int]:
        self._check_pos(pos)
        return 0, self.n - 1

    def _contains(self, x: np.ndarray) -> bool:
        return bool(np.all(np.diff(x) >= 0)) and values_below(x, self.n)

    def _rule(self) -> str:
        return f"nondecreasing values in 0..{self.n - 1}"

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        prm = np.array([self.n, self.k], dtype=np.int64)
        return prm, binomial_table(self.n + self.k - 1, self.k)

    def __repr__(self) -> str:
        return f"MultisetSpace({self.n}, {self.k})"
