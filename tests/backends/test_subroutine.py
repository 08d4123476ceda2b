"""search/subroutine.py: kernels compiled only for the kernels that call them."""

from __future__ import annotations

import numpy as np
from numba import njit, types

from epcg_spec.search.subroutine import subroutine


@subroutine(types.int64)
def _count_set(row):
    total = 0
    for x in row:
        total += x != 0
    return total


def _widest(a, b):
    return max(a.shape[0], b.shape[0])


def _narrowest(a, b):
    return min(a.shape[0], b.shape[0])


@subroutine(
    types.int64,
    inline=True,
    pick=lambda a, b: _widest if isinstance(a.dtype, types.Float) else _narrowest,
)
def _by_dtype(a, b):
    return _widest(a, b) if a.dtype.kind == "f" else _narrowest(a, b)


@njit
def _caller(row, a, b):
    return _count_set(row), _by_dtype(a, b)


def test_a_subroutine_returns_what_its_body_computes():
    row = np.array([0, 3, 0, 5, 7], dtype=np.int32)
    assert _caller(row, np.zeros(3), np.zeros(5))[0] == 3
    assert _caller(np.zeros(4, dtype=np.int64), np.zeros(3), np.zeros(5))[0] == 0


def test_pick_compiles_the_function_the_argument_types_name():
    row = np.zeros(1, dtype=np.int32)
    assert _caller(row, np.zeros(3), np.zeros(5))[1] == 5  # float64: the widest
    assert _caller(row, np.zeros(3, dtype=np.int64), np.zeros(5, dtype=np.int64))[1] == 3
