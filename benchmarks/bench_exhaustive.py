"""The exhaustive back end against references measured in the same run.

Prints, in one run: increment and unrank of C(56, k) against itertools (bench_spaces), the
states per second of the exhaustive back end on 12-queens with pruning off (12! = 479
million permutations), and the time to count 12-queens with prefix pruning on against a
plain-Python bit-mask backtracking counter. Kernels are compiled (or loaded from the cache)
before any timing.

Run: python benchmarks/bench_exhaustive.py [--skip-spaces] [--smoke]

`--smoke`: the smallest setting, to check that it runs (no figures worth quoting). Here: 8-queens.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_spaces import main as bench_spaces  # noqa: E402

from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.search import exhaustive  # noqa: E402
from epcg_spec.spec.load import load_spec  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
SPEC = ROOT / "specs" / "n-queens.yaml"
N = 8 if SMOKE else 12
SOLUTIONS = {8: 92, 12: 14_200}[N]  # OEIS A000170
REPEATS = 1 if SMOKE else 5


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
    exhaustive.run(exhaustive.job(kernels, size, prune, 1), RunContext(), "warm-up")
    return lambda: (
        exhaustive.run(exhaustive.job(kernels, size, prune, 1), RunContext(), "bench").tally.count
    )


def main() -> None:
    if "--skip-spaces" not in sys.argv:
        bench_spaces()
        print()
    size = math.factorial(N)
    off_seconds, off_count = best(engine(prune=False), repeats=min(2, REPEATS))
    print(
        f"{N}-queens, pruning off: {size:,} states in {off_seconds:.2f} s = "
        f"{size / off_seconds / 1e6:,.0f} million states/s ({off_count:,} solutions)"
    )
    on_seconds, on_count = best(engine(prune=True))
    ref_seconds, ref_count = best(lambda: bitmask_queens(N), repeats=min(3, REPEATS))
    assert on_count == ref_count == off_count == SOLUTIONS
    print(
        f"{N}-queens, prefix pruning on: {on_seconds * 1000:.1f} ms; plain-Python bit-mask "
        f"counter: {ref_seconds * 1000:.1f} ms; ratio {ref_seconds / on_seconds:.1f}x"
    )


if __name__ == "__main__":
    main()
