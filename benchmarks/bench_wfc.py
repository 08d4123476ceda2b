"""Wave Function Collapse: our time per attempt against references measured in the same run.

References: the plain-Python WFC of tests/oracles/wfc_oracle.py (AC-4 support counts, lowest
entropy found by scanning every cell, as the reference implementation does), and the same
algorithm compiled with numba in this file (the design of fast-wfc: a full scan per choice).
Ours keeps the undecided cells in a heap refreshed only where propagation touched them.

Cases: 48 x 48 overlapping (maze sample, N = 3, 104 patterns), 48 x 48 tiled (pipes, 12
variants), 192 x 192 tiled (pipes). Run: python benchmarks/bench_wfc.py [--smoke]
[--fast-wfc PATH] (smoke: tiled pipes at 16 x 16 only, two attempts; no second table)

--fast-wfc PATH: fast-wfc's driver, built as docs/benchmarks.md says, run on the overlapping
case in the same run, alternating with ours for three rounds: each round, the median time of
10 attempts of each and the ratio. Last, the time to build each case's network: the first
build (the first case's is the first in the process) and the median of 20 more.

A second table sets square, hex and cube grids side by side (no reference runs hex or cube):
the hex pipes of specs/wfc-hex-pipes.yaml on a periodic 48 x 48 map (18 variants) and the
voxel terrain of specs/wfc-voxel-terrain.yaml on 24 x 24 x 12 cells (5 variants), and the 3D
overlapping model of specs/wfc-voxel-patterns.yaml (2 x 2 x 2 patterns of a .vox sample, bounded,
with its ground) on 24 x 24 x 8 voxels. For each:
the median time of a classic attempt and how many succeed, then the median time of an attempt
that backtracks (up to one backtrack per cell) and its backtracking rate: backtracks per 100
decisions over all its attempts.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import yaml
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from epcg_spec.domains.wfc.network import build_network  # noqa: E402
from epcg_spec.search import backtrack  # noqa: E402
from epcg_spec.spec.document import Document  # noqa: E402
from epcg_spec.spec.load import check_document  # noqa: E402
from tests.oracles.wfc_oracle import plain_wfc  # noqa: E402

SAMPLES = ROOT / "specs" / "wfc-samples" / "samples"
CASES = [
    ("48x48 overlapping, maze N=3",
     {"model": "overlapping", "sample": "maze.png", "N": 3, "symmetry": 8}, 48, 1),
    ("48x48 tiled, pipes", {"model": "tiled", "tileset": "pipes/data.xml"}, 48, 1),
    ("192x192 tiled, pipes", {"model": "tiled", "tileset": "pipes/data.xml"}, 192, 0),
]  # fmt: skip
PARSER = argparse.ArgumentParser(description=__doc__.splitlines()[0])
PARSER.add_argument("--smoke", action="store_true", help="tiled pipes at 16 x 16 only")
PARSER.add_argument("--fast-wfc", type=Path, metavar="PATH", help="fast-wfc's driver, built")
ARGS = PARSER.parse_args() if __name__ == "__main__" else PARSER.parse_args([])
SMOKE = ARGS.smoke
if SMOKE and ARGS.fast_wfc is not None:
    PARSER.error("--fast-wfc runs on the overlapping case, which --smoke leaves out")
if ARGS.fast_wfc is not None and not os.access(ARGS.fast_wfc, os.X_OK):
    PARSER.error(f"--fast-wfc {ARGS.fast_wfc}: no such program (docs/benchmarks.md builds it)")
if SMOKE:  # the tiled 48 x 48 case only, at 16 x 16
    CASES = [("16x16 tiled, pipes", {"model": "tiled", "tileset": "pipes/data.xml"}, 16, 1)]
ATTEMPTS = 2 if SMOKE else 10
POLICY = backtrack.Policy(max_backtracks=0, attempts=1)  # one classic attempt
SPECS = ROOT / "specs"
DROP = ("mask", "border", "connected", "counts", "write", "fixed", "seed")
WORLDS = [
    ("48x48 square, pipes", SAMPLES / "bench.yaml",
     {"model": "tiled", "tileset": "pipes/data.xml", "size": 48, "periodic": True}),
    ("48x48 hex, pipes", SPECS / "wfc-hex-pipes.yaml",
     {"width": 48, "height": 48, "periodic": True}),
    ("24x24x12 cube, terrain", SPECS / "wfc-voxel-terrain.yaml",
     {"width": 24, "height": 24, "depth": 12}),
    ("24x24x8 voxel patterns N=2", SPECS / "wfc-voxel-patterns.yaml",
     {"width": 24, "height": 24, "depth": 8, "sample": "wfc-worlds/terrain-sample.vox"}),
]  # fmt: skip


def load_run(fields: dict, size: int):
    data = {"kind": "wfc", "name": "bench", "size": size, "periodic": True, **fields}
    doc = Document(source=str(SAMPLES / "bench.yaml"), data=data, format="yaml")
    return check_document(doc, {}).spec.runs[0]


def load_world(path: Path, fields: dict):
    """A spec's first run (or a tileset's, for the square case) with its grid changed."""
    data = {"kind": "wfc", "name": "bench"}
    if path.exists():
        data = {k: v for k, v in yaml.safe_load(path.read_text()).items() if k not in DROP}
    doc = Document(source=str(path), data={**data, **fields}, format="yaml")
    return check_document(doc, {}).spec.runs[0]


def worlds() -> None:
    """Square, hex and cube: time per attempt, classic and backtracking, and the backtrack rate."""
    print(
        f"\n{'case':<26} {'classic':>9} {'ok':>6} {'backtracking':>13} {'ok':>6} {'bt/100 dec':>11}"
    )
    for label, path, fields in WORLDS:
        run = load_world(path, fields)
        model = build_network(run)
        base = backtrack.prepare(model)
        undo = backtrack.Policy(max_backtracks=run.cells, attempts=1)
        backtrack.solve(model, 0, undo, base)
        classic, classic_wins = per_attempt(
            lambda s, m=model, b=base: backtrack.solve(m, s, POLICY, b).status == "solved",
            ATTEMPTS,
        )
        outcomes: list[backtrack.Outcome] = []

        def solve_once(seed, m=model, b=base, p=undo, log=outcomes) -> bool:
            log.append(backtrack.solve(m, seed, p, b))
            return log[-1].status == "solved"

        undoing, undo_wins = per_attempt(solve_once, ATTEMPTS)
        rate = (
            100 * sum(o.backtracks for o in outcomes) / max(1, sum(o.decisions for o in outcomes))
        )
        print(
            f"{label:<26} {classic * 1e3:>7.1f}ms {classic_wins:>3}/{ATTEMPTS} "
            f"{undoing * 1e3:>11.1f}ms {undo_wins:>3}/{ATTEMPTS} {rate:>11.2f}"
        )


def sparse(right: np.ndarray, down: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Support lists per direction (right, down, left, up) as CSR: starts (4, T + 1), values."""
    starts, values, offset = np.zeros((4, len(right) + 1), dtype=np.int64), [], 0
    for d, table in enumerate((right, down, right.T, down.T)):
        for a in range(len(table)):
            starts[d, a] = offset
            values += list(np.flatnonzero(table[a]))
            offset = len(values)
        starts[d, len(table)] = offset
    return starts, np.array(values, dtype=np.int64)


