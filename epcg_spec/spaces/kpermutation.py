"""k-permutation P(n, k): k distinct values of 0..n-1 in lexicographic order."""

from __future__ import annotations

from math import perm

import numpy as np

from epcg_spec.spaces.base import Kernels, LoneSpace, check_int, values_below
from epcg_spec.spaces.bits import ONE, bit_index, low_mask, lowest_bit, mask_above
from epcg_spec.spaces.jit import kernel


@kernel
def kpermutation_unrank(r, x, off, prm, tab):
    k = prm[1]
    for i in range(k):
        weight = tab[0, i + 1]
        digit = r // weight
        x[off + i] = digit
        r -= digit * weight
    # Digit i counts the unused values below x[i]; turn digits into values from the right.
    for i in range(k - 2, -1, -1):
        v = x[off + i]
        for j in range(i + 1, k):
            if x[off + j] >= v:
                x[off + j] += 1


@kernel
def kpermutation_rank(x, off, prm, tab):
    k = prm[1]
    r = 0
    for i in range(k):
        v = x[off + i]
        digit = v
        for j in range(i):
            if x[off + j] < v:
                digit -= 1
        r += digit * tab[0, i + 1]
    return r


@kernel
def kpermutation_skip(x, off, depth, prm, tab):
    if prm[0] <= 64:
        return skip_dense(x, off, depth, prm[0], prm[1])
    return _skip_sparse(x, off, depth, prm[0], prm[1])


@kernel
def kpermutation_subtree(x, off, depth, prm, tab):
    return tab[0, depth]


@kernel
def kpermutation_first(x, off, p, prm, tab):
    return _place(x, off, p, prm[0], -1)


@kernel
def kpermutation_next(x, off, p, prm, tab):
    return _place(x, off, p, prm[0], x[off + p])


@kernel
def kpermutation_candidates(x, off, p, prm, tab):
    used = np.uint64(0)
    for q in range(p):
        used |= ONE << np.uint64(x[off + q])
    return low_mask(prm[0]) & ~used


@kernel
def _place(x, off, p, n, after):
    """Set x[p] to the smallest value above `after` that x[:p] does not use, if any."""
    if n <= 64:
        used = np.uint64(0)
        for q in range(p):
            used |= ONE << np.uint64(x[off + q])
        candidates = low_mask(n) & mask_above(after) & ~used
        if candidates == 0:
            return False
        x[off + p] = bit_index(lowest_bit(candidates))
        return True
    v = after + 1
    while v < n and _used(x, off, p, v):
        v += 1
    if v == n:
        return False
    x[off + p] = v
    return True


@kernel
def _first(x, off, k):
    for p in range(k):
        x[off + p] = p


@kernel
def skip_dense(x, off, depth, n, k):
    """skip for n <= 64: the used values are a uint64 mask, O(depth + k - i) per call."""
    full = low_mask(n)
    used = np.uint64(0)
    for p in range(depth - 1):
        used |= ONE << np.uint64(x[off + p])
    candidates = np.uint64(0)
    i = depth - 1
    while i >= 0:
        candidates = full & mask_above(x[off + i]) & ~used
        if candidates != 0:
            break
        i -= 1
        if i >= 0:
            used ^= ONE << np.uint64(x[off + i])
    if i < 0:
        _first(x, off, k)
        return -1
    bit = lowest_bit(candidates)
    x[off + i] = bit_index(bit)
    free = full & ~(used | bit)
    for j in range(i + 1, k):
        bit = lowest_bit(free)
        x[off + j] = bit_index(bit)
        free ^= bit
    return i


@kernel
def _skip_sparse(x, off, depth, n, k):
    """skip for n > 64, where k <= 20 < n / 3 (P(n, k) fits in int64): linear scans of the
    prefix are short and rarely repeated."""
    i = depth - 1
    while i >= 0:
        v = x[off + i] + 1
        while v < n and _used(x, off, i, v):
            v += 1
        if v < n:
            break
        i -= 1
    if i < 0:
        _first(x, off, k)
        return -1
    x[off + i] = v
    v = 0
    for j in range(i + 1, k):
        while _used(x, off, i + 1, v):
            v += 1
        x[off + j] = v
        v += 1
    return i


@kernel
def _used(x, off, count, v):
    """Whether v is among x[off:off+count]."""
    p = 0
    while p < count and x[off + p] != v:
        p += 1
    return p < count


def falling_table(n: int, k: int) -> np.ndarray:
    """Shape (1, k + 1): entry j = P(n - j, k - j), the completions of a j-prefix."""
    tab = np.ones((1, k + 1), dtype=np.int64)
    for j in range(k - 1, -1, -1):
        tab[0, j] = tab[0, j + 1] * (n - j)
    return tab


def distinct_values_below(x: np.ndarray, n: int) -> bool:
    """Whether x holds distinct values of 0..n-1."""
    return values_below(x, n) and np.unique(x).size == x.size


class KPermutationSpace(LoneSpace):
    """Arrangements of k distinct values of 0..n-1, in `itertools.permutations(range(n), k)`
    order."""

    type_name = "k-permutation"
    uniform_subtrees = True
    kernels = Kernels(
        kpermutation_unrank,
        kpermutation_rank,
        kpermutation_skip,
        kpermutation_subtree,
        kpermutation_first,
        kpermutation_next,
        kpermutation_candidates,
    )

    def __init__(self, n: int, k: int):
        self.n = check_int("n", n, 0)
        self.k = check_int("k", k, 0)
        if self.k > self.n:
            raise ValueError(f"k-permutation P(n, k) needs k <= n, got n={n}, k={k}")
        super().__init__(self.k, perm(self.n, self.k), f"k-permutation P({self.n}, {self.k})")

    def value_range(self, pos: int) -> tuple[int, int]:
        self._check_pos(pos)
        return 0, self.n - 1

    def _contains(self, x: np.ndarray) -> bool:
        return distinct_values_below(x, self.n)

    def _rule(self) -> str:
        return f"distinct values in 0..{self.n - 1}"

    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        return np.array([self.n, self.k], dtype=np.int64), falling_table(self.n, self.k)

    def __repr__(self) -> str:
        return f"KPermutationSpace({self.n}, {self.k})"
