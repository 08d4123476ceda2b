"""The overlapping model on hex grids: every rhombus window of a result occurs in the sample
(windows walked through the geometric oracle's neighbours), and tiny maps count as brute force."""

from __future__ import annotations

import json

import numpy as np
import pytest

from epcg_spec.cli.main import main
from epcg_spec.domains.wfc.formats_csv import read_csv
from epcg_spec.domains.wfc.network import build_network
from epcg_spec.search import backtrack
from epcg_spec.spec.load import load_spec
from tests.oracles.wfc_worlds_oracle import brute_count, hex_neighbours

LAKES = """2,2,2,2,2,2,2,2,2,2,2,2
2,2,2,1,2,2,2,2,2,2,2,2
2,2,1,0,1,2,2,2,2,2,2,2
2,1,0,0,0,1,2,2,2,2,2,2
2,2,1,0,1,2,2,2,1,2,2,2
2,2,2,1,2,2,2,1,0,1,2,2
2,2,2,2,2,2,1,0,0,0,1,2
2,2,2,2,2,2,2,1,0,1,2,2
2,2,2,2,2,2,2,2,1,2,2,2
2,2,2,2,2,2,2,2,2,2,2,2
"""
# axial +q and +r as oracle directions: east and southeast (pointy), southeast and south (flat)
ALONG = {"pointy": (0, 5), "flat": (5, 4)}


def windows(grid: np.ndarray, layout: str, n: int) -> set[tuple]:
    """Every n x n rhombus lying wholly inside a (rows, columns) hex grid."""
    rows, columns = grid.shape
    near = hex_neighbours(layout, columns, rows, (False, False))
    q_step, r_step = ALONG[layout]
    found = set()
    for start in range(rows * columns):
        cells, ok = [], True
        row_start = start
        for _ in range(n):
            cell = row_start
            line = []
            for _ in range(n):
                if cell is None:
                    ok = False
                    break
                line.append(cell)
                cell = near.get((cell, q_step))
            cells.append(line)
            row_start = near.get((row_start, r_step)) if row_start is not None else None
        if ok and all(len(line) == n for line in cells):
            found.add(tuple(int(grid.flat[c]) for line in cells for c in line))
    return found


@pytest.mark.parametrize("layout", ["pointy", "flat"])
def test_every_rhombus_of_a_hex_result_is_in_the_sample(write_spec, tmp_path, layout):
    (tmp_path / "lakes.csv").write_text(LAKES)
    lakes = str(tmp_path / "lakes.csv")
    spec = write_spec(model="overlapping", grid="hex", orientation=layout, sample=lakes,
                      N=2, width=16, height=12, seed=3)  # fmt: skip
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    run = load_spec(spec).spec.runs[0]
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    assert result["outputs"][0]["status"] == "solved"
    sample = read_csv(LAKES, "lakes")[0]
    # the output as sample values: each cell shows its pattern's own cell
    model = build_network(run)
    outcome = backtrack.solve(model, 3, backtrack.Policy(), backtrack.prepare(model))
    shown = run.patterns.patterns[outcome.values, 0, 0].reshape(12, 16)
    ids = np.array([2, 1, 0])[shown]  # values number the sample's ids by first appearance
    got, known = windows(ids, layout, 2), windows(sample, layout, 2)
    assert got <= known and len(got) > 3
    assert (tmp_path / "out" / "spec.svg").read_text().count("<polygon") == 16 * 12


def test_a_tiny_hex_overlapping_map_counts_as_brute_force(write_spec, tmp_path):
    (tmp_path / "s.csv").write_text("0,0,1,0\n0,1,1,0\n0,0,0,0\n")
    spec = write_spec(model="overlapping", grid="hex", sample=str(tmp_path / "s.csv"),
                      N=2, width=3, height=2)  # fmt: skip
    run = load_spec(spec).spec.runs[0]
    near = hex_neighbours("pointy", 3, 2, (False, False))
    expected = brute_count(6, run.values, near, run.patterns.sides)
    found, complete = backtrack.count(build_network(run))
    assert complete and found == expected > 0
    # each table is the transpose of its opposite direction's
    for d in range(6):
        assert np.array_equal(run.patterns.sides[d], run.patterns.sides[(d + 3) % 6].T)


def test_hex_rhombi_take_their_half_turn_only(write_spec, tmp_path, capsys):
    (tmp_path / "s.csv").write_text("0,1,2\n3,4,5\n6,7,8\n")
    base = {"model": "overlapping", "grid": "hex", "sample": str(tmp_path / "s.csv"), "N": 2}
    one = load_spec(write_spec("one", **base)).spec.runs[0]
    two = load_spec(write_spec("two", **base, symmetry=2)).spec.runs[0]
    assert two.values == 2 * one.values
    assert main(["validate", str(write_spec("bad", **base, symmetry=3))]) == 1
    assert "half turn" in capsys.readouterr().out
