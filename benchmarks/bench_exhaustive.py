"""The exhaustive back end against references measured in the same run.

Prints, in one run: increment and unrank of C(56, k) against itertools (bench_spaces), the
states per second of the exhaustive back end on 12-queens with pruning off (12! = 479
million permutations), and the time to count 12-queens with prefix pruning on against a
plain-Python bit-mask backtracking counter. Kernels are compiled (or loaded from the cache)
before any timing.

Run: python benchmarks/bench_exhaustive.py [--skip-spaces]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from bench_spaces import main as bench_spaces

from epcg_spec.compile.protocols import RunContext
from epcg_spec.search import exhaustive
from epcg_spec.spec.load import load_spec

SPEC = Path(__file__).resolve().parent.parent / "specs" / "n-queens.yaml"
N = 12
REPEATS = 5


def bitmask_queens(n: int) -> int:
    """Count n-queens solutions by plain-Python backtracking over bit masks."""
    full = (1 << n) - 1

    def place(cols: int, left: int, right: int) -> int:
        if cols == full:
            return 1
        count = 0
        free = full & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            count += place(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return count

    return place(0, 0, 0)


def best(run, repeats: int = REPEATS) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - start)
    return min(times), value


def engine(prune: bool):
    loaded = load_spec(SPEC, {"n": N})
    problem = loaded.domain.compile(loaded.spec)
    kernels = problem.kernels()
    size = problem.space_size()
    exhaustive.run(kernels, size, prune, 1, RunContext(), "warm-up")
    return lambda: exhaustive.run(kernels, size, prune, 1, RunContext(), "bench").tally.count


def main() -> None:
    if "--skip-spaces" not in sys.argv:
        bench_spaces()
        print()
    size = 479_001_600
    off_seconds, off_count = best(engine(prune=False), repeats=2)
    print(
        f"12-queens, pruning off: {size:,} states in {off_seconds:.2f} s = "
        f"{size / off_seconds / 1e6:,.0f} million states/s ({off_count:,} solutions)"
    )
    on_seconds, on_count = best(engine(prune=True))
    ref_seconds, ref_count = best(lambda: bitmask_queens(N), repeats=3)
    assert on_count == ref_count == off_count == 14_200
    print(
        f"12-queens, prefix pruning on: {on_seconds * 1000:.1f} ms; plain-Python bit-mask "
        f"counter: {ref_seconds * 1000:.1f} ms; ratio {ref_seconds / on_seconds:.1f}x"
    )


if __name__ == "__main__":
    main()
