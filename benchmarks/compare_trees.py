"""The propagate engine in two checkouts side by side: warm speed and cold compile time.

For a change to the propagate + backtrack back ends: OLD is the reference (e.g. a
`git archive main` unpacked in /tmp), NEW the changed tree. Runs alternate (old, new, then
new, old, ...) so that a shared machine's load falls on both; each figure is the median over
rounds, and the ratio is new / old.

Warm (each tree with its own kernel cache, filled by a first run that is not counted): the
cases of bench_sudoku.py and bench_wfc.py, ours only, in CPU seconds of the process (a process
waiting for a core does not count its wait): Sudoku, a uniqueness proof of each hard puzzle,
the least of 5 runs of 100 proofs in a kernel and of 20 calls from Python, summed over the
puzzles; WFC, one classic attempt per seed 0-9, the least of 3 runs each, summed.

Compile: in a fresh process with an empty NUMBA_CACHE_DIR, the CPU seconds to compile what a
4 x 4 Sudoku's uniqueness proof and solve reach (the engine's kernels, no generated module).

Cold: `epcg-spec build` of a Sudoku spec and a WFC spec with an empty EPCG_CACHE_DIR and no
__pycache__ folders in the tree (numba's own cache lives there; both trees' are deleted): the
CPU seconds of the whole command, and the result's compile_seconds (wall).

Run: python benchmarks/compare_trees.py OLD NEW [--rounds 6] [--compile-rounds 2]
     [--cold-rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COLD_SPECS = ("specs/sudoku-4x4.epcg", "specs/wfc-pipes.yaml")


def warm_figures(root: Path) -> dict[str, float]:
    """The warm cases, measured in this process on the tree at `root` (imported from it)."""
    sys.path[:0] = [str(root), str(root / "benchmarks")]
    import bench_sudoku as bs
    import bench_wfc as bw
    import numpy as np

    from epcg_spec.search import backtrack
    from epcg_spec.search.propagate import ALL_RULES, new_state

    def least(function, runs: int) -> float:
        best = float("inf")
        for _ in range(runs):
            began = time.process_time()
            function()
            best = min(best, time.process_time() - began)
        return best

    model = bs.sudoku_network(3)
    base, work = backtrack.prepare(model), new_state(model)
    in_kernel = by_call = 0.0
    for text in bs.HARD.values():
        grid = np.array(bs.parse(text), dtype=np.int64)
        bs.proofs_in_kernel(model, work, base, grid, 1)
        in_kernel += least(lambda g=grid: bs.proofs_in_kernel(model, work, base, g, 100), 5) / 100
        by_call += (
            least(
                lambda g=grid: [
                    bs.kernels.solutions_upto(model, work, base, g, ALL_RULES, 2) for _ in range(20)
                ],
                5,
            )
            / 20
        )
    figures = {"sudoku proofs, in a kernel": in_kernel, "sudoku proofs, one call each": by_call}
    for label, fields, size, _ in bw.CASES:
        m = bw.build_network(bw.load_run(fields, size))
        b = backtrack.prepare(m)
        backtrack.solve(m, 0, bw.POLICY, b)
        figures[f"wfc {label}"] = sum(
            least(lambda s=s, m=m, b=b: backtrack.solve(m, s, bw.POLICY, b), 3) for s in range(10)
        )
    return figures


def compile_figure() -> dict[str, float]:
    """CPU seconds to compile the engine's kernels for a 4 x 4 Sudoku (caches empty)."""
    import numpy as np

    from epcg_spec.domains.sudoku import kernels
    from epcg_spec.domains.sudoku.network import sudoku_network
    from epcg_spec.search import backtrack
    from epcg_spec.search.propagate import ALL_RULES, new_state

    began = time.process_time()
    model = sudoku_network(2)
    base = backtrack.prepare(model)
    kernels.solutions_upto(model, new_state(model), base, np.zeros(16, np.int64), ALL_RULES, 2)
    backtrack.solve(model, 1, backtrack.Policy(), base)
    return {"compile, CPU seconds": time.process_time() - began}


def compile_run(root: Path) -> dict[str, float]:
    """One `compile_figure` of `root` in a fresh process with empty caches."""
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            [sys.executable, __file__, "--compile", str(root)],
            env={**_env(), "NUMBA_CACHE_DIR": scratch, "EPCG_CACHE_DIR": f"{scratch}/epcg"},
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(done.stdout.splitlines()[-1])


def warm_run(root: Path, cache: Path) -> dict[str, float]:
    """One warm measurement of `root` in a fresh process."""
    done = subprocess.run(
        [sys.executable, __file__, "--measure", str(root)],
        env={**_env(), "EPCG_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def cold_run(root: Path, spec: str) -> dict[str, float]:
    """CPU seconds and compile_seconds of one build from empty caches."""
    for folder in root.rglob("__pycache__"):
        shutil.rmtree(folder)
    with tempfile.TemporaryDirectory() as scratch:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [sys.executable, "-m", "epcg_spec", "build", spec, "--out", f"{scratch}/out", "-q"],
            cwd=root,
            env={**_env(), "EPCG_CACHE_DIR": f"{scratch}/cache"},
            capture_output=True,
            check=True,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = json.loads(Path(f"{scratch}/out/result.json").read_text())
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"cpu seconds": cpu, "compile_seconds": result["compile_seconds"]}


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "EPCG_CACHE_DIR")}


def report(title: str, runs: dict[str, list[dict[str, float]]], unit: str, scale: float) -> None:
    if not runs["old"]:
        return
    print(f"\n{title} (median of {len(runs['old'])} rounds; {unit})")
    print(f"{'case':<36} {'old':>10} {'new':>10} {'new/old':>8}")
    for key in runs["old"][0]:
        old = statistics.median(r[key] for r in runs["old"]) * scale
        new = statistics.median(r[key] for r in runs["new"]) * scale
        print(f"{key:<36} {old:>10.3f} {new:>10.3f} {new / old:>8.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--compile-rounds", type=int, default=2)
    parser.add_argument("--cold-rounds", type=int, default=2)
    args = parser.parse_args()
    trees = {"old": args.old.resolve(), "new": args.new.resolve()}
    with tempfile.TemporaryDirectory() as scratch:
        caches = {name: Path(scratch) / name for name in trees}
        for name, root in trees.items() if args.rounds else ():
            warm_run(root, caches[name])  # fills the kernel caches
        warm: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for r in range(args.rounds):
            for name in ("old", "new") if r % 2 == 0 else ("new", "old"):
                warm[name].append(warm_run(trees[name], caches[name]))
    report("warm, CPU time per case", warm, "ms", 1e3)
    compiled: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for r in range(args.compile_rounds):
        for name in ("old", "new") if r % 2 == 0 else ("new", "old"):
            compiled[name].append(compile_run(trees[name]))
    report("compile in one process", compiled, "seconds", 1.0)
    for spec in COLD_SPECS:
        cold: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for r in range(args.cold_rounds):
            for name in ("old", "new") if r % 2 == 0 else ("new", "old"):
                cold[name].append(cold_run(trees[name], spec))
        report(f"cold build of {spec}", cold, "seconds", 1.0)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(warm_figures(Path(sys.argv[2]).resolve())))
        sys.exit(0)
    if sys.argv[1:2] == ["--compile"]:
        sys.path.insert(0, str(Path(sys.argv[2]).resolve()))
        print(json.dumps(compile_figure()))
        sys.exit(0)
    sys.exit(main())
