"""search/subroutine.py: kernels compiled only for the kernels that call them."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core.registry import cpu_target

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


@subroutine(types.int64)
def _sum_rows(rows, k):
    total = 0
    for i in range(k):
        row = rows[i % 2]
        either = row if i % 3 else rows[0]
        for j in range(either.shape[0]):
            total += either[j]
    return total


@njit
def _counting(rows, k):
    return _sum_rows(rows, k)


@njit(_nrt=False)
def _plain(rows, k):
    return _sum_rows(rows, k)


def test_a_subroutine_counts_no_references_whichever_kernel_reaches_it_first():
    """numba keeps one body per argument types for the process: reached first from a kernel
    with its runtime on, it had reference counts, which the hot kernels reaching it later
    (runtime off) then ran: Sudoku's proofs 10x slower after a `place` compiled first."""
    rows = (np.arange(5), np.arange(3))
    assert _counting(rows, 4) == 33  # compiled first, runtime on
    assert _plain(rows, 4) == 33
    code = _plain.inspect_llvm(_plain.signatures[0])
    assert "@NRT_incref" not in code and "@NRT_decref" not in code


@subroutine(types.int64)
def _halved(x):
    return x // 2


@njit
def _quartered(x):
    return _halved(_halved(x))


def test_a_subroutine_is_only_linked_into_its_callers(monkeypatch):
    """numba makes machine code of every library it links; a subroutine's code only ever runs
    inside its callers, so its module never reaches the execution engine on its own."""
    codegen = type(cpu_target.target_context.codegen())
    added = []
    engine_add = codegen._add_module

    def add_module(self, module):
        added.append(module.name)
        return engine_add(self, module)

    monkeypatch.setattr(codegen, "_add_module", add_module)
    assert _quartered(37) == 9
    assert "_quartered" in added and "_halved" not in added
