"""What a cache line shared by two threads' scratch costs the pruned walk, in one run.

    python benchmarks/bench_shared_lines.py [--rounds N] [--smoke]

14-queens with prefix pruning on two threads (the exhaustive back end), the two settings
alternating round by round:

    own lines     each thread's scratch arrays on cache lines of their own, as the back end
                  makes them (`blocks.own_lines`)
    shared lines  the two threads' arrays packed one after the other in one buffer, so
                  that each pair meets on a line, as numpy's small allocations can fall

Prints each round's seconds and the ratio of the best of each. `--smoke`: 8-queens, one
round, to check that it runs.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.search import blocks, exhaustive  # noqa: E402
from epcg_spec.spec.load import load_spec  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
N = 8 if SMOKE else 14
SOLUTIONS = {8: 92, 14: 365_596}
THREADS = 2


def shared_lines(shapes: list[tuple[tuple[int, ...], type]]):
    """A scratch maker whose calls take turns at one buffer: each array of the first call is
    followed at once by the same array of the second, so the two meet on a cache line."""
    sizes = [int(np.prod(shape)) * np.dtype(dtype).itemsize for shape, dtype in shapes]
    buffer = np.zeros(2 * sum(sizes) + blocks.CACHE_LINE, np.uint8)
    base = -buffer.ctypes.data % blocks.CACHE_LINE
    turn = itertools.count()

    def scratch(kernels) -> tuple[np.ndarray, ...]:
        mine, at, arrays = next(turn) % THREADS, base, []
        for (shape, dtype), size in zip(shapes, sizes, strict=True):
            start = at + mine * size
            arrays.append(buffer[start : start + size].view(dtype).reshape(shape))
            arrays[-1][...] = 0
            at += THREADS * size
        return tuple(arrays)

    return scratch


def main() -> int:
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 4
    rounds = 1 if SMOKE else rounds
    loaded = load_spec(ROOT / "specs" / "n-queens.yaml", {"n": N})
    problem = loaded.domain.compile(loaded.spec)
    kernels = problem.kernels()
    own = exhaustive._scratch
    shapes = [(a.shape, a.dtype.type) for a in own(kernels)]

    def timed(scratch) -> float:
        exhaustive._scratch = scratch
        job = exhaustive.job(kernels, problem.space_size(), True, 3)
        start = time.perf_counter()
        found = exhaustive.run(job, RunContext(threads=THREADS), "bench").tally.count
        seconds = time.perf_counter() - start
        assert found == SOLUTIONS[N], found
        return seconds

    timed(own)  # compiled or loaded before any timing
    times: dict[str, list[float]] = {"own lines": [], "shared lines": []}
    for _ in range(rounds):
        times["own lines"].append(timed(own))
        times["shared lines"].append(timed(shared_lines(shapes)))
    exhaustive._scratch = own
    print(f"{N}-queens, prefix pruning, {THREADS} threads, seconds a round:")
    for name, seconds in times.items():
        print(f"  {name:13} {' '.join(f'{s:.3f}' for s in seconds)}")
    ratio = min(times["shared lines"]) / min(times["own lines"])
    print(f"shared lines / own lines, best of each: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
