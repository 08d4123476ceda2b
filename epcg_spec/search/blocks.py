"""A pass's blocks run side by side: Python threads, each calling a `nogil` kernel on runs
of consecutive blocks, handed out one run at a time until none is left.

The block loops were numba `prange` loops (`parallel=True`); numba's parfors lowering
compiled each of those few-line loops for 1-2 s of CPU, a cold build's largest cost after
the walk itself (docs/benchmarks.md, "Cold compile"). A run of blocks is one kernel call,
so the calls cost a few microseconds per run, not per block. The thread count is numba's
(`numba.set_num_threads`, which --threads sets); the outcome never depends on it, since
each block writes only its own slots.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numba

RUNS_PER_THREAD = 64  # runs handed out per thread: blocks of unequal cost still balance


def each_run(run: Callable[[int, int], None], count: int) -> None:
    """Call run(lo, hi) over runs of blocks that together cover 0..count - 1 once each
    (with no block, one empty run: the kernel is compiled all the same)."""
    threads = min(numba.get_num_threads(), count)
    if threads <= 1:
        run(0, count)
        return
    size = max(1, count // (threads * RUNS_PER_THREAD))
    runs = iter(range(0, count, size))  # next() holds the GIL: each run is handed out once

    def worker() -> None:
        for lo in runs:
            run(lo, min(lo + size, count))

    with ThreadPoolExecutor(threads) as pool:
        for done in [pool.submit(worker) for _ in range(threads)]:
            done.result()
