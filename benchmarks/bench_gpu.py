"""The exhaustive scan on a CUDA GPU against the CPU engine on every core, in one run.

Prints the device, then the CPU time on all cores, the GPU time and their ratio for
12-queens with pruning off (12! = 479 million permutations) and for 16-queens with prefix
pruning on; each pair must give the same tally (counts and best states). Kernels are
compiled (or loaded from the cache) before any timing.
Needs numba-cuda and a CUDA device (pip install '.[gpu]'); without one it says so in one line
and exits 1.

Run: python benchmarks/bench_gpu.py [--n N] [--pruned-n N] [--smoke]

`--smoke`: 8- and 9-queens under numba's CUDA simulator, to check that it runs (no figures
worth quoting: the simulator runs each GPU thread as a Python thread).
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
from epcg_spec.search import exhaustive, gpu  # noqa: E402
from epcg_spec.spec.load import load_spec  # noqa: E402

SPEC = ROOT / "specs" / "n-queens.yaml"
SOLUTIONS = {8: 92, 9: 352, 10: 724, 11: 2680, 12: 14_200, 13: 73_712, 14: 365_596}
SOLUTIONS |= {15: 2_279_184, 16: 14_772_512, 17: 95_815_104}  # OEIS A000170
REPEATS = 1 if SMOKE else 3
TOP = 3


def _option(name: str, default: int, smoke: int) -> int:
    if name in sys.argv:
        return int(sys.argv[sys.argv.index(name) + 1])
    return smoke if SMOKE else default


def engine(n: int, prune: bool, device: str):
    """A run of n-queens on `device`, its kernels compiled (and warmed) beforehand."""
    loaded = load_spec(SPEC, {"n": n})
    problem = loaded.domain.compile(loaded.spec)
    kernels = problem.kernels(device=device)
    size = problem.space_size()
    exhaustive.run(kernels, min(size, 1 << 20), prune, TOP, RunContext(), "warm-up")
    return lambda: exhaustive.run(kernels, size, prune, TOP, RunContext(), "bench").tally


def compare(n: int, prune: bool) -> None:
    """Time n-queens on the CPU (all cores) and the GPU; print both and the ratio."""
    size = math.factorial(n)
    cpu_seconds, on_cpu = best(engine(n, prune, "cpu"))
    gpu_seconds, on_gpu = best(engine(n, prune, "gpu"))
    assert on_cpu.count == SOLUTIONS.get(n, on_cpu.count), on_cpu.count
    assert on_cpu == on_gpu, "the GPU's tally differs from the CPU's"
    how = "prefix pruning on" if prune else "pruning off"
    print(
        f"{n}-queens, {how}, {size:,} permutations, {on_gpu.count:,} solutions: "
        f"CPU (all cores) {cpu_seconds:.4f} s, GPU {gpu_seconds:.4f} s; "
        f"GPU/CPU speed ratio {cpu_seconds / gpu_seconds:.1f}x"
    )


def best(run) -> tuple[float, object]:
    times, value = [], None
    for _ in range(REPEATS):
        start = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - start)
    return min(times), value


def main() -> int:
    try:
        device = gpu.describe()
    except UsageError as exc:
        print(f"bench_gpu: nothing measured: {exc}", file=sys.stderr)
        return 1
    try:
        cuda_version = f"numba-cuda {metadata.version('numba-cuda')}"
    except metadata.PackageNotFoundError:
        cuda_version = "numba's built-in numba.cuda"
    print(
        f"device: {device}; CPU: {numba.get_num_threads()} threads; numba {numba.__version__}, "
        f"{cuda_version}, numpy {np.__version__}"
    )
    compare(_option("--n", 12, 8), prune=False)
    compare(_option("--pruned-n", 16, 9), prune=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
