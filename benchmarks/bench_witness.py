"""The three-piece layout enumerations of The Witness (3x3: 1,161,216 panels; 4x4: 7,741,440)
by the engine, against a plain-Python reference of the same check written here: for every
panel, every candidate line, every region holding pieces, an exact tiling. The reference is
timed on a random sample of panels and its time for the whole space extrapolated; so is the
engine's own compiled check of one panel (`rules.solve`), which shows how much of the gain
comes from enumerating line by line per block rather than panel by panel.

Then the must-cross experiment (every set of 4 must-cross symbols on the edges and vertices
of a 4x4 panel: C(65, 4) = 677,040 panels, specs/witness-must-cross.yaml with size [4, 4]):
the engine against a plain-Python reference of the same question, run whole in the same
run: its own lines (a depth-first walk from corner to corner), each slot as the set of
lines through it (a Python int), and each panel's solutions as the intersection of its
slots' sets. Both must give the same number of panels per solution count.

Run: python benchmarks/bench_witness.py [--smoke]   (smoke: 3x3 only, 50 sampled panels;
must-cross on 3x3)
"""

from __future__ import annotations

import random
import sys
import time
from itertools import combinations, pairwise
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import epcg_spec  # noqa: E402
from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.domains.witness.layouts import layout_job, layout_plan, run_layouts  # noqa: E402
from epcg_spec.domains.witness.lines import line_path, line_set  # noqa: E402
from epcg_spec.domains.witness.model import Grid, Panel, Symbol, WitnessSpec  # noqa: E402
from epcg_spec.domains.witness.pieces import default_library  # noqa: E402
from epcg_spec.domains.witness.rules import solve  # noqa: E402
from epcg_spec.spec.document import Document  # noqa: E402
from epcg_spec.spec.load import check_document  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
SIZES = (3,) if SMOKE else (3, 4)
SAMPLES = {3: 50, 4: 10} if SMOKE else {3: 4000, 4: 150}
SEED = 2018


def spec_for(n: int) -> WitnessSpec:
    """The n x n three-piece layout spec, read as a spec file is (so it has its document)."""
    data = {
        "kind": "witness",
        "name": f"pieces-{n}x{n}",
        "panel": {"size": [n, n]},
        "layout": [{"place": "piece", "count": 3}],
        "search": {"top": 1},
    }
    doc = Document(source=str(ROOT / f"pieces-{n}x{n}.yaml"), data=data, format="yaml")
    return check_document(doc, {}).spec


def engine(n: int) -> tuple[float, float, int]:
    """(seconds to get the kernels ready, seconds of the enumeration, solvable panels)."""
    spec = spec_for(n)
    began = time.perf_counter()
    lines = line_set(spec.grid)
    outcome = run_layouts(layout_job(layout_plan(spec), lines), RunContext())
    seconds = outcome.report.seconds
    return time.perf_counter() - began - seconds, seconds, outcome.tally.solvable


# ---- the plain-Python reference ----


def reference_regions(n: int) -> list[list[int]]:
    """For every line, the region number of each cell (cells y * n + x)."""
    grid = Grid(n, n, (0, 0), (n, n))
    lines = line_set(grid)
    out = []
    for i in range(lines.count):
        path = line_path(grid, lines.bits[i])
        cut = {frozenset(pair) for pair in pairwise(path)}
        label = [-1] * (n * n)
        region = 0
        for c in range(n * n):
            if label[c] >= 0:
                continue
            label[c] = region
            todo = [c]
            while todo:
                u = todo.pop()
                x, y = u % n, u // n
                steps = (
                    (x + 1, y, ((x + 1, y), (x + 1, y + 1))),
                    (x - 1, y, ((x, y), (x, y + 1))),
                    (x, y + 1, ((x, y + 1), (x + 1, y + 1))),
                    (x, y - 1, ((x, y), (x + 1, y))),
                )
                for nx, ny, wall in steps:
                    v = ny * n + nx
                    if 0 <= nx < n and 0 <= ny < n and label[v] < 0 and frozenset(wall) not in cut:
                        label[v] = region
                        todo.append(v)
            region += 1
        out.append(label)
    return out


def reference_tiles(cells: set, shapes: list) -> bool:
    """Place the shapes one by one, each with its first cell on the lowest free cell."""
    if not cells:
        return not shapes
    low = min(cells, key=lambda c: (c[1], c[0]))
    for k, shape in enumerate(shapes):
        if shape in shapes[:k]:
            continue
        ax, ay = shape[0]
        placed = {(low[0] + x - ax, low[1] + y - ay) for x, y in shape}
        if placed <= cells and reference_tiles(cells - placed, shapes[:k] + shapes[k + 1 :]):
            return True
    return False


