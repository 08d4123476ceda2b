"""The CUDA device through numba-cuda, for the back ends that run on a GPU (--device gpu).

A back end's GPU kernels take their arrays inside tuples: numba's CUDA simulator
(NUMBA_ENABLE_CUDASIM=1) passes those through as they are, so under it the arrays here are
host arrays and the njit kernels the GPU kernels call run on them compiled for the CPU; on a
GPU they are device arrays.
"""

from __future__ import annotations

from types import ModuleType

import numba
import numpy as np

from ..compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ..core.errors import UsageError


def cuda() -> ModuleType:
    """numba.cuda, once a device (or the simulator) is known to be there; else exit 2."""
    try:
        from numba import cuda as found
    except ImportError:
        found = None
    if found is None or not (simulated(found) or found.implementation == "NVIDIA"):
        raise UsageError("--device gpu needs numba-cuda: pip install 'epcg-spec[gpu]'")
    # a run's first chunks are small on purpose (the driver grows them from one block of
    # ranks), which numba-cuda would warn of at each launch
    numba.config.CUDA_LOW_OCCUPANCY_WARNINGS = 0
    if not found.is_available():
        raise UsageError(
            "--device gpu: numba-cuda finds no CUDA device here; run where an NVIDIA GPU and "
            "its driver are (or set NUMBA_ENABLE_CUDASIM=1 for numba's slow simulator)"
        )
    return found


def simulated(found: ModuleType) -> bool:
    """Whether numba.cuda is numba's simulator (NUMBA_ENABLE_CUDASIM=1)."""
    return found.jit.__module__.startswith("numba.cuda.simulator.")


def describe() -> str:
    """The device a GPU run uses, in words."""
    found = cuda()
    if simulated(found):
        return "numba's CUDA simulator"
    name = found.get_current_device().name  # bytes before numba-cuda 0.2x, str since
    return name.decode() if isinstance(name, bytes) else name


def empty(shape, dtype) -> np.ndarray:
    """An uninitialised array on the device."""
    found = cuda()
    return np.empty(shape, dtype) if simulated(found) else found.device_array(shape, dtype)


def send(array: np.ndarray):
    """`array` on the device."""
    found = cuda()
    return array if simulated(found) else found.to_device(np.ascontiguousarray(array))


def fetch(array) -> np.ndarray:
    """A device array's content on the host."""
    return array if isinstance(array, np.ndarray) else array.copy_to_host()


def zero(array) -> None:
    """Set a device array's elements to 0."""
    if isinstance(array, np.ndarray):
        array[...] = 0
    else:
        array.copy_to_device(np.zeros(array.shape, array.dtype))