@njit(cache=True)
def _ban(i, a, wave, sizes, sums, logs, weights, logw, stack_i, stack_a, top):
    wave[i, a] = False
    sizes[i] -= 1
    sums[i] -= weights[a]
    logs[i] -= logw[a]
    stack_i[top], stack_a[top] = i, a
    return top + 1


@njit(cache=True)
def scan_wfc(starts, values, weights, width, height, seed):
    """Classic WFC compiled: AC-4 counts and a scan of every cell for the lowest entropy."""
    np.random.seed(seed)
    count = len(weights)
    cells = width * height
    dx = (1, 0, -1, 0)
    dy = (0, 1, 0, -1)
    wave = np.ones((cells, count), dtype=np.bool_)
    sizes = np.full(cells, count, dtype=np.int64)
    logw = weights * np.log(weights)
    sums = np.full(cells, weights.sum())
    logs = np.full(cells, logw.sum())
    compat = np.zeros((cells, count, 4), dtype=np.int64)
    for d in range(4):
        for b in range(count):
            compat[:, b, d] = starts[(d + 2) % 4, b + 1] - starts[(d + 2) % 4, b]
    noise = np.random.random(cells) * 1e-6
    stack_i = np.zeros(cells * count, dtype=np.int64)
    stack_a = np.zeros(cells * count, dtype=np.int64)
    top = 0
    while True:
        best, best_entropy = -1, np.inf
        for i in range(cells):
            if sizes[i] == 0:
                return False
            if sizes[i] > 1:
                entropy = np.log(sums[i]) - logs[i] / sums[i] + noise[i]
                if entropy < best_entropy:
                    best, best_entropy = i, entropy
        if best < 0:
            return True
        target = np.random.random() * sums[best]
        pick = -1
        for a in range(count):
            if wave[best, a]:
                pick = a
                target -= weights[a]
                if target < 0:
                    break
        for a in range(count):
            if wave[best, a] and a != pick:
                top = _ban(best, a, wave, sizes, sums, logs, weights, logw, stack_i, stack_a, top)
        while top > 0:
            top -= 1
            i, a = stack_i[top], stack_a[top]
            x, y = i % width, i // width
            for d in range(4):
                j = (x + dx[d]) % width + (y + dy[d]) % height * width
                for p in range(starts[d, a], starts[d, a + 1]):
                    b = values[p]
                    compat[j, b, d] -= 1
                    if compat[j, b, d] == 0 and wave[j, b]:
                        top = _ban(
                            j, b, wave, sizes, sums, logs, weights, logw, stack_i, stack_a, top
                        )


