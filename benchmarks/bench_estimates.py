"""The rates that build estimates assume, against the rates measured here in the same run.

An estimate of time is a floor only if its rate is at least what the engine reaches. This
measures, on one thread, the fastest cases the estimates were calibrated on and prints each
rate beside the one assumed (`bound / measured` at least 1: the floor holds here):

- Witness layouts a second: the layout kernel alone over witness-pieces-3x3.yaml (1,161,216
  layouts, 184 candidate lines), best of 5;
- Witness words of line bit sets a second: the must-cross kernel alone over
  witness-must-cross.yaml on larger panels (every layout reads the whole bit set), best of 5;
- Sudoku puzzles a second, by grid size: the cheapest puzzles (one clue removed), made with
  their files (not written), the kernels loaded first.

Run: python benchmarks/bench_estimates.py [--smoke]   (smoke: smaller panels, 20 puzzles)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import epcg_spec  # noqa: E402
from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.domains.sudoku.problem import PUZZLES_PER_SECOND  # noqa: E402
from epcg_spec.domains.witness import estimate  # noqa: E402
from epcg_spec.domains.witness.layouts import layout_job  # noqa: E402
from epcg_spec.domains.witness.lines import line_set  # noqa: E402
from epcg_spec.search.blocks import use_threads  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
SPECS = ROOT / "specs"
PANELS = ((3, 4), (4, 2)) if SMOKE else ((4, 4), (5, 2))  # (size, hexagons)
PUZZLES = 20 if SMOKE else 300


def kernel_seconds(spec: epcg_spec.Spec) -> tuple[int, int, float]:
    """(layouts, words of the line bit set, best seconds of the layout kernel over all)."""
    problem = spec._problem()
    lines = line_set(problem.spec.grid)
    job = layout_job(problem._plan, lines)
    job.work(0, 1)  # compiled (or loaded) before timing
    best = float("inf")
    for _ in range(5):
        began = time.perf_counter()
        job.work(0, job.units)
        best = min(best, time.perf_counter() - began)
    return problem._plan.space.max_rank, (lines.count + 63) // 64, best


def puzzles_per_second(box: int) -> float:
    """The cheapest puzzles of a grid (one clue removed) made a second, with their files."""
    cells = box**4
    text = "kind: sudoku\nname: cheap\n"
    text += f"box: {box}\ngenerate: {{puzzles: {PUZZLES}, clues: {cells - 1}}}\n"
    problem = epcg_spec.loads(text)._problem()
    job = problem.job("puzzles", {}, RunContext(seed=1))
    job.work(0, 1)  # the kernels loaded
    began = time.perf_counter()
    job.work(0, PUZZLES)
    return PUZZLES / (time.perf_counter() - began)


def row(what: str, measured: float, bound: float) -> None:
    print(f"{what:<48} {measured:>12.3g} {bound:>12.3g} {bound / measured:>9.2f}x")


def main() -> None:
    use_threads(1)
    print(f"{'rate (one thread)':<48} {'measured':>12} {'assumed':>12} {'bound/measured':>9}")
    layouts, _, seconds = kernel_seconds(epcg_spec.load(SPECS / "witness-pieces-3x3.yaml"))
    row("witness layouts/s, pieces 3x3", layouts / seconds, estimate.LAYOUTS_PER_SECOND_PER_THREAD)
    for size, hexagons in PANELS:
        text = (SPECS / "witness-must-cross.yaml").read_text()
        text = text.replace("size: [3, 3]", f"size: [{size}, {size}]")
        spec = epcg_spec.loads(text, params={"hexagons": hexagons})
        layouts, words, seconds = kernel_seconds(spec)
        row(
            f"witness words/s, must-cross {size}x{size} ({words:,} words)",
            layouts * words / seconds,
            estimate.WORDS_PER_SECOND_PER_THREAD,
        )
    for box in (2, 3, 4):
        side = box * box
        row(f"sudoku puzzles/s, {side} x {side}", puzzles_per_second(box), PUZZLES_PER_SECOND[box])


if __name__ == "__main__":
    main()
