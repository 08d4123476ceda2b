"""Compile every kernel a GPU run launches for a real GPU, on a machine without one.

    python -m tests.backends.ptx_check

numba's CUDA simulator (what tests/backends/test_gpu.py runs under) executes the kernels as
Python, so it cannot tell whether numba-cuda compiles them. This runs the GPU paths of a few
shipped specs with the device replaced by host arrays and every launch replaced by a
compile: each kernel, for the argument types of its launch, through numba-cuda and NVVM to
PTX for compute capability 9.0 (the H100 and H200), then by `ptxas` to machine code where
CUDA's `ptxas` is found. It prints one line per kernel and signature (PTX size, registers)
and exits 0 when all compiled; exit 77 says NVVM or NVRTC cannot be loaded here (the
`numba-cuda[cu12]` extra brings both); any other failure is the compiler's error.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
CAPABILITY = (9, 0)
UNAVAILABLE = 77  # NVVM or NVRTC missing: nothing to check here

os.environ["NUMBA_ENABLE_CUDASIM"] = "0"
numba.core.config.reload_config()

from numba import cuda  # noqa: E402
from numba.cuda import dispatcher as cuda_dispatcher  # noqa: E402

import epcg_spec  # noqa: E402
from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.domains.fling.problem import layered_space  # noqa: E402
from epcg_spec.search import gpu  # noqa: E402
from epcg_spec.search.retrograde import Plan, Retrograde  # noqa: E402
from tests.conftest import collect_rarely  # noqa: E402


class _Device:
    """The device numba-cuda compiles nested device functions for."""

    compute_capability = CAPABILITY


def compiler_reason() -> str | None:
    """Why kernels cannot be compiled here (NVVM or NVRTC missing), or None."""
    try:
        from numba.cuda.cudadrv import nvrtc, nvvm

        nvvm.NVVM()
        nvrtc.get_supported_ccs()
    except Exception as exc:  # numba-cuda raises several kinds for a missing library
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0]}"
    return None


def ptxas() -> str | None:
    """CUDA's PTX assembler of the toolkit whose NVVM numba-cuda loaded (the same version,
    so that it reads that NVVM's PTX), else the one on PATH."""
    from cuda.pathfinder import load_nvidia_dynamic_lib

    nvvm = Path(load_nvidia_dynamic_lib("nvvm").abs_path)
    beside = [root / "bin" / "ptxas" for root in nvvm.parents]
    return next((str(p) for p in beside if p.is_file()), None) or shutil.which("ptxas")


class Compiler:
    """Stands in for kernel launches: compiles each kernel once per argument types."""

    def __init__(self, assembler: str | None, scratch: Path):
        self.assembler, self.scratch = assembler, scratch
        self.lines: list[str] = []
        self._done: set[tuple[Callable, tuple]] = set()

    def launcher(self, kernel) -> Callable[..., None]:
        def launch(*args) -> None:
            signature = tuple(numba.typeof(a) for a in args)
            if (kernel.py_func, signature) not in self._done:
                self._done.add((kernel.py_func, signature))
                self.compile(kernel.py_func, signature)

        return launch

    def compile(self, function, signature: tuple) -> None:
        ptx, _ = cuda.compile_ptx(function, signature, cc=CAPABILITY)
        line = f"{function.__name__}: PTX {len(ptx):,} characters"
        if self.assembler is not None:
            source = self.scratch / f"{function.__name__}.ptx"
            source.write_text(ptx, "utf-8")
            arch = f"sm_{CAPABILITY[0]}{CAPABILITY[1]}"
            argv = [self.assembler, f"-arch={arch}", "-v", str(source)]
            argv += ["-o", str(source.with_suffix(".cubin"))]
            done = subprocess.run(argv, capture_output=True, text=True, check=True)
            registers = re.findall(r"Used (\d+) registers", done.stderr)
            line += f", {arch} machine code, {', '.join(registers) or '?'} registers"
        self.lines.append(line)
        print(line, flush=True)


def space_runs() -> None:
    """Every exhaustive kernel: a pruned walk and a scan, with and without an objective."""
    for name, params in (("n-queens.yaml", {"n": 6}), ("golomb-ruler.epcg", {})):
        spec = epcg_spec.load(ROOT / "specs" / name, params=params)
        for no_prune in (False, True):
            spec.count(constrained=True, no_prune=no_prune, device="gpu")
            spec.build(no_prune=no_prune, device="gpu")


def fling_runs(folder: Path) -> None:
    """Every retrograde kernel: the layers of 4 x 4 boards, unique by predecessors."""
    plan = Plan(3, 3, ("moves", "boards"), "predecessors")
    Retrograde(layered_space(4, 4), folder, RunContext(device="gpu")).run(plan)


def main() -> int:
    collect_rarely()  # its 10 kernels' compiles: 18 s with Python's default, 14 s
    reason = compiler_reason()
    if reason is not None:
        print(f"no CUDA compiler libraries here: {reason}", file=sys.stderr)
        return UNAVAILABLE
    with tempfile.TemporaryDirectory(prefix="ptx-") as scratch:
        compiler = Compiler(ptxas(), Path(scratch))
        launches = mock.patch.object(
            cuda_dispatcher.CUDADispatcher,
            "__getitem__",
            lambda kernel, config: compiler.launcher(kernel),
        )
        host = {"cuda": lambda: cuda, "describe": lambda: "PTX compiler", "fetch": np.asarray}
        host |= {"empty": np.zeros, "send": lambda a: np.ascontiguousarray(a)}
        with (
            launches,
            mock.patch.object(cuda_dispatcher, "get_current_device", _Device),
            mock.patch.multiple(gpu, **host),
        ):
            space_runs()
            fling_runs(Path(scratch) / "layers")
        print(f"{len(compiler.lines)} kernels compiled for compute capability {CAPABILITY}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
