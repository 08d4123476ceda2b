"""Permutations of 0..n-1: lexicographic order, or the Myrvold-Ruskey linear-time order."""

from __future__ import annotations

from math import factorial

import numpy as np

from epcg_spec.spaces.base import Kernels, LoneSpace, check_int
from epcg_spec.spaces.jit import kernel
from epcg_spec.spaces.kpermutation import (
    distinct_values_below,
    falling_table,
    kpermutation_candidates,
    kpermutation_first,
    kpermutation_next,
    kpermutation_rank,
    kpermutation_subtree,
    kpermutation_unrank,
    skip_dense,
)

# Lexicographic order: the k-permutation kernels with prm = [n, n]; skip takes the classic
# next-permutation step at full depth and the bit-mask path otherwise (n <= 20 in any space
# that fits in int64 ranks).


@kernel
def permutation_unrank(r, x, off, prm, tab):
    kpermutation_unrank(r, x, off, prm, tab)


@kernel
def permutation_rank(x, off, prm, tab):
    return kpermutation_rank(x, off, prm, tab)


@kernel
def permutation_skip(x, off, depth, prm, tab):
    n = prm[0]
    if depth == n and n > 0:
        return _next_permutation(x, off, n)
    return skip_dense(x, off, depth, n, n)


@kernel
def _next_permutation(x, off, n):
    """Successor in lexicographic order, amortised O(1): the suffix after the changed position
    is descending, so reversing it makes it ascending."""
    i = n - 2
    while i >= 0 and x[off + i] > x[off + i + 1]:
        i -= 1
    if i >= 0:
        j = n - 1
        while x[off + j] < x[off + i]:
            j -= 1
        x[off + i], x[off + j] = x[off + j], x[off + i]
    lo = i + 1
    hi = n - 1
    while lo < hi:
        x[off + lo], x[off + hi] = x[off + hi], x[off + lo]
        lo += 1
        hi -= 1
    return i


@kernel
def permutation_subtree(x, off, depth, prm, tab):
    return kpermutation_subtree(x, off, depth, prm, tab)


@kernel
def permutation_first(x, off, p, prm, tab):
    return kpermutation_first(x, off, p, prm, tab)


@kernel
def permutation_next(x, off, p, prm, tab):
    return kpermutation_next(x, off, p, prm, tab)


@kernel
def permutation_candidates(x, off, p, prm, tab):
    return kpermutation_candidates(x, off, p, prm, tab)


# Myrvold & Ruskey (2001), unrank1 / rank1. Not prefix-ordered: skip supports depth 0 (go to
# rank 0, return -1) and depth n (successor, return 0, or -1 after the last state), subtree
# is meaningful for depth 0 and n only, and first / next (a prefix-tree walk) return False.


@kernel
def myrvold_ruskey_unrank(r, x, off, prm, tab):
    n = prm[0]
    for p in range(n):
        x[off + p] = p
    for m in range(n, 0, -1):
        j = off + r % m
        x[off + m - 1], x[j] = x[j], x[off + m - 1]
        r //= m


@kernel
def myrvold_ruskey_rank(x, off, prm, tab):
    """rank1, run on x itself (it leaves the identity) and undone by unrank1: no allocation,
    so the kernels can run where numba's runtime is off. Finding the value m - 1 by a scan
    makes it O(n^2), with n <= 20 in any space that fits."""
    n = prm[0]
    r = 0
    weight = 1
    for m in range(n, 1, -1):
        j = off
        while x[j] != m - 1:
            j += 1
        s = x[off + m - 1]
        x[off + m - 1], x[j] = m - 1, s
        r += s * weight
        weight *= m
    myrvold_ruskey_unrank(r, x, off, prm, tab)
    return r


@kernel
def myrvold_ruskey_skip(x, off, depth, prm, tab):
    r = 0 if depth == 0 else myrvold_ruskey_rank(x, off, prm, tab) + 1
    if r == 0 or r == tab[0, 0]:
        myrvold_ruskey_unrank(0, x, off, prm, tab)
        return -1
    myrvold_ruskey_unrank(r, x, off, prm, tab)
    return 0


@kernel
def myrvold_ruskey_subtree(x, off, depth, prm, tab):
    return tab[0, depth]


@kernel
def myrvold_ruskey_no_walk(x, off, p, prm, tab):
    return False


@kernel
def myrvold_ruskey_no_candidates(x, off, p, prm, tab):
    return np.uint64(0)


ORDERS = {
    "lex": Kernels(
        permutation_unrank,
        permutation_rank,
        permutation_skip,
        permutation_subtree,
        permutation_first,
        permutation_next,
        permutation_candidates,
    ),
    "myrvold-ruskey": Kernels(
        myrvold_ruskey_unrank,
        myrvold_ruskey_rank,
        myrvold_ruskey_skip,
        myrvold_ruskey_subtree,
        myrvold_ruskey_no_walk,
        myrvold_ruskey_no_walk,
        myrvold_ruskey_no_candidates,
    ),
}


class PermutationSpace(LoneSpace):
    """The permutations of 0..n-1, in `itertools.permutations` order ("lex") or in the
    Myrvold-Ruskey order ("myrvold-ruskey": O(n) unrank, not prefix-ordered)."""

    type_name = "permutation"
    uniform_subtrees = True

    def __init__(self, n: int, order: str = "lex"):
        self.n = check_int("n", n, 0)
        if order not in ORDERS:
            raise ValueError(f"unknown permutation order {order!r}; valid: {', '.join(ORDERS)}")
        self.order = order
        self.kernels = ORDERS[order]
        self.prefix_ordered = order == "lex"
        suffix = "" if self.prefix_ordered else f" ({order} order)"
        super().__init__(self.n, factorial(self.n), f"permutation {self.n}!{suffix}")

    def value_range(self, pos: int) -> tuple[int, int]:
        self._check_pos(pos)
        return 0, self.n - 1

    def _contains(self, x: np.ndarray) -> bool:
        return distinct_values_below(x, self.n)

    def _rule(self) -> str:
        return f"each of 0..{self.n - 1} once"

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        return np.array([self.n, self.n], dtype=np.int64), falling_table(self.n, self.n)

    def __repr__(self) -> str:
        return f"PermutationSpace({self.n}, order={self.order!r})"
