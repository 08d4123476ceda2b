"""Multiset: nondecreasing k-sequences over 0..n-1 (combinations with repetition)."""

from __future__ import annotations

from math import comb

import numpy as np

from epcg_spec.spaces.base import LoneSpace, check_int, values_below
from epcg_spec.spaces.binomial import binomial_table
from epcg_spec.spaces.sorted_sequence import SORTED_KERNELS


class MultisetSpace(LoneSpace):
    """k values from 0..n-1 with repetition, as nondecreasing arrays, in
    `itertools.combinations_with_replacement` order."""

    type_name = "multiset"
    kernels = SORTED_KERNELS

    def __init__(self, n: int, k: int):
        self.n = check_int("n", n, 1)
        self.k = check_int("k", k, 0)
        size = comb(self.n + self.k - 1, self.k)
        super().__init__(self.k, size, f"multiset M({self.n}, {self.k})")

    def value_range(self, pos: int) -> tuple[int, int]:
        self._check_pos(pos)
        return 0, self.n - 1

    def rising_from(self, pos: int) -> tuple[int, int]:
        return 0, 0

    def _contains(self, x: np.ndarray) -> bool:
        return bool(np.all(np.diff(x) >= 0)) and values_below(x, self.n)

    def _rule(self) -> str:
        return f"nondecreasing values in 0..{self.n - 1}"

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        prm = np.array([self.n, self.k, 0], dtype=np.int64)  # not strict
        return prm, binomial_table(self.n + self.k - 1, self.k)

    def __repr__(self) -> str:
        return f"MultisetSpace({self.n}, {self.k})"
