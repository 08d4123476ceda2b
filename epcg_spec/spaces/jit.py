"""The decorator of every space kernel.

numba's on-disk cache of a function is keyed on its own file only, not on the kernels it
inlines from other files; compile/connector.py adds `source_fingerprint()` of every module a
kernel's file imports, directly or not, to that key (and to generated modules' text), so a
kernel is recompiled when any of them changes.
"""

from __future__ import annotations

from numba import njit

from ..compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)

# Inlined at numba-IR level into each caller. A call that stays a call costs atomic refcount
# operations on every array argument (numba does not prune them across calls): a combination
# increment through the generated space_skip measured 25-38 million/s as calls and 965
# million/s inlined (numba 0.68, one thread). Kernels allocate nothing, so a caller may also
# be compiled with numba's runtime off (njit(_nrt=False)), which removes the refcount
# operations that LLVM fails to prune from some loops.
kernel = njit(cache=True, inline="always")
