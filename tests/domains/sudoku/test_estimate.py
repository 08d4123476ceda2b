"""The estimate of generating puzzles, from the spec alone: floors on their files (disk, and
memory, where they wait to be written) and time; none for solving one given puzzle, and a
count of every complete grid is said to be unbounded."""

from __future__ import annotations

from pathlib import Path

import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.compile import budget
from epcg_spec.core.context import RunContext

SPECS = Path(__file__).resolve().parents[3] / "specs"
GiB = 2.0**30


@pytest.fixture
def machine(monkeypatch):
    monkeypatch.setattr(budget, "available_memory", lambda: 16 * GiB)
    monkeypatch.setattr(budget, "free_disk", lambda path: 100 * GiB)


def test_explain_states_the_floors_of_five_minimal_puzzles():
    rows = dict(epcg_spec.load(SPECS / "sudoku-minimal.yaml").explain())
    # 5 x 7,356 bytes: two text grids of 9 x (9 + 3) bytes, and the SVG pictures of a grid
    # with no clue and of its solution
    assert rows["estimated memory"] == (
        "at least 35.9 KiB: every puzzle's files, held until they are written"
    )
    assert rows["estimated disk"] == (
        "at least 35.9 KiB: 7,356 bytes a puzzle or more (its grid and its solution as text "
        "and as SVG pictures)"
    )
    assert rows["estimated time"] == "at least 0 s: 5 puzzles at most 25,000 a second"
    assert rows["count"] == (
        "every complete 9 x 9 grid, with no bound but --limit or --time-limit: not estimated"
    )


def test_the_floors_hold_for_every_puzzle_built(tmp_path):
    spec = epcg_spec.load(SPECS / "sudoku-4x4.epcg")
    problem = spec._problem()
    assert problem.bytes_per_puzzle() == 2_906
    assert problem.estimate(RunContext(shard=(1, 2))).disk == 2 * 2_906  # puzzles 1 and 2
    spec.build(out=tmp_path / "out")
    for k in range(3):
        names = [f"puzzle-{k}.txt", f"solution-{k}.txt", f"puzzle-{k}.svg", f"solution-{k}.svg"]
        sizes = [(tmp_path / "out" / name).stat().st_size for name in names]
        assert sizes[:2] == [4 * (4 + 2)] * 2  # the text grids are exact
        assert 2_906 <= sum(sizes) < 2 * 2_906


def test_a_given_puzzle_has_no_estimate_and_a_limit_bounds_the_count(tmp_path):
    rows = epcg_spec.load(SPECS / "sudoku-escargot.yaml").explain()
    assert not [label for label, _ in rows if "estimated" in label or label == "count"]
    path = tmp_path / "limited.yaml"
    path.write_text("kind: sudoku\nname: limited\nbox: 2\nlimit: 100\n")
    assert dict(epcg_spec.load(path).explain())["count"] == (
        "every complete 4 x 4 grid, up to the spec's limit of 100; its time is not estimated"
    )


def test_puzzles_beyond_the_free_disk_are_refused_and_force_is_taken(
    tmp_path, capsys, machine, monkeypatch
):
    path = tmp_path / "many.yaml"
    path.write_text("kind: sudoku\nname: many\nbox: 4\ngenerate: {puzzles: 100000}\n")
    monkeypatch.setattr(budget, "free_disk", lambda folder: 1 * GiB)
    assert main(["build", str(path), "--out", str(tmp_path / "many")]) == 1
    # 100,000 x 17,804 bytes
    assert capsys.readouterr().err == (
        "error: this build would need about 1.7 GiB of disk (1.0 GiB free); make the spec "
        "smaller, or pass --force to start it anyway\n"
    )
    assert not (tmp_path / "many").exists()
    monkeypatch.setattr(budget, "MAX_SECONDS", 1e-9)
    argv = ["build", str(SPECS / "sudoku-4x4.epcg"), "--out", str(tmp_path / "out"), "-q"]
    assert main(argv) == 1
    assert "more than the 0 s limit" in capsys.readouterr().err
    assert main([*argv, "--force"]) == 0
    assert (tmp_path / "out" / "result.json").exists()
    capsys.readouterr()
