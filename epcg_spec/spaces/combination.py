"""Combination C(n, k): increasing k-subsets of 0..n-1 in lexicographic order."""

from __future__ import annotations

from math import comb

import numpy as np

from epcg_spec.spaces.base import LoneSpace, check_int, values_below
from epcg_spec.spaces.binomial import binomial_table
from epcg_spec.spaces.sorted_sequence import SORTED_KERNELS


class CombinationSpace(LoneSpace):
    """The k-subsets of 0..n-1, as increasing arrays, in `itertools.combinations` order."""

    type_name = "combination"
    kernels = SORTED_KERNELS

    def __init__(self, n: int, k: int):
        self.n = check_int("n", n, 0)
        self.k = check_int("k", k, 0)
        if self.k > self.n:
            raise ValueError(f"combination C(n, k) needs k <= n, got n={n}, k={k}")
        super().__init__(self.k, comb(self.n, self.k), f"combination C({self.n}, {self.k})")

    def value_range(self, pos: int) -> tuple[int, int]:
        pos = self._check_pos(pos)
        return pos, self.n - self.k + pos

    def rising_from(self, pos: int) -> tuple[int, int]:
        return 0, 1

    def _contains(self, x: np.ndarray) -> bool:
        return bool(np.all(np.diff(x) > 0)) and values_below(x, self.n)

    def _rule(self) -> str:
        return f"increasing values in 0..{self.n - 1}"

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        prm = np.array([self.n, self.k, 1], dtype=np.int64)  # strict
        return prm, binomial_table(self.n, self.k)

    def __repr__(self) -> str:
        return f"CombinationSpace({self.n}, {self.k})"
