"""The first build of each kind's shipped spec on a cold cache: its compile time, per kind.

Each kind's spec is built twice, each time in a fresh process: first with an empty kernel
cache and an empty numba cache (`EPCG_CACHE_DIR` and `NUMBA_CACHE_DIR` set to new folders,
so neither the generated modules nor the package's own kernels are cached), then again on
the cache the first build filled, less its data stores (Fling's layers, the Witness's
lines), which the warm build computes again. The warm build is the reference: what the
first build spends beyond it is compiling. CPU seconds (user + sys of the build process) are printed
beside wall seconds, as wall time on a shared machine also holds other people's work.

Run: python benchmarks/bench_compile.py [--smoke] [KIND | SPEC ...]   (smoke: the space kind only)
A SPEC is a spec file's path (any shipped spec, say specs/fling.yaml), built as it stands.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "specs"
sys.path.insert(0, str(ROOT))

from epcg_spec.core.cache import DATA_STORES  # noqa: E402
from epcg_spec.spec.load import load_document  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]

# kind -> (shipped spec, --param overrides that keep its run itself short)
BUILDS: dict[str, tuple[str, dict[str, int]]] = {
    "space": ("n-queens.yaml", {"n": 8}),
    "sudoku": ("sudoku-minimal.yaml", {}),
    "witness": ("witness-panel.yaml", {}),
    "fling": ("fling-5x5.yaml", {}),
    "wfc": ("wfc-loop.yaml", {}),
    "ppg": ("ppg-escape-room.yaml", {}),
    "rooms": ("rooms-house.yaml", {}),
    "tracery": ("tracery-weather.epcg", {}),
    "nested": ("nested-dungeon.epcg", {}),
}


def build(spec: Path, params: dict[str, int], caches: Path, out: Path) -> tuple[float, float]:
    """(wall s, CPU s) of one `epcg-spec build` of `spec` in a fresh process."""
    argv = [sys.executable, "-m", "epcg_spec", "build", str(spec), "--out", str(out)]
    argv += ["-q", *(f"--param={k}={v}" for k, v in params.items())]
    env = {**os.environ, "EPCG_CACHE_DIR": str(caches / "epcg")}
    env["NUMBA_CACHE_DIR"] = str(caches / "numba")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{spec.name}: build failed (exit {done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    flags = sorted(a for a in sys.argv[1:] if a.startswith("-") and a != "--smoke")
    if flags:
        sys.exit(
            f"unknown option {flags[0]!r}: give kinds, spec files and --smoke (see the docstring)"
        )
    asked = [a for a in sys.argv[1:] if not a.startswith("--")]
    unknown = sorted(a for a in asked if a not in BUILDS and not Path(a).is_file())
    if unknown:
        sys.exit(f"unknown kind {unknown[0]!r}: choose from {', '.join(BUILDS)}, or a spec file")
    builds = [resolve(item) for item in asked or (["space"] if SMOKE else list(BUILDS))]
    print(
        "first build on a cold kernel and numba cache vs a rebuild on warm kernels (data stores"
        f" computed again); {os.cpu_count()} cores"
    )
    print(f"{'kind':<9}{'spec':<24}{'cold wall':>10}{'cold CPU':>10}{'warm wall':>10}"
          f"{'warm CPU':>10}{'compile CPU':>12}")  # fmt: skip
    for kind, spec, params in builds:
        with tempfile.TemporaryDirectory(prefix=f"bench-compile-{kind}-") as folder:
            caches = Path(folder)
            cold_wall, cold_cpu = build(spec, params, caches, caches / "cold")
            for store in DATA_STORES:
                shutil.rmtree(caches / "epcg" / store, ignore_errors=True)
            warm_wall, warm_cpu = build(spec, params, caches, caches / "warm")
        print(
            f"{kind:<9}{spec.name:<24}{cold_wall:>9.1f}s{cold_cpu:>9.1f}s"
            f"{warm_wall:>9.1f}s{warm_cpu:>9.1f}s{cold_cpu - warm_cpu:>11.1f}s"
        )


def resolve(item: str) -> tuple[str, Path, dict[str, int]]:
    """(kind, spec path, --param overrides) of a kind's shipped spec or of a spec file."""
    if item in BUILDS:
        return item, SPECS / BUILDS[item][0], BUILDS[item][1]
    return load_document(Path(item)).data["kind"], Path(item).resolve(), {}


if __name__ == "__main__":
    main()