def reference_count(n: int, labels: list[list[int]], cells: tuple, types: tuple, shapes) -> int:
    """How many lines solve the panel with piece types[k] at cells[k]."""
    solutions = 0
    for label in labels:
        held: dict[int, list] = {}
        for c, t in zip(cells, types, strict=True):
            held.setdefault(label[c], []).append(shapes[t])
        ok = True
        for region, inside in held.items():
            area = [(c % n, c // n) for c in range(n * n) if label[c] == region]
            if sum(len(s) for s in inside) != len(area) or not reference_tiles(set(area), inside):
                ok = False
                break
        solutions += ok
    return solutions


def sampled_panels(n: int, samples: int) -> list[tuple[tuple, tuple]]:
    rng = random.Random(SEED)
    every = list(combinations(range(n * n), 3))
    return [(rng.choice(every), tuple(rng.randrange(24) for _ in range(3))) for _ in range(samples)]


def reference(n: int, samples: int) -> tuple[float, list[int]]:
    """(seconds per panel, solutions of each sampled panel) of the plain-Python check."""
    shapes = [sorted(p.cells, key=lambda c: (c[1], c[0])) for p in default_library()]
    labels = reference_regions(n)
    panels = sampled_panels(n, samples)
    began = time.perf_counter()
    counts = [reference_count(n, labels, cells, types, shapes) for cells, types in panels]
    return (time.perf_counter() - began) / samples, counts


def one_by_one(n: int, samples: int) -> tuple[float, list[int]]:
    """(seconds per panel, solutions of each sampled panel) of the engine's compiled check
    of a single panel against every line."""
    spec = spec_for(n)
    lines = line_set(spec.grid)
    panels = [
        Panel(spec.grid, tuple(Symbol("piece", c, t) for c, t in zip(cells, types, strict=True)))
        for cells, types in sampled_panels(n, samples)
    ]
    solve(panels[0], spec.pieces, lines, 1 << 40, 0)
    began = time.perf_counter()
    counts = [solve(p, spec.pieces, lines, 1 << 40, 0).count for p in panels]
    return (time.perf_counter() - began) / samples, counts


# ---- must-cross: the engine and a plain-Python reference ----

MUST_CROSS_SIZE = 3 if SMOKE else 4
MARKS = 4


def must_cross_engine(n: int) -> tuple[float, dict[str, int]]:
    """(seconds of the enumeration, kernels ready beforehand; panels per solution count)."""
    text = (ROOT / "specs" / "witness-must-cross.yaml").read_text()
    text = text.replace("size: [3, 3]", f"size: [{n}, {n}]")
    spec = epcg_spec.loads(text, params={"hexagons": MARKS}, name=str(ROOT / "must-cross"))
    spec.build(threads=numba.get_num_threads())  # compile, or load from the cache
    result = spec.build(threads=numba.get_num_threads())
    return result.seconds, result.data["solutions_histogram"]


def reference_lines(n: int) -> list[set[int]]:
    """Every line from corner (0, 0) to corner (n, n) of an n x n panel, as the set of the
    slots it passes: its vertices as ("v", x, y), its edges as ("e", a, b) numbered here."""
    slot: dict[tuple, int] = {}

    def number(key: tuple) -> int:
        return slot.setdefault(key, len(slot))

    found: list[set[int]] = []
    path = [(0, 0)]
    seen = {(0, 0)}

    def walk(x: int, y: int) -> None:
        if (x, y) == (n, n):
            slots = {number(("v", *v)) for v in path}
            slots |= {number(("e", *sorted((a, b)))) for a, b in pairwise(path)}
            found.append(slots)
            return
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx <= n and 0 <= ny <= n and (nx, ny) not in seen:
                seen.add((nx, ny))
                path.append((nx, ny))
                walk(nx, ny)
                path.pop()
                seen.remove((nx, ny))

    walk(0, 0)
    return found


def must_cross_reference(n: int) -> tuple[float, dict[int, int]]:
    """(seconds, panels per solution count) of every set of MARKS slots, in plain Python."""
    began = time.perf_counter()
    lines = reference_lines(n)
    slots = 2 * n * (n + 1) + (n + 1) ** 2  # edges, then vertices
    through = [0] * slots
    for i, line in enumerate(lines):
        for s in line:
            through[s] |= 1 << i
    histogram: dict[int, int] = {}
    for chosen in combinations(through, MARKS):
        common = chosen[0]
        for other in chosen[1:]:
            common &= other
        count = common.bit_count()
        histogram[count] = histogram.get(count, 0) + 1
    return time.perf_counter() - began, histogram


def must_cross() -> None:
    n = MUST_CROSS_SIZE
    engine_seconds, engine_histogram = must_cross_engine(n)
    python_seconds, python_histogram = must_cross_reference(n)
    solved = {str(c): k for c, k in sorted(python_histogram.items()) if c > 0}
    assert engine_histogram == solved, "the reference and the engine disagree"
    solvable, panels = sum(solved.values()), sum(python_histogram.values())
    print(
        f"must-cross {n}x{n}, {MARKS} marks, {panels:,} panels, {solvable:,} solvable: engine "
        f"{engine_seconds:.3f} s, plain Python {python_seconds:.2f} s: "
        f"{python_seconds / engine_seconds:,.1f}x"
    )


def main() -> None:
    print(f"numba threads: {numba.get_num_threads()}")
    must_cross()
    for n in SIZES:
        ready, seconds, solvable = engine(n)
        python, expected = reference(n, SAMPLES[n])
        compiled, counts = one_by_one(n, SAMPLES[n])
        assert counts == expected, "the reference and the engine disagree"
        total = len(list(combinations(range(n * n), 3))) * 24**3
        print(
            f"{n}x{n}, 3 pieces, {total:,} panels, {solvable:,} solvable: engine {seconds:.2f} s "
            f"({total / seconds:,.0f} panels/s; kernels ready in {ready:.1f} s)"
        )
        for label, per_panel in (("plain Python", python), ("compiled, one by one", compiled)):
            whole = per_panel * total
            print(
                f"  {label}: {per_panel * 1e3:.3f} ms/panel on {SAMPLES[n]:,} sampled panels, "
                f"about {whole:,.0f} s for all; ratio {whole / seconds:,.0f}x"
            )


if __name__ == "__main__":
    main()
