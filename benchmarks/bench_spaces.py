"""States per second of combination increment and unrank, C(56, k) for k = 5..8, against
itertools.combinations consumed without a Python loop, in the same run.

Run: python benchmarks/bench_spaces.py [--smoke]

`--smoke`: the smallest setting, to check that it runs (no figures worth quoting).
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from epcg_spec.spaces import CombinationSpace
from epcg_spec.spaces.sorted_sequence import sequence_skip, sequence_unrank

SMOKE = "--smoke" in sys.argv[1:]
N = 56
KS = (5,) if SMOKE else (5, 6, 7, 8)
MAX_STATES = 100_000 if SMOKE else 200_000_000  # states per timing, from rank 0 (all if fewer)
UNRANK_STATES = 10_000 if SMOKE else 20_000_000  # ranks spread evenly over the space
BLOCKS = 64
REPEATS = 1 if SMOKE else 5


@njit(parallel=True)
def walk(count, k, prm, tab):
    """Visit ranks 0..count-1 by increment, in BLOCKS blocks in parallel; a checksum of the
    positions each increment changed (what an incremental evaluation would read)."""
    sums = np.zeros(BLOCKS, dtype=np.int64)
    for b in prange(BLOCKS):
        lo = count * b // BLOCKS
        hi = count * (b + 1) // BLOCKS
        x = np.empty(k, dtype=np.int64)
        sequence_unrank(lo, x, 0, prm, tab)
        acc = x.sum()
        for _ in range(hi - lo - 1):
            changed = sequence_skip(x, 0, k, prm, tab)
            for p in range(changed, k):
                acc += x[p]
        sums[b] = acc
    return sums.sum()


@njit(parallel=True)
def unrank_spread(count, step, k, prm, tab):
    """Unrank ranks 0, step, 2 * step, ... (count of them) in parallel; a checksum."""
    sums = np.zeros(BLOCKS, dtype=np.int64)
    for b in prange(BLOCKS):
        x = np.empty(k, dtype=np.int64)
        acc = 0
        for i in range(count * b // BLOCKS, count * (b + 1) // BLOCKS):
            sequence_unrank(i * step, x, 0, prm, tab)
            acc += x[0] + x[k - 1]
        sums[b] = acc
    return sums.sum()


def best_time(run: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def itertools_walk(k: int, count: int) -> None:
    """The first `count` states of itertools.combinations, consumed without a Python loop."""
    deque(itertools.islice(itertools.combinations(range(N), k), count), maxlen=0)


def main() -> None:
    prm, tab = CombinationSpace(N, 5).kernel_args()
    walk(1000, 5, prm, tab)
    unrank_spread(1000, 1, 5, prm, tab)
    print(
        f"states per second, best of {REPEATS}, numba threads: {numba.get_num_threads()}\n"
        f"increment: ranks 0..states-1 in {BLOCKS} parallel blocks; "
        f"unrank: up to {UNRANK_STATES:,} ranks spread over the space; ratios are to itertools"
    )
    print(
        f"{'space':<12}{'states':>13}{'itertools':>12}{'increment':>12}{'ratio':>7}"
        f"{'unrank':>12}{'ratio':>7}"
    )
    for k in KS:
        space = CombinationSpace(N, k)
        prm, tab = space.kernel_args()
        count = min(space.max_rank, MAX_STATES)
        unranks = min(space.max_rank, UNRANK_STATES)
        step = space.max_rank // unranks
        ref = count / best_time(partial(itertools_walk, k, count))
        inc = count / best_time(partial(walk, count, k, prm, tab))
        unr = unranks / best_time(partial(unrank_spread, unranks, step, k, prm, tab))
        print(
            f"C({N}, {k}){'':<4}{count:>13,}{ref / 1e6:>10.1f} M{inc / 1e6:>10.1f} M"
            f"{inc / ref:>6.2f}x{unr / 1e6:>10.1f} M{unr / ref:>6.2f}x"
        )


if __name__ == "__main__":
    main()
