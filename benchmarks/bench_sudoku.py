"""Sudoku: uniqueness proofs and minimal puzzles, against references measured in the same run.

Proofs: the reference is tests/oracles/sudoku_oracle.py: candidates as bit masks of the row,
column and box, fewest candidates first, stop at 2 solutions. Ours runs the propagate +
backtrack back ends (naked and hidden singles as group propagators, counting mode with limit
2), timed two ways: one call from Python (which unboxes the Model, work State and base State
tuples, about 95 arrays, on every call), and inside a kernel; and the bit-mask solver that
digs the generator's puzzles (`domains/sudoku/bitmask.py`), one call from Python.

Minimal puzzles: ours against QQWing (C++; Debian's `qqwing` package), when `qqwing` is on
the PATH: `qqwing --generate N --difficulty any --symmetry none --one-line`, whose puzzles
are minimal too (it removes clues in a random order while the puzzle stays unique). QQWing's
figure is its process's wall time over N puzzles, start included (about a millisecond);
ours is `problem.run` over N puzzles in this process, kernels loaded, records and pictures
made. Rounds alternate, each ratio is from one round. Then the first puzzle included, in a
fresh process: a child Python (this file with --first N) imports the package, then times
`problem.run` of N puzzles from just before the first (its kernels loaded from the warm
cache, numba's first-call set-up included), against `qqwing --generate N` in the same round,
for N = 1, 10, 100, 300 and 1000; and that set-up alone (--first 0: the first call of a
one-line kernel), which is larger where scipy is installed (numba imports scipy.linalg then,
to look for a BLAS; epcg-spec does not need scipy). Then the command line, first puzzle
included: `epcg-spec build` of one puzzle with a warm kernel cache, split into its import,
the kernels' loading (result.json's compile_seconds: the first puzzle) and the rest, against
`qqwing --generate 1`; and `epcg-spec build` of N puzzles (its files and gallery written)
against `qqwing --generate N`.
Run: python benchmarks/bench_sudoku.py [--smoke]   (smoke: one puzzle, few generated)
     python benchmarks/bench_sudoku.py --first N   (the child: N puzzles' seconds, or for
                                                   0 numba's first-call set-up)
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.domains.sudoku import bitmask, kernels  # noqa: E402
from epcg_spec.domains.sudoku.network import sudoku_network  # noqa: E402
from epcg_spec.search import backtrack  # noqa: E402
from epcg_spec.search.propagate import ALL_RULES, new_state  # noqa: E402
from epcg_spec.spec.document import Document  # noqa: E402
from epcg_spec.spec.load import check_document  # noqa: E402
from tests.oracles.sudoku_oracle import HARD, count_solutions, parse  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
REPEATS = 1 if SMOKE else 5
PUZZLES = 2 if SMOKE else 20
IN_KERNEL = 2 if SMOKE else 100  # proofs per kernel call
HARDEST = list(HARD)[:1] if SMOKE else list(HARD)
PEER_PUZZLES = 20 if SMOKE else 1000
PEER_ROUNDS = 1 if SMOKE else 3
FIRST_COUNTS = (1, 10) if SMOKE else (1, 10, 100, 300, 1000)
QQWING = shutil.which("qqwing")


@njit(cache=True)
def proofs_in_kernel(model, work, base, grid, repeats):
    """The uniqueness proof `repeats` times in one kernel call: no Python in between."""
    total = 0
    for _ in range(repeats):
        total += kernels.solutions_upto(model, work, base, grid, ALL_RULES, 2)
    return total


def best_of(function, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        function()
        times.append(time.perf_counter() - began)
    return min(times)


def uniqueness() -> None:
    model = sudoku_network(3)
    base, work = backtrack.prepare(model), new_state(model)
    board = bitmask.board(3)
    print(
        f"{'puzzle':<16} {'plain Python':>13} {'ours, call':>11} {'in kernel':>10} "
        f"{'bit-mask':>9}  ratios"
    )
    for name in HARDEST:
        text = HARD[name]
        grid = np.array(parse(text), dtype=np.int64)
        assert kernels.solutions_upto(model, work, base, grid, ALL_RULES, 2) == 1
        assert count_solutions(list(grid), 3, 2) == 1
        ours = best_of(lambda g=grid: kernels.solutions_upto(model, work, base, g, ALL_RULES, 2))
        proofs_in_kernel(model, work, base, grid, 1)
        inner = best_of(lambda g=grid: proofs_in_kernel(model, work, base, g, IN_KERNEL))
        inner /= IN_KERNEL
        assert bitmask.solutions_upto(board, grid, 2) == 1
        masks = best_of(lambda g=grid: bitmask.solutions_upto(board, g, 2))
        plain = best_of(lambda g=grid: count_solutions(list(g), 3, 2))
        print(
            f"{name:<16} {plain * 1e3:>11.1f}ms {ours * 1e3:>9.3f}ms {inner * 1e3:>8.3f}ms "
            f"{masks * 1e3:>7.3f}ms  {plain / ours:>5.1f}x, {plain / inner:>5.1f}x, "
            f"{plain / masks:>5.0f}x"
        )


def compiled(puzzles: int):
    data = {"kind": "sudoku", "name": "bench", "generate": {"puzzles": puzzles}}
    doc = Document(source=str(ROOT / "bench.yaml"), data=data, format="yaml")
    loaded = check_document(doc, {})
    return loaded.domain.compile(loaded.spec)


def generation() -> None:
    compiled(1).run(RunContext(seed=99))
    output = compiled(PUZZLES).run(RunContext(seed=1))
    records = output.result["puzzles"]
    seconds = [r["seconds"] for r in records]
    clues = [r["clues"] for r in records]
    grades = {g: sum(r["grade"] == g for r in records) for g in ("naked", "hidden", "search")}
    print(
        f"minimal unique 9x9 puzzles: median {statistics.median(seconds) * 1e3:.2f} ms, "
        f"max {max(seconds) * 1e3:.2f} ms over {PUZZLES}; clues {min(clues)}-{max(clues)} "
        f"(median {statistics.median(clues):.0f}); grades {grades}"
    )


def qqwing(puzzles: int) -> tuple[float, list[str]]:
    """QQWing's wall seconds for `puzzles` minimal puzzles (its start included), and them."""
    command = [QQWING, "--generate", str(puzzles), "--difficulty", "any"]
    command += ["--symmetry", "none", "--one-line"]
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - began
    return seconds, re.findall(r"^[0-9.]{81}$", done.stdout, re.MULTILINE)


