"""Sudoku: uniqueness proofs and minimal puzzles, against a plain-Python solver in the same run.

The reference is tests/oracles/sudoku_oracle.py: candidates as bit masks of the row, column
and box, fewest candidates first, stop at 2 solutions. Ours runs the propagate + backtrack
back ends (naked and hidden singles as group propagators, counting mode with limit 2),
timed two ways: one call from Python (which unboxes the Model, work State and base State
tuples, about 95 arrays, on every call), and inside a kernel, as the generator's clue
removal calls it.
Run: python benchmarks/bench_sudoku.py [--smoke]   (smoke: one puzzle, two generated)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.domains.sudoku import kernels  # noqa: E402
from epcg_spec.domains.sudoku.kernels import COUNT  # noqa: E402
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
    print(f"{'puzzle':<16} {'plain Python':>13} {'ours, call':>11} {'in kernel':>10}  ratios")
    for name in HARDEST:
        text = HARD[name]
        grid = np.array(parse(text), dtype=np.int64)
        assert kernels.call(COUNT, model, work, base, grid, target=2, rules=ALL_RULES) == 1
        assert count_solutions(list(grid), 3, 2) == 1
        ours = best_of(
            lambda g=grid: kernels.call(COUNT, model, work, base, g, target=2, rules=ALL_RULES)
        )
        proofs_in_kernel(model, work, base, grid, 1)
        inner = best_of(lambda g=grid: proofs_in_kernel(model, work, base, g, IN_KERNEL))
        inner /= IN_KERNEL
        plain = best_of(lambda g=grid: count_solutions(list(g), 3, 2))
        print(
            f"{name:<16} {plain * 1e3:>11.1f}ms {ours * 1e3:>9.3f}ms {inner * 1e3:>8.3f}ms  "
            f"{plain / ours:>5.1f}x, {plain / inner:>5.1f}x"
        )


def generation() -> None:
    data = {"kind": "sudoku", "name": "bench", "generate": {"puzzles": PUZZLES}}
    doc = Document(source=str(ROOT / "bench.yaml"), data=data, format="yaml")
    loaded = check_document(doc, {})
    problem = loaded.domain.compile(loaded.spec)
    problem.run(RunContext(seed=99))
    output = problem.run(RunContext(seed=1))
    records = output.result["puzzles"]
    seconds = [r["seconds"] for r in records]
    clues = [r["clues"] for r in records]
    grades = {g: sum(r["grade"] == g for r in records) for g in ("naked", "hidden", "search")}
    print(
        f"minimal unique 9x9 puzzles: median {statistics.median(seconds) * 1e3:.1f} ms, "
        f"max {max(seconds) * 1e3:.1f} ms over {PUZZLES}; clues {min(clues)}-{max(clues)} "
        f"(median {statistics.median(clues):.0f}); grades {grades}"
    )


def main() -> int:
    uniqueness()
    generation()
    return 0


if __name__ == "__main__":
    sys.exit(main())
