"""Kernels shared by combinations and multisets: sorted sequences in lexicographic order.

A state is x[0] < x[1] < ... (strict = 1, combinations) or x[0] <= x[1] <= ... (strict = 0,
multisets) over the values 0..n-1, of length k. Shifting position i by (1 - strict) * i maps
either kind onto an increasing k-subset y of 0..N-1, N = n + (1 - strict) * (k - 1), with the
same lexicographic order, which is ranked with the combinatorial number system:
rank = C(N, k) - 1 - sum_i C(N - 1 - y[i], k - i).

Binomial table reads (T[j, a] = C(a, j), see `binomial.binomial_table`) never exceed C(N, k):
`rank` reads C(N-1-y[i], k-i) with y[i] >= i, and the search in `unrank` for position i reads
C(b, k-i) with b <= N-1-i; both are at most C(N-1-i, k-i) <= C(N-1, k) <= C(N, k).
`subtree` reads the exact count of a subtree, at most C(N, k). So a table saturated at
2**63 - 1 is exact wherever it is read, for every space with C(N, k) <= 2**63 - 1.

`SORTED_KERNELS` are both spaces' kernels (see `base.Kernels`), which read (n, k, strict)
from their parameters.
"""

from __future__ import annotations

import numpy as np

from epcg_spec.spaces.base import Kernels
from epcg_spec.spaces.bits import low_mask
from epcg_spec.spaces.jit import kernel


@kernel
def sorted_unrank(r, x, off, n, k, strict, tab):
    """Write the state of rank r into x[off:off+k]."""
    big_n = n + (1 - strict) * (k - 1)
    rest = tab[k, big_n] - 1 - r
    hi = big_n - 1
    for i in range(k):
        j = k - i
        lo = j - 1
        while lo < hi:
            mid = (lo + hi + 1) >> 1
            if tab[j, mid] <= rest:
                lo = mid
            else:
                hi = mid - 1
        rest -= tab[j, lo]
        x[off + i] = big_n - 1 - lo - (1 - strict) * i
        hi = lo - 1


@kernel
def sorted_rank(x, off, n, k, strict, tab):
    """Rank of the state in x[off:off+k]."""
    big_n = n + (1 - strict) * (k - 1)
    total = 0
    for i in range(k):
        total += tab[k - i, big_n - 1 - x[off + i] - (1 - strict) * i]
    return tab[k, big_n] - 1 - total


@kernel
def sorted_skip(x, off, depth, n, k, strict):
    """Skip the subtree of the prefix x[off:off+depth]; return the changed position or -1."""
    i = depth - 1
    while i >= 0 and x[off + i] >= n - 1 - strict * (k - 1 - i):
        i -= 1
    if i < 0:
        for p in range(k):
            x[off + p] = strict * p
        return -1
    x[off + i] += 1
    for p in range(i + 1, k):
        x[off + p] = x[off + p - 1] + strict
    return i


@kernel
def sorted_subtree(x, off, depth, n, k, strict, tab):
    """Number of states sharing the prefix x[off:off+depth]."""
    big_n = n + (1 - strict) * (k - 1)
    if depth == 0:
        return tab[k, big_n]
    last = x[off + depth - 1] + (1 - strict) * (depth - 1)
    return tab[k - depth, big_n - 1 - last]


@kernel
def sorted_first(x, off, p, n, k, strict):
    """Set x[p] to its smallest value after the prefix x[:p]."""
    x[off + p] = x[off + p - 1] + strict if p > 0 else 0
    return x[off + p] <= n - 1 - strict * (k - 1 - p)


@kernel
def sorted_next(x, off, p, n, k, strict):
    """Advance x[p] to its next value after the prefix x[:p], if any."""
    if x[off + p] >= n - 1 - strict * (k - 1 - p):
        return False
    x[off + p] += 1
    return True


@kernel
def sorted_candidates(x, off, p, n, k, strict):
    """The values x[p] can take after the prefix x[:p], as a mask (n <= 64)."""
    lo = x[off + p - 1] + strict if p > 0 else 0
    hi = n - 1 - strict * (k - 1 - p)
    if hi < lo:
        return np.uint64(0)
    return low_mask(hi + 1) & ~low_mask(lo)


@kernel
def sequence_unrank(r, x, off, prm, tab):
    sorted_unrank(r, x, off, prm[0], prm[1], prm[2], tab)


@kernel
def sequence_rank(x, off, prm, tab):
    return sorted_rank(x, off, prm[0], prm[1], prm[2], tab)


@kernel
def sequence_skip(x, off, depth, prm, tab):
    return sorted_skip(x, off, depth, prm[0], prm[1], prm[2])


@kernel
def sequence_subtree(x, off, depth, prm, tab):
    return sorted_subtree(x, off, depth, prm[0], prm[1], prm[2], tab)


@kernel
def sequence_first(x, off, p, prm, tab):
    return sorted_first(x, off, p, prm[0], prm[1], prm[2])


@kernel
def sequence_next(x, off, p, prm, tab):
    return sorted_next(x, off, p, prm[0], prm[1], prm[2])


@kernel
def sequence_candidates(x, off, p, prm, tab):
    return sorted_candidates(x, off, p, prm[0], prm[1], prm[2])


SORTED_KERNELS = Kernels(
    sequence_unrank,
    sequence_rank,
    sequence_skip,
    sequence_subtree,
    sequence_first,
    sequence_next,
    sequence_candidates,
)
