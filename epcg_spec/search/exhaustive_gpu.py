"""The exhaustive scan on a CUDA GPU through numba-cuda: one more way to do a job's work.

An ExhaustiveJob whose kernels were generated for the GPU (Kernels.device == "gpu") hands
each chunk of rank blocks here: one launch of `gpu_scan` (exhaustive_gpu_loop.py) over the
chunk's contiguous ranks, then one of `gpu_gather`, which packs every thread's kept states
so that only those cross to the host. Counts add up and the kept states fold into the same
Tally as on the CPU (ties by rank), so the result does not depend on the device.

Under numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1) the arrays are host arrays: the
simulator passes arrays inside tuples through as they are, and the njit kernels then run on
them compiled for the CPU; on a GPU they are device arrays.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import UsageError

if TYPE_CHECKING:
    from .exhaustive import Kernels, Tally

RANKS_PER_THREAD = 2048  # ranks one thread scans: unranked once, then incremented
BLOCK_THREADS = 128  # threads per CUDA block
MAX_THREADS = 1 << 18  # threads per launch (about one full H100); a chunk spreads over them
MOST_RANKS = MAX_THREADS * RANKS_PER_THREAD  # the most ranks one chunk (launch) holds


def cuda() -> ModuleType:
    """numba.cuda, once a device (or the simulator) is known to be there; else exit 2."""
    try:
        from numba import cuda as found
    except ImportError:
        found = None
    if found is None or not (simulated(found) or found.implementation == "NVIDIA"):
        raise UsageError("--device gpu needs numba-cuda: pip install 'epcg-spec[gpu]'")
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
    return found.get_current_device().name.decode()


def scan(kernels: Kernels, first: int, last: int, top: int) -> Tally:
    """The Tally of ranks [first, last): counted, evaluated, the best `top` by value, rank."""
    from .exhaustive import Tally

    gpu = cuda()
    module = kernels.module
    ranks = last - first
    threads = max(1, min(MAX_THREADS, -(-ranks // RANKS_PER_THREAD)))
    per_thread = max(1, -(-ranks // threads))
    shape = (threads, top)
    host = simulated(gpu)
    outputs = (
        _array(gpu, host, threads, np.int64),
        _array(gpu, host, shape, np.float64),
        _array(gpu, host, shape, np.int64),
        _array(gpu, host, (*shape, kernels.length), np.int64),
        _array(gpu, host, threads, np.int64),
    )
    grid = -(-threads // BLOCK_THREADS)
    inputs = kernels.gpu_inputs or _inputs(kernels, gpu, host)
    kernels.gpu_inputs = inputs
    module.gpu_scan[grid, BLOCK_THREADS](
        np.int64(first), np.int64(last), np.int64(per_thread), kernels.scored, inputs, outputs
    )
    count = int(_host(outputs[0]).sum())
    kept = _host(outputs[4])
    total = int(kept.sum())
    best: list[tuple[float, int, list[int]]] = []
    if total:
        offsets = np.concatenate(([0], np.cumsum(kept)[:-1])).astype(np.int64)
        packed = (
            _array(gpu, host, total, np.float64),
            _array(gpu, host, total, np.int64),
            _array(gpu, host, (total, kernels.length), np.int64),
        )
        module.gpu_gather[grid, BLOCK_THREADS](outputs, _send(gpu, host, offsets), packed)
        values, at, states = (_host(a) for a in packed)
        best = [(float(values[i]), int(at[i]), states[i].tolist()) for i in range(total)]
        best.sort(key=lambda item: (-item[0], item[1]))
    return Tally(count, ranks, 0, best[:top])


def _inputs(kernels: Kernels, gpu: ModuleType, host: bool) -> tuple:
    """(P, S) as the kernels read them, sent to the device once per job."""
    space = tuple(_send(gpu, host, a) for a in kernels.space_args)
    return _send(gpu, host, kernels.params), space


def _array(gpu: ModuleType, host: bool, shape, dtype) -> np.ndarray:
    return np.empty(shape, dtype) if host else gpu.device_array(shape, dtype)


def _send(gpu: ModuleType, host: bool, array: np.ndarray):
    return array if host else gpu.to_device(np.ascontiguousarray(array))


def _host(array) -> np.ndarray:
    return array if isinstance(array, np.ndarray) else array.copy_to_host()
