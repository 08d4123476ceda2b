"""Exhaustive layouts: the paper's figure, and every layout's solutions against the oracle."""

import json
from pathlib import Path

import numpy as np

from epcg_spec.cli.main import main
from epcg_spec.core.context import RunContext
from epcg_spec.domains.witness.layouts import Library, layout_job, layout_plan, run_layouts
from epcg_spec.domains.witness.lines import line_path, line_set
from epcg_spec.domains.witness.model import COLOUR_NAMES
from epcg_spec.spec.load import load_spec
from tests.oracles import witness_oracle as oracle

from .helpers import LIBRARY

SPECS = Path(__file__).parents[3] / "specs"


def build_json(tmp_path, spec, *args) -> dict:
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "--json", *args]) == 0
    return json.loads((tmp_path / "out" / "result.json").read_text())


def test_three_pieces_on_3x3_reproduce_the_papers_figure(tmp_path):
    result = build_json(tmp_path, SPECS / "witness-pieces-3x3.yaml")
    assert result["space_size"] == 1_161_216 == 84 * 24**3
    assert result["count"] == 113_296  # Sturtevant & Ota, AIIDE 2018
    assert result["unique"] == 15_196
    assert result["invalid"] == 0
    assert sum(result["solutions_histogram"].values()) == 113_296
    assert [b["score"] for b in result["best"]] == [1, 1, 1]
    ranks = [b["rank"] for b in result["best"]]
    assert ranks == sorted(ranks)


def test_a_best_panel_builds_back_with_its_count(tmp_path):
    build_json(tmp_path, SPECS / "witness-pieces-3x3.yaml")
    again = tmp_path / "again"
    panel = tmp_path / "out" / "best-0.yaml"
    assert panel.read_text().startswith("kind: witness\n")  # no schema comment: no schemas/ here
    assert main(["build", str(panel), "--out", str(again)]) == 0
    assert json.loads((again / "result.json").read_text())["count"] == 1


def write(tmp_path, text: str) -> Path:
    path = tmp_path / "layout.yaml"
    path.write_text(text)
    return path


def engine_solutions(spec) -> tuple[dict, object]:
    """{rank: sorted solution paths} of every solvable layout, and the tally."""
    lines = line_set(spec.grid)
    plan = layout_plan(spec)
    outcome = run_layouts(layout_job(plan, lines, Library(1, None)), RunContext())
    ranks = np.concatenate(outcome.tally.library)
    bits = np.concatenate(outcome.tally.library_bits)
    found = {}
    for rank, row in zip(ranks.tolist(), bits, strict=True):
        ids = np.flatnonzero(np.unpackbits(row.view(np.uint8), bitorder="little"))
        found[rank] = sorted(tuple(line_path(spec.grid, lines.bits[i])) for i in ids)
    return found, outcome.tally


def oracle_solutions(spec, placements) -> tuple[dict, int]:
    every = oracle.lines(spec.grid.width, spec.grid.height, spec.grid.start, spec.grid.goal)
    found, invalid = {}, 0
    for rank, panel in enumerate(oracle.layouts(spec.grid.width, spec.grid.height, placements)):
        if panel is None:
            invalid += 1
            continue
        base = {spec.grid.cell_xy(s.at): s for s in spec.panel.symbols}  # cell symbols here
        if base.keys() & panel["cells"].keys():
            invalid += 1
            continue
        panel["start"], panel["goal"] = spec.grid.start, spec.grid.goal
        for cell, symbol in base.items():
            panel["cells"][cell] = (
                symbol.kind,
                COLOUR_NAMES[symbol.value] if symbol.kind == "square" else symbol.value,
            )
        paths = sorted(tuple(p) for p in every if oracle.solves(panel, p))
        if paths:
            found[rank] = paths
    return found, invalid


def test_squares_and_stars_match_the_oracle(tmp_path):
    spec = load_spec(
        write(
            tmp_path,
            """
kind: witness
panel: {size: [3, 2]}
layout:
  - {place: square, count: 2, values: [white, black]}
  - {place: star, count: 2, values: [white, black]}
  - {place: cannot_cross, count: 1, within: vertices}
""",
        )
    ).spec
    ours, tally = engine_solutions(spec)
    placements = [
        ("square", 2, ["white", "black"], "cells"),
        ("star", 2, ["white", "black"], "cells"),
        ("cannot_cross", 1, [0], "vertices"),
    ]
    theirs, invalid = oracle_solutions(spec, placements)
    assert ours == theirs
    assert tally.invalid == invalid > 0
    assert tally.unique == sum(len(p) == 1 for p in theirs.values())


def test_pieces_beside_a_base_panel_match_the_oracle(tmp_path):
    spec = load_spec(
        write(
            tmp_path,
            """
kind: witness
panel:
  size: [3, 3]
  constraints: [{square: white, at: [0, 0]}, {square: black, at: [2, 2]}]
layout:
  - {place: piece, count: 2, values: [dot, I2-h, I2-v, L3-sw, O4]}
""",
        )
    ).spec
    ours, tally = engine_solutions(spec)
    names = ("dot", "I2-h", "I2-v", "L3-sw", "O4")
    shapes = [frozenset(p.cells) for p in LIBRARY if p.name in names]
    theirs, invalid = oracle_solutions(spec, [("piece", 2, shapes, "cells")])
    assert ours == theirs
    assert tally.invalid == invalid


def test_line_symbols_match_the_oracle(tmp_path):
    spec = load_spec(
        write(
            tmp_path,
            """
kind: witness
panel: {size: [2, 2], start: [1, 0], goal: [0, 2]}
layout:
  - {place: triangle, count: 2}
  - {place: must_cross, count: 1, within: vertices}
  - {place: cannot_cross, count: 1, within: edges}
""",
        )
    ).spec
    ours, _ = engine_solutions(spec)
    placements = [
        ("triangle", 2, [1, 2, 3], "cells"),
        ("must_cross", 1, [0], "vertices"),
        ("cannot_cross", 1, [0], "edges"),
    ]
    theirs, _ = oracle_solutions(spec, placements)
    assert ours == theirs


def test_the_thread_count_changes_nothing(tmp_path):
    spec = SPECS / "witness-must-cross.yaml"
    one = build_json(tmp_path, spec, "--threads", "1", "--param", "hexagons=3")
    two = build_json(tmp_path, spec, "--threads", "2", "--param", "hexagons=3")
    for key in ("count", "unique", "solutions_histogram", "best"):
        assert one[key] == two[key]