def check_peer_puzzles(lines: list[str]) -> None:
    """QQWing's puzzles are unique and minimal, as ours are (the plain-Python solver)."""
    for line in lines:
        grid = parse(line)
        assert count_solutions(grid, 3, 2) == 1
        for cell in (c for c, v in enumerate(grid) if v >= 0):
            assert count_solutions([*grid[:cell], -1, *grid[cell + 1 :]], 3, 2) == 2


def peer() -> None:
    if QQWING is None:
        print("QQWing: not installed (`apt-get install qqwing`), so no peer figure this run")
        return
    check_peer_puzzles(qqwing(3)[1])
    problem = compiled(PEER_PUZZLES)
    problem.run(RunContext(seed=99))
    print(f"{PEER_PUZZLES} minimal puzzles, ms per puzzle (each round: QQWing, then ours):")
    ratios = []
    for round_ in range(PEER_ROUNDS):
        theirs = qqwing(PEER_PUZZLES)[0] / PEER_PUZZLES
        began = time.perf_counter()
        problem.run(RunContext(seed=round_))
        ours = (time.perf_counter() - began) / PEER_PUZZLES
        ratios.append(theirs / ours)
        print(f"  QQWing {theirs * 1e3:.3f}, ours {ours * 1e3:.3f}: ours {ratios[-1]:.2f}x")
    print(f"  median {statistics.median(ratios):.2f}x (load average {os.getloadavg()[0]:.1f})")


def first_included(puzzles: int) -> float:
    """Seconds of `problem.run` of `puzzles` puzzles in this process, the first included:
    what the child of `first_puzzle` prints."""
    problem = compiled(puzzles)
    began = time.perf_counter()
    problem.run(RunContext(seed=1))
    return time.perf_counter() - began


@njit(cache=True)
def _identity(x):
    return x


def numba_setup() -> float:
    """Seconds of the first call of a one-line cached kernel: numba's own set-up, which any
    numba program pays once per process (what the child of `first_puzzle` prints for 0)."""
    began = time.perf_counter()
    _identity(1)
    return time.perf_counter() - began


