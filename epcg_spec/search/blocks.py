"""A pass's blocks run side by side on numba's thread count of threads, calling `nogil`
kernels on runs of consecutive blocks until none is left.

The block loops were numba `prange` loops (`parallel=True`); numba's parfors lowering
compiled each of those few-line loops for 1-2 s of CPU, a cold build's largest cost after
the walk itself (docs/benchmarks.md, "Cold compile"). The thread count is numba's
(`numba.set_num_threads`, which --threads sets); the outcome never depends on it, since
each block writes only its own slots.

Two ways to hand runs out:

- `each_run(run, count)`: Python threads take the next run from an iterator (under the
  GIL) and call run(lo, hi); for loops whose blocks are long (milliseconds).
- `each_claimed(work, count)`: every thread calls work(following, size) once, and the
  kernel claims its runs itself with `claim` (an atomic add), never taking the GIL; for
  short blocks, where the GIL's hand-over from thread to thread would serialise the
  threads on a machine of many cores.

The threads are kept between calls (a pass of many chunks would otherwise start them
anew for each chunk); the calling thread is one of them. A thread's own scratch arrays
come from `own_lines`, so that no two threads write to one cache line.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

from ..compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ..core.errors import UsageError

RUNS_PER_THREAD = 64  # runs handed out per thread by each_run: unequal blocks still balance
CLAIMS_PER_THREAD = 256  # likewise for each_claimed, where a run costs one atomic add
SORT_PART = 1 << 16  # the fewest values one thread sorts in sorted_side_by_side
CACHE_LINE = 64  # bytes

_pool: ThreadPoolExecutor | None = None  # the helper threads, kept between calls
_pool_size = 0


def threads_for(threads: int | None) -> int:
    """The threads a run asking for `threads` (--threads; None: all numba has) gets: more
    than numba has (NUMBA_NUM_THREADS, which set_num_threads cannot pass) are refused."""
    most = numba.config.NUMBA_NUM_THREADS
    if threads is not None and threads > most:
        raise UsageError(f"--threads {threads}: {_at_most(most)}")
    return threads or most


def _at_most(most: int) -> str:
    """What numba's limit of `most` threads is, and how to run more."""
    if "NUMBA_NUM_THREADS" in os.environ:
        return f"numba runs at most {most} threads here (NUMBA_NUM_THREADS); give {most} or fewer"
    return (
        f"numba runs at most {most} threads here, one a core; give {most} or fewer (or set "
        "NUMBA_NUM_THREADS to run more threads than cores)"
    )


def use_threads(threads: int | None) -> None:
    """Run the block loops on `threads` threads (--threads), or on all of numba's when none
    is asked: a run never inherits the count an earlier run in the process chose."""
    numba.set_num_threads(threads_for(threads))


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

    side_by_side(worker, threads)


def each_claimed(work: Callable[[np.ndarray, int], None], count: int) -> None:
    """Call work(following, size) on each thread at once, where the kernel covers blocks
    0..count - 1 by claiming runs of `size` blocks with claim(following, size) until the
    claimed start reaches `count` (with no block, one call: the kernel is compiled)."""
    threads = max(1, min(numba.get_num_threads(), count))
    size = max(1, count // (threads * CLAIMS_PER_THREAD))
    following = np.zeros(1, np.int64)
    side_by_side(lambda: work(following, size), threads)


def own_lines(*shapes: tuple[int | tuple[int, ...], Any]) -> tuple[np.ndarray, ...]:
    """Zeroed arrays of these (shape, dtype)s, each on cache lines that hold nothing else.

    A thread's small scratch arrays, made by numpy one after the other, would otherwise
    share cache lines with other threads' (numpy hands blocks freed by one thread to the
    next that asks): each write of one thread would then stall the others."""
    sizes = [int(np.prod(shape)) * np.dtype(dtype).itemsize for shape, dtype in shapes]
    spans = [-(-size // CACHE_LINE) * CACHE_LINE for size in sizes]
    buffer = np.zeros(sum(spans) + CACHE_LINE, np.uint8)
    at = -buffer.ctypes.data % CACHE_LINE
    arrays = []
    for (shape, dtype), size, span in zip(shapes, sizes, spans, strict=True):
        arrays.append(buffer[at : at + size].view(dtype).reshape(shape))
        at += span
    return tuple(arrays)


def sorted_side_by_side(values: np.ndarray) -> np.ndarray:
    """np.sort(values), on numba's thread count of threads: each takes the values of one
    range, cut at the quantiles of a sample, and sorts them (numpy lets go of the GIL)."""
    threads = min(numba.get_num_threads(), len(values) // SORT_PART)
    if threads <= 1:
        return np.sort(values)
    sample = np.sort(values[:: max(1, len(values) // (threads * 256))])
    cuts = [None, *sample[len(sample) * np.arange(1, threads) // threads], None]
    parts: list[np.ndarray] = [values[:0]] * threads
    following = itertools.count()

    def sort_part() -> None:
        p = next(following)  # under the GIL: each part once
        low, high = cuts[p], cuts[p + 1]
        inside = np.ones(len(values), bool) if low is None else values >= low
        if high is not None:
            inside &= values < high
        parts[p] = np.sort(values[inside])

    side_by_side(sort_part, threads)
    return np.concatenate(parts)


def side_by_side(task: Callable[[], None], threads: int) -> None:
    """Call task() on `threads` threads at once, this one among them; return when all
    have (an error of any is raised once all are done)."""
    if threads <= 1:
        task()
        return
    helpers = [_helpers(threads - 1).submit(task) for _ in range(threads - 1)]
    try:
        task()
    finally:
        for done in helpers:
            done.exception()  # wait for every helper before anything is raised
    for done in helpers:
        done.result()


def _helpers(threads: int) -> ThreadPoolExecutor:
    global _pool, _pool_size
    if _pool is None or _pool_size < threads:
        if _pool is not None:
            _pool.shutdown(wait=False)
        _pool, _pool_size = ThreadPoolExecutor(threads, "epcg-blocks"), threads
    return _pool


def _forget_helpers() -> None:
    """In a forked child the helper threads are gone: start new ones when asked."""
    global _pool, _pool_size
    _pool, _pool_size = None, 0


os.register_at_fork(after_in_child=_forget_helpers)


@intrinsic
def claim(typingctx, following, size):
    """In a kernel: add `size` to following[0] atomically and give the value before (the
    first block of the run this thread now owns)."""
    if not (isinstance(following, types.Array) and following.dtype == types.int64):
        return None
    if not isinstance(size, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        amount = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.atomic_rmw("add", array.data, amount, "monotonic")

    return types.int64(following, size), codegen