def per_attempt(function, attempts: int) -> tuple[float, int]:
    """Median seconds of one attempt, and how many attempts finished without contradiction."""
    times, wins = [], 0
    for seed in range(attempts):
        began = time.perf_counter()
        wins += bool(function(seed))
        times.append(time.perf_counter() - began)
    return statistics.median(times), wins


def fast_wfc(path: Path, fields: dict, size: int, attempts: int) -> float:
    """Median seconds of one fast-wfc attempt (its `run`) on the same sample and settings."""
    settings = [SAMPLES / fields["sample"], fields["N"], size, fields["symmetry"], attempts]
    done = subprocess.run(
        [str(path), *map(str, settings)], capture_output=True, text=True, check=True
    )
    return float(done.stdout.split("median_ms=")[1].split()[0]) / 1e3


def against_fast_wfc(path: Path, model, base, fields: dict, size: int) -> None:
    """Ours and fast-wfc alternating, three rounds: each round's medians and ratio."""
    for round_ in range(3):
        ours, _ = per_attempt(
            lambda s, m=model, b=base: backtrack.solve(m, s, POLICY, b).status == "solved",
            ATTEMPTS,
        )
        theirs = fast_wfc(path, fields, size, ATTEMPTS)
        print(
            f"  fast-wfc, round {round_ + 1}: ours {ours * 1e3:.1f}ms, fast-wfc "
            f"{theirs * 1e3:.1f}ms: ours {theirs / ours:.2f}x faster"
        )


def build_times(run) -> tuple[float, float]:
    """Seconds of the first network build in this process, and the median of 20 more."""
    began = time.perf_counter()
    build_network(run)
    first = time.perf_counter() - began
    return first, per_attempt(lambda _: build_network(run), 20)[0]


def main() -> int:
    print(f"{'case':<30} {'ours':>10} {'numba scan':>11} {'plain Python':>13}  ours vs")
    builds = []
    for label, fields, size, plain_attempts in CASES:
        run = load_run(fields, size)
        tables = run.tiled if run.tiled is not None else run.patterns
        builds.append((label, *build_times(run)))
        model = build_network(run)
        base = backtrack.prepare(model)
        backtrack.solve(model, 0, POLICY, base)
        ours, our_wins = per_attempt(
            lambda s, m=model, b=base: backtrack.solve(m, s, POLICY, b).status == "solved",
            ATTEMPTS,
        )
        lists = (*sparse(tables.right, tables.down), tables.weights, size, size)
        scan_wfc(*lists, 0)
        scan, _ = per_attempt(lambda s, a=lists: scan_wfc(*a, s), max(2, ATTEMPTS // 4))
        plain = math.nan
        if plain_attempts:
            args = (tables.right, tables.down, list(tables.weights), size, size, True)
            plain, _ = per_attempt(lambda s, a=args: plain_wfc(*a, s) is not None, plain_attempts)
        ratios = f"scan {scan / ours:.1f}x"
        if not math.isnan(plain):
            ratios += f", plain {plain / ours:.0f}x"
        print(
            f"{label:<30} {ours * 1e3:>8.1f}ms {scan * 1e3:>9.1f}ms "
            f"{plain * 1e3:>11.0f}ms  {ratios} faster "
            f"({our_wins}/{ATTEMPTS} attempts without contradiction)"
        )
        if ARGS.fast_wfc is not None and fields["model"] == "overlapping":
            against_fast_wfc(ARGS.fast_wfc, model, base, fields, size)
    for label, first, warm in builds:
        print(f"network build, {label}: {first * 1e3:.1f}ms (the first), then {warm * 1e3:.2f}ms")
    if not SMOKE:
        worlds()
    return 0


if __name__ == "__main__":
    sys.exit(main())
