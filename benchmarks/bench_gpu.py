"""The exhaustive scan on a CUDA GPU against the CPU engine on every core, in one run.

Prints the device, then for 12-queens with pruning off (12! = 479 million permutations) the
CPU time on all cores, the GPU time, and their ratio; both count 14,200 solutions and must
give the same best states. Kernels are compiled (or loaded from the cache) before any timing.
Needs numba-cuda and a CUDA device (pip install '.[gpu]'); without one it says so in one line
and exits 1.

Run: python benchmarks/bench_gpu.py [--n N] [--smoke]

`--smoke`: 8-queens under numba's CUDA simulator, to check that it runs (no figures worth
quoting: the simulator runs each GPU thread as a Python thread).
"""

from __future__ import annotations

import math
import os
import sys
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SMOKE = "--smoke" in sys.argv[1:]
if SMOKE:
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")  # before numba is imported

import numba  # noqa: E402
import numpy as np  # noqa: E402

from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.core.errors import UsageError  # noqa: E402
from epcg_spec.search import exhaustive, exhaustive_gpu  # noqa: E402
from epcg_spec.spec.load import load_spec  # noqa: E402

SPEC = ROOT / "specs" / "n-queens.yaml"
SOLUTIONS = {8: 92, 9: 352, 10: 724, 11: 2680, 12: 14_200, 13: 73_712}  # OEIS A000170
REPEATS = 1 if SMOKE else 3
TOP = 3


def _n() -> int:
    if "--n" in sys.argv:
        return int(sys.argv[sys.argv.index("--n") + 1])
    return 8 if SMOKE else 12


def engine(n: int, device: str):
    """A run of n-queens with pruning off on `device`, kernels compiled beforehand."""
    loaded = load_spec(SPEC, {"n": n})
    problem = loaded.domain.compile(loaded.spec)
    kernels = problem.kernels(device=device)
    size = problem.space_size()
    exhaustive.run(kernels, size, False, TOP, RunContext(), "warm-up")
    return lambda: exhaustive.run(kernels, size, False, TOP, RunContext(), "bench").tally


def best(run) -> tuple[float, object]:
    times, value = [], None
    for _ in range(REPEATS):
        start = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - start)
    return min(times), value


def main() -> int:
    try:
        device = exhaustive_gpu.describe()
    except UsageError as exc:
        print(f"bench_gpu: nothing measured: {exc}", file=sys.stderr)
        return 1
    n = _n()
    size = math.factorial(n)
    try:
        cuda_version = f"numba-cuda {metadata.version('numba-cuda')}"
    except metadata.PackageNotFoundError:
        cuda_version = "numba's built-in numba.cuda"
    print(
        f"device: {device}; CPU: {numba.get_num_threads()} threads; numba {numba.__version__}, "
        f"{cuda_version}, numpy {np.__version__}"
    )
    cpu_seconds, cpu = best(engine(n, "cpu"))
    gpu_seconds, gpu = best(engine(n, "gpu"))
    assert cpu.count == gpu.count == SOLUTIONS.get(n, cpu.count), (cpu.count, gpu.count)
    assert cpu.best == gpu.best and cpu.evaluated == gpu.evaluated == size
    print(
        f"{n}-queens, pruning off, {size:,} permutations: CPU (all cores) {cpu_seconds:.3f} s "
        f"= {size / cpu_seconds / 1e6:,.0f} M/s; GPU {gpu_seconds:.4f} s "
        f"= {size / gpu_seconds / 1e6:,.0f} M/s; GPU/CPU speed ratio "
        f"{cpu_seconds / gpu_seconds:.1f}x ({gpu.count:,} solutions)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
