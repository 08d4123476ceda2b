"""The exhaustive back end on a CUDA GPU through numba-cuda: one more way to do a job's work.

An ExhaustiveJob whose kernels were generated for the GPU (Kernels.device == "gpu") hands
each chunk of rank blocks here: one launch of `gpu_scan` or, with pruning, `gpu_walk`
(exhaustive_gpu_loop.py) over the chunk's contiguous ranks, cut into slices that the
threads take from a queue, then one of `gpu_gather`, which packs every thread's kept
states so that only those cross to the host. The counts add up and the kept states fold
into the same Tally as on the CPU (ties by rank), so the result does not depend on the
device.

The device itself (and the simulator, which the tests run it under) is gpu.py's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .gpu import empty, fetch, send, zero

if TYPE_CHECKING:
    from .exhaustive import Kernels, Tally

RANKS_PER_SLICE = 2048  # the fewest ranks in a slice: unranked once, then incremented
SLICES_PER_THREAD = 16  # a pruned walk's slices per thread, for the queue to balance
WALK_RANKS_PER_THREAD = 1 << 24  # the most ranks of a pruned walk a thread takes per launch
BLOCK_THREADS = 128  # threads per CUDA block
MAX_THREADS = 1 << 18  # threads per launch (an H100 holds 132 x 2,048 at once)


def most_ranks(prune: bool) -> int:
    """The most ranks one chunk (one launch) holds."""
    return MAX_THREADS * (WALK_RANKS_PER_THREAD if prune else RANKS_PER_SLICE)


def scan(kernels: Kernels, first: int, last: int, prune: bool, top: int) -> Tally:
    """The Tally of ranks [first, last): found, evaluated, pruned, the best `top`."""
    from .exhaustive import Tally

    ranks = last - first
    slices = max(1, min(-(-ranks // RANKS_PER_SLICE), MAX_THREADS * SLICES_PER_THREAD))
    threads = min(slices, MAX_THREADS)
    per_slice = max(1, -(-ranks // slices))
    outputs = _outputs(kernels, threads, top)
    grid = -(-threads // BLOCK_THREADS)
    launch = kernels.module.gpu_walk if prune else kernels.module.gpu_scan
    args = (np.int64(first), np.int64(last), np.int64(per_slice), kernels.scored)
    launch[grid, BLOCK_THREADS](*args, _inputs(kernels), outputs)
    tallies = fetch(outputs[0]).sum(axis=0)
    kept = fetch(outputs[4])
    total = int(kept.sum())
    offsets = np.concatenate(([0], np.cumsum(kept)[:-1])).astype(np.int64)
    room = max(total, 1)
    packed = (
        empty(room, np.float64),
        empty(room, np.int64),
        empty((room, kernels.length), np.int64),
    )
    kernels.module.gpu_gather[grid, BLOCK_THREADS](outputs, send(offsets), packed)
    values, at, states = (fetch(a) for a in packed)
    best = [(float(values[i]), int(at[i]), states[i].tolist()) for i in range(total)]
    best.sort(key=lambda item: (-item[0], item[1]))
    return Tally(int(tallies[0]), int(tallies[1]), int(tallies[2]), best[:top])


def _inputs(kernels: Kernels) -> tuple:
    """(P, S, T) as the kernels read them, sent to the device once per set of kernels."""
    if kernels.gpu_inputs is None:
        space = tuple(send(a) for a in kernels.space_args)
        tables = tuple(send(a) for a in kernels.tables)
        kernels.gpu_inputs = (send(kernels.params), space, tables)
    return kernels.gpu_inputs


def _outputs(kernels: Kernels, threads: int, top: int) -> tuple:
    """Each thread's slot: tallies (found, evaluated, pruned), its top list (values, ranks,
    states) and how many it kept, allocated once for the most threads asked so far; then
    the queue: the next slice to take, set to 0."""
    held = kernels.gpu_outputs
    if held is None or held[0].shape[0] < threads or held[1].shape[1] != top:
        most = max(threads, held[0].shape[0] if held is not None else 0)
        held = (
            empty((most, 3), np.int64),
            empty((most, top), np.float64),
            empty((most, top), np.int64),
            empty((most, top, kernels.length), np.int64),
            empty(most, np.int64),
            empty(1, np.int64),
        )
        kernels.gpu_outputs = held
    zero(held[5])
    return (*(a[:threads] for a in held[:5]), held[5])
