"""Division and powers as the expression language defines them, for generated kernels:
`x / 0`, `x // 0`, `x % 0` and `0 ** -k` are 0.

A kernel's loop is compiled with numba's Python error model, which raises
ZeroDivisionError inside the loop (an internal error) where the language promises 0; these
test the divisor (or the base) first, whatever the model of the code they are inlined into.
"""

from __future__ import annotations

from epcg_spec.spaces.jit import kernel


@kernel
def div_true(a, b):
    return a / b if b != 0 else 0.0


@kernel
def div_floor(a, b):
    return a // b if b != 0 else a * 0


@kernel
def div_mod(a, b):
    return a % b if b != 0 else a * 0


@kernel
def power(a, b):
    return a**b if b >= 0 or a != 0 else a * 0