def first_puzzle() -> None:
    """N puzzles in a fresh process, from just before the first, against QQWing's N."""
    child = [sys.executable, str(Path(__file__).resolve()), "--first"]
    first_included(1)  # fills the kernel cache, if it is not yet
    _identity(1)
    done = subprocess.run([*child, "0"], capture_output=True, check=True)
    scipy = importlib.util.find_spec("scipy") is not None
    print(
        f"numba's own first-call set-up, in a fresh process: {float(done.stdout) * 1e3:.0f} ms"
        f" (scipy {'installed: numba imports scipy.linalg then' if scipy else 'not installed'})"
    )
    print("first puzzle included, in a fresh process (each round: QQWing, then ours):")
    for puzzles in FIRST_COUNTS:
        ratios = []
        for _ in range(PEER_ROUNDS):
            theirs = qqwing(puzzles)[0] if QQWING else float("nan")
            done = subprocess.run([*child, str(puzzles)], capture_output=True, check=True)
            ours = float(done.stdout.split()[-1])
            ratios.append(theirs / ours)
        print(
            f"  {puzzles:>5} puzzles: QQWing {theirs * 1e3:.1f} ms, ours {ours * 1e3:.1f} ms "
            f"(last round); ours {', '.join(f'{r:.2f}x' for r in ratios)}"
        )
    print(f"  (load average {os.getloadavg()[0]:.1f})")


def cli_start() -> None:
    """The command line with warm kernel caches: one puzzle (where its time goes), then
    PEER_PUZZLES puzzles, start and files included, against QQWing's process."""
    # as an installed package runs: its bytecode cached (this machine's environment sets
    # PYTHONDONTWRITEBYTECODE, which makes every start compile the package's files)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    run = {"cwd": ROOT, "env": env, "check": True, "capture_output": True}
    with tempfile.TemporaryDirectory() as folder:
        spec, out = Path(folder) / "one.yaml", Path(folder) / "out"
        build = [sys.executable, "-m", "epcg_spec", "build", str(spec), "-q", "--out", str(out)]
        importing = [sys.executable, "-c", "import epcg_spec.cli.main"]
        rows = []
        for puzzles in [1] * (REPEATS + 1) + [PEER_PUZZLES] * PEER_ROUNDS:
            spec.write_text(f"kind: sudoku\nname: cli\nseed: 1\ngenerate: {{puzzles: {puzzles}}}\n")
            shutil.rmtree(out, ignore_errors=True)
            began = time.perf_counter()
            subprocess.run(importing, **run)
            imported = time.perf_counter() - began
            began = time.perf_counter()
            subprocess.run(build, **run)
            whole = time.perf_counter() - began
            first = json.loads((out / "result.json").read_text())["compile_seconds"]
            theirs = qqwing(puzzles)[0] if QQWING else float("nan")
            rows.append((puzzles, whole, imported, first, theirs))
    ones = [row[1:] for row in rows[1:] if row[0] == 1]  # the first run fills the caches
    medians = (statistics.median(column) for column in zip(*ones, strict=True))
    whole, imported, first, theirs = medians
    print(
        f"`epcg-spec build` of one puzzle, warm kernel cache (median of {REPEATS}): "
        f"{whole * 1e3:.0f} ms: python and imports {imported * 1e3:.0f} ms, first puzzle "
        f"(kernels loaded) {first * 1e3:.0f} ms; `qqwing --generate 1` {theirs * 1e3:.1f} ms"
    )
    for _, whole, _, _, theirs in (row for row in rows if row[0] == PEER_PUZZLES):
        ours, peer_ = whole / PEER_PUZZLES, theirs / PEER_PUZZLES
        print(
            f"`epcg-spec build` of {PEER_PUZZLES} puzzles, start and files included: "
            f"{ours * 1e3:.2f} ms a puzzle, QQWing {peer_ * 1e3:.2f} ms: ours {peer_ / ours:.2f}x"
        )


def main() -> int:
    if "--first" in sys.argv[1:]:
        puzzles = int(sys.argv[-1])
        print(first_included(puzzles) if puzzles else numba_setup())
        return 0
    uniqueness()
    generation()
    peer()
    first_puzzle()
    cli_start()
    return 0


if __name__ == "__main__":
    sys.exit(main())
