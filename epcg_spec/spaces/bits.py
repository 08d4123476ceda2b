"""Bit tricks on uint64 masks for numba kernels (constants are np.uint64)."""

from __future__ import annotations

import numpy as np

from epcg_spec.spaces.jit import kernel

ONE = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@kernel
def popcount(u):
    """Number of set bits of a uint64 (LLVM compiles this form to one popcnt instruction: an
    equivalent shift-and-add ending made k-permutation increments 3x slower)."""
    u = u - ((u >> ONE) & _M1)
    u = (u & _M2) + ((u >> np.uint64(2)) & _M2)
    u = (u + (u >> np.uint64(4))) & _M4
    return np.int64((u * _H01) >> np.uint64(56))


@kernel
def low_mask(n):
    """The n lowest bits set, 0 <= n <= 64."""
    return ALL if n == 64 else (ONE << np.uint64(n)) - ONE


@kernel
def mask_above(v):
    """The bits above bit v set, -1 <= v <= 63."""
    return ALL << np.uint64(v + 1) if v < 63 else np.uint64(0)


@kernel
def lowest_bit(u):
    """The lowest set bit of a nonzero uint64, as a mask."""
    return u & (~u + ONE)


@kernel
def bit_index(bit):
    """Position of the single set bit of `bit`."""
    return popcount(bit - ONE)
