"""The decorator of every space kernel.

numba's on-disk cache of a function is keyed on its own file only: after editing a kernel
that other files inline (sorted_sequence, bits, kpermutation), delete the cached *.nbi / *.nbc
files. Generated modules carry `codegen.kernels_digest()` in their source for this reason.
"""

from __future__ import annotations

from numba import njit

# Inlined at numba-IR level into each caller. A call that stays a call costs atomic refcount
# operations on every array argument (numba does not prune them across calls): a combination
# increment through the generated space_skip measured 25-38 million/s as calls and 965
# million/s inlined (numba 0.68, one thread). Kernels allocate nothing, so a caller may also
# be compiled with numba's runtime off (njit(_nrt=False)), which removes the refcount
# operations that LLVM fails to prune from some loops.
kernel = njit(cache=True, inline="always")
