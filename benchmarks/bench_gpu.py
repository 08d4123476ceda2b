"""The exhaustive scan on a CUDA GPU against the CPU engine on every core, in one run.

Prints the device, then the CPU time on all cores, the GPU time and their ratio for
12-queens with pruning off (12! = 479 million permutations), 16-queens with prefix pruning
on, and the Fling table of the game's 7 x 8 board (solvable boards and unique ones under
both rules) up to 8 pieces, each layer store made from nothing; each pair must give the
same tally, or byte for byte the same layers. Kernels are compiled (or loaded from the
cache) before any timing.
Needs numba-cuda and a CUDA device (pip install '.[gpu]'); without one it says so in one line
and exits 1.

Run: python benchmarks/bench_gpu.py [--n N] [--pruned-n N] [--fling-pieces N] [--gpu-only]
[--smoke]

A size of 0 leaves its row out. `--gpu-only` times the GPU alone (no ratio; the queens'
tallies are still checked against the known counts), for tables too big to wait for on the
CPU.

`--smoke`: 8- and 9-queens and Fling to 3 pieces under numba's CUDA simulator, to check
that it runs (no figures worth quoting: the simulator runs each GPU thread as a Python
thread).
"""

# ruff: noqa: E402 (the simulator is chosen before numba is imported)
from __future__ import annotations

import math
import os
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SMOKE = "--smoke" in sys.argv[1:]
if SMOKE:
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")  # before numba is imported

import numba
import numpy as np

from epcg_spec.core.context import RunContext
from epcg_spec.core.errors import UsageError
from epcg_spec.domains.fling.problem import layered_space
from epcg_spec.search import exhaustive, gpu
from epcg_spec.search.retrograde import Plan, Retrograde
from epcg_spec.spec.load import load_spec

SPEC = ROOT / "specs" / "n-queens.yaml"
SOLUTIONS = {8: 92, 9: 352, 10: 724, 11: 2680, 12: 14_200, 13: 73_712, 14: 365_596}
SOLUTIONS |= {15: 2_279_184, 16: 14_772_512, 17: 95_815_104}  # OEIS A000170
GPU_ONLY = "--gpu-only" in sys.argv[1:]
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
    warm = exhaustive.job(kernels, min(size, 1 << 20), prune, TOP)
    exhaustive.run(warm, RunContext(), "warm-up")
    return lambda: (
        exhaustive.run(exhaustive.job(kernels, size, prune, TOP), RunContext(), "bench").tally
    )


def compare(n: int, prune: bool) -> None:
    """Time n-queens on the CPU (all cores) and the GPU; print both and the ratio."""
    size = math.factorial(n)
    gpu_seconds, on_gpu = best(engine(n, prune, "gpu"))
    assert on_gpu.count == SOLUTIONS.get(n, on_gpu.count), on_gpu.count
    how = "prefix pruning on" if prune else "pruning off"
    line = f"{n}-queens, {how}, {size:,} permutations, {on_gpu.count:,} solutions: "
    if GPU_ONLY:
        print(f"{line}GPU {gpu_seconds:.4f} s")
        return
    cpu_seconds, on_cpu = best(engine(n, prune, "cpu"))
    assert on_cpu == on_gpu, "the GPU's tally differs from the CPU's"
    print(
        f"{line}CPU (all cores) {cpu_seconds:.4f} s, GPU {gpu_seconds:.4f} s; "
        f"GPU/CPU speed ratio {cpu_seconds / gpu_seconds:.1f}x"
    )


def fling_table(pieces: int, device: str, folder: Path) -> tuple[float, dict[str, bytes]]:
    """Seconds to make the 7 x 8 Fling table up to `pieces` in an empty store on `device`,
    and the store's layer files."""
    plan = Plan(pieces - 1, pieces, ("moves", "boards"), "predecessors")
    Retrograde(layered_space(7, 8), folder / "warm-up", RunContext(device=device)).run(
        Plan(2, 3, plan.rules, plan.unique_by)
    )
    start = time.perf_counter()
    Retrograde(layered_space(7, 8), folder / "table", RunContext(device=device)).run(plan)
    seconds = time.perf_counter() - start
    layers = sorted((folder / "table").rglob("*"))
    return seconds, {p.name: p.read_bytes() for p in layers if p.suffix in (".bits", ".npy")}


def compare_fling(pieces: int) -> None:
    """Time the Fling table on the CPU (all cores) and the GPU; print both and the ratio."""
    line = f"Fling 7 x 8, layers 1..{pieces} (solvable to {pieces - 1}, unique by predecessors): "
    with tempfile.TemporaryDirectory() as cpu_dir, tempfile.TemporaryDirectory() as gpu_dir:
        gpu_seconds, on_gpu = fling_table(pieces, "gpu", Path(gpu_dir))
        if GPU_ONLY:
            print(f"{line}GPU {gpu_seconds:.3f} s")
            return
        cpu_seconds, on_cpu = fling_table(pieces, "cpu", Path(cpu_dir))
    assert on_cpu and on_cpu == on_gpu, "the GPU's layers differ from the CPU's"
    print(
        f"{line}CPU (all cores) {cpu_seconds:.3f} s, GPU {gpu_seconds:.3f} s; "
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
    for n, prune in ((_option("--n", 12, 8), False), (_option("--pruned-n", 16, 9), True)):
        if n:
            compare(n, prune)
    pieces = _option("--fling-pieces", 8, 3)
    if pieces:
        compare_fling(pieces)
    return 0


if __name__ == "__main__":
    sys.exit(main())
