"""The expert's memo: a hash table on plain arrays, keyed by pairs of uint64, for kernels.

numba's typed dict compiles its dict and hashing implementations once per key and value
type, and every kernel that uses one types them again: about 1.5 s of a cold build's
compile for the expert's two dicts. This table is three arrays: `keys` (uint64 pairs, one
row a slot), `full` (whether a slot holds a key) and `values` (float64 columns the caller
names), with open addressing and linear probing, doubled when half full. The caller keeps
the count of keys; a key is found by its slot (`memo_find`, -1 when absent) and added by
`memo_add`, which returns the arrays (new ones when it grew) and the key's slot.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)

START = np.int64(1024)  # slots of a new table (a power of two)
_MIX_A = np.uint64(0x9E3779B97F4A7C15)
_MIX_B = np.uint64(0xC2B2AE3D27D4EB4F)
_MIX_C = np.uint64(0xFF51AFD7ED558CCD)


@njit(cache=True)
def memo_new(size, columns):
    """An empty table of `size` slots (a power of two): (keys, full, values), with
    `columns` values a key. Pass both as int64 (a literal compiles a copy of its own)."""
    keys = np.zeros((size, 2), np.uint64)
    return keys, np.zeros(size, np.bool_), np.zeros((size, columns), np.float64)


@njit(cache=True)
def _slot(keys, full, a, b):
    """The slot holding (a, b), or the empty slot where it would go."""
    mask = np.uint64(keys.shape[0] - 1)
    h = (a * _MIX_A) ^ (b * _MIX_B)
    h = (h ^ (h >> np.uint64(32))) * _MIX_C
    at = (h ^ (h >> np.uint64(29))) & mask
    while full[at] and (keys[at, 0] != a or keys[at, 1] != b):
        at = (at + np.uint64(1)) & mask
    return np.int64(at)


@njit(cache=True)
def memo_find(keys, full, a, b):
    """The slot of key (a, b), or -1 when the table does not hold it."""
    at = _slot(keys, full, a, b)
    return at if full[at] else -1


@njit(cache=True)
def memo_add(keys, full, values, count, a, b):
    """Add key (a, b), absent, to a table holding `count` keys (an int64, not a literal):
    (keys, full, values, slot), the arrays doubled when it would be more than half full."""
    if 2 * (count + 1) > keys.shape[0]:
        old_keys, old_full, old_values = keys, full, values
        keys, full, values = memo_new(2 * old_keys.shape[0], old_values.shape[1])
        for i in range(old_keys.shape[0]):
            if old_full[i]:
                at = _slot(keys, full, old_keys[i, 0], old_keys[i, 1])
                full[at] = True
                keys[at, 0] = old_keys[i, 0]
                keys[at, 1] = old_keys[i, 1]
                for j in range(values.shape[1]):
                    values[at, j] = old_values[i, j]
    at = _slot(keys, full, a, b)
    full[at] = True
    keys[at, 0] = a
    keys[at, 1] = b
    return keys, full, values, at
