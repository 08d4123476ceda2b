"""The witness kind through the command line: examples, outputs, and located errors."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from epcg_spec.spec.dsl import load_dsl
from epcg_spec.spec.yaml_loader import load_yaml
from tests.oracles import witness_oracle

SPECS = Path(__file__).parents[3] / "specs"
EXAMPLES = sorted(SPECS.glob("witness*"))


def test_every_example_validates(capsys):
    assert EXAMPLES
    assert main(["validate", *map(str, EXAMPLES)]) == 0


def test_a_panel_is_solved_and_drawn(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["build", str(SPECS / "witness-panel.yaml"), "--out", str(out)]) == 0
    summary = capsys.readouterr().out.splitlines()[0]
    assert summary == "witness-panel: 4x4 panel, 8,512 candidate lines, 1 solution"
    result = json.loads((out / "result.json").read_text())
    assert result["count"] == 1
    assert result["space_size"] == 8512
    assert result["best"][0]["state"]["line"][0] == [0, 0]
    assert result["best"][0]["state"]["line"][-1] == [4, 4]
    for name in ("panel.svg", "solution-0.svg"):
        root = ET.fromstring((out / name).read_text())
        assert root.tag.endswith("svg")
    drawn = (out / "solution-0.svg").read_text()
    assert drawn.count("<polygon") >= 2 + 2 + 2  # hexagons, stars, triangles
    assert "<polyline" in drawn
    assert ">solution 0 of 1 (numbered from 0)</text>" in drawn  # as its file name counts


def test_the_dsl_example_reads_like_its_yaml_form(capsys):
    source = SPECS / "witness-joint-3x3.epcg"
    assert main(["fmt", "--to", "yaml", str(source)]) == 0
    as_yaml = capsys.readouterr().out
    assert load_yaml(as_yaml, "x.yaml").data == load_dsl(source.read_text(), str(source)).data


def test_count_sample_and_explain(capsys):
    spec = str(SPECS / "witness-pieces-3x3.yaml")
    assert main(["count", spec]) == 0
    assert "1,161,216 layouts" in capsys.readouterr().out
    assert main(["sample", spec, "--rank", "86", "--json"]) == 0
    sample = json.loads(capsys.readouterr().out)["samples"][0]
    assert [c["piece"] for c in sample["state"]["panel"]["constraints"]] == [
        "dot",
        "I3-h",
        "L4-h-sw",
    ]
    assert main(["explain", spec]) == 0
    assert "C(9, 3) positions x 24^3 values" in capsys.readouterr().out


def test_params_override_the_layout_count(tmp_path, capsys):
    spec = str(SPECS / "witness-must-cross.yaml")
    assert main(["count", spec, "--param", "hexagons=2"]) == 0
    assert "780 layouts" in capsys.readouterr().out  # C(40, 2)


def test_sharding_one_panel_or_a_joint_search_is_refused(tmp_path, capsys):
    for name, why in (
        ("witness-panel.yaml", "mode solve checks one panel"),
        ("witness-joint-3x3.epcg", "a joint search needs every candidate panel in one run"),
    ):
        argv = ["build", str(SPECS / name), "--out", str(tmp_path / "o"), "--shard", "0/2"]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "--shard is refused for `build` of this witness spec" in err and why in err, err


BROKEN = {
    "panel:\n  size: [3, 9]\n": (
        "4:13: a panel side must be 1..8 cells, not 9; a region must fit a 64-bit board"
    ),
    "panel:\n  size: [3, 3]\n  goal: [0, 0]\n": "5:9: the goal is the start vertex",
    "panel:\n  size: [3, 3]\n  constraints:\n    - {square: whte, at: [0, 0]}\n": (
        "6:16: unknown colour 'whte'; did you mean 'white'?"
    ),
    "panel:\n  size: [3, 3]\n  constraints:\n    - {piece: dot, at: [3, 0]}\n": (
        "6:24: cell [3, 0] is off the panel; cells are [x, y] with 0 <= x < 3, 0 <= y < 3"
    ),
    "panel:\n  size: [3, 3]\n  constraints:\n    - {star: white, at: [1, 1]}\n"
    "    - {triangle: 2, at: [1, 1]}\n": "7:7: this cell already holds a symbol (at 6:7)",
    "panel:\n  size: [3, 3]\n  constraints:\n    - {must_cross: [[0, 0], [1, 0]]}\n"
    "    - {square: white, at: [0, 0]}\n    - {cannot_cross: [[1, 0], [0, 0]]}\n": (
        "8:7: edge [[0, 0], [1, 0]] is both must_cross (at 6:7) and cannot_cross (here); "
        "the line cannot both use it and avoid it: drop one"
    ),
    "panel:\n  size: [3, 3]\n  constraints:\n    - {cannot_cross: [2, 1]}\n"
    "    - {cannot_cross: [2, 1]}\n": (
        "7:7: vertex [2, 1] is cannot_cross twice (first at 6:7); drop one"
    ),
    "panel:\n  size: [3, 3]\n  constraints:\n    - {must_cross: [[0, 0], [1, 1]]}\n": (
        "6:20: [0, 0] and [1, 1] are not neighbours, so not an edge"
    ),
    "panel:\n  size: [3, 3]\n  constraints:\n    - {piece: dot}\n": (
        "6:7: a piece needs its cell; add at: [x, y]"
    ),
    "panel:\n  size: [3, 3]\npieces:\n  bar: ['#o#']\n": (
        "6:8: piece 'bar': row 1 holds 'o'; draw cells with '#' and gaps with '.'"
    ),
    "panel:\n  size: [3, 3]\njoint:\n  panels: 3\n": (
        "5:1: joint sets choose among the panels of a layout; add a 'layout'"
    ),
    "panel:\n  size: [3, 3]\nsearch:\n  backend: branch_and_bound\n": (
        "6:12: branch_and_bound chooses joint sets of panels"
    ),
    "panel:\n  size: [3, 3]\nlayout:\n  - {place: square, count: 10}\n": (
        "6:28: count must be 1..9 (the cells of a 3x3 panel), not 10"
    ),
    "panel:\n  size: [3, 3]\nlayout:\n  - {place: piece, count: 1, within: edges}\n": (
        "6:38: a piece goes on cells, not on edges"
    ),
    "panel:\n  size: [8, 8]\nlayout:\n  - {place: piece, count: 6}\n": "6:3: the layouts number",
    "panel:\n  size: [3, 3]\nobjective: most-solutions\n": (
        "5:1: objective ranks the panels of a layout search"
    ),
    "panel:\n  size: [3, 3]\nlayout: [{place: piece, count: 3}]\nsearch: {limit: 5}\n": (
        "6:10: limit stops counting the solutions of a single panel"
    ),
    "panel:\n  size: [3, 3]\nlayuot: []\n": (
        "5:1: unknown key 'layuot' in the spec; did you mean 'layout'?"
    ),
}


@pytest.mark.parametrize(("body", "expected"), list(BROKEN.items()))
def test_a_broken_spec_gets_one_located_line(tmp_path, capsys, body, expected):
    spec = tmp_path / "broken.yaml"
    spec.write_text("kind: witness\nname: broken\n" + body)
    code = main(["build", str(spec), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 1
    assert len(err.splitlines()) == 1
    assert err.startswith(f"{spec}:{expected}")
    assert not (tmp_path / "out").exists()


def test_a_layout_build_says_how_many_lines_the_fixed_symbols_leave(tmp_path, capsys, monkeypatch):
    """It said 152 candidate lines where `explain` said 184, without saying why."""
    monkeypatch.setenv("EPCG_CACHE_DIR", str(tmp_path / "cache"))  # whatever ran before
    spec = tmp_path / "l.yaml"
    spec.write_text(
        "kind: witness\npanel:\n  size: [3, 3]\n  constraints:\n    - {must_cross: [1, 1]}\n"
        "layout:\n  - {place: triangle, count: 1, values: [1, 3]}\nobjective: fewest-solutions\n"
    )
    lines = "184 (counted; listed on the first build)"
    assert main(["explain", str(spec), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["candidate lines"] == lines
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    line = capsys.readouterr().out.splitlines()[2]
    assert main(["explain", str(spec), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["candidate lines"] == "184 (cached)"
    every = witness_oracle.lines(3, 3)
    crossing = [path for path in every if (1, 1) in path]  # the must_cross vertex
    assert (len(every), len(crossing)) == (184, 152)
    assert line.startswith("  152 of the 184 candidate lines meet the fixed symbols; ")


SCHEMA_AND_MORE = {
    # a schema violation (a misspelt key, a triangle of 5) was reported alone: the unknown
    # colour, the cell off the panel, the count and the limit only once it was fixed
    "panel:\n  size: [3, 3]\n  constraints:\n    - {squre: white, at: [0, 0]}\n"
    "    - {star: whte, at: [1, 1]}\n    - {triangle: 5, at: [2, 2]}\n"
    "    - {piece: dot, at: [3, 0]}\nlayout:\n  - {place: square, count: 10}\n"
    "  - {place: triangle, cuont: 1}\nsearch: {limit: 5}\n": [
        "6:8: unknown key 'squre' in panel.constraints[0]; did you mean 'square'?",
        "7:14: unknown colour 'whte'; did you mean 'white'?",
        "8:18: panel.constraints[2].triangle is 5, out of range: it must be <= 3",
        "9:24: cell [3, 0] is off the panel; cells are [x, y] with 0 <= x < 3, 0 <= y < 3",
        "11:28: count must be 1..9 (the cells of a 3x3 panel), not 10",
        "12:23: unknown key 'cuont' in layout[1]; did you mean 'count'?",
        "13:10: limit stops counting the solutions of a single panel; layouts count every "
        "solution; remove it",
    ],
    "panel:\n  size: [3, 3]\nlayout: [{place: triangle, count: 1}]\nsearch: {limit: 5, tpo: 3}\n"
    "objectiv: most-solutions\n": [
        "6:10: limit stops counting the solutions of a single panel; layouts count every "
        "solution; remove it",
        "6:20: unknown key 'tpo' in search; did you mean 'top'?",
        "7:1: unknown key 'objectiv' in the spec; did you mean 'objective'?",
    ],
    # the panel's size (and the piece library) are what the other checks read: alone
    "panel:\n  size: [3, 99999999999999999999]\n  constraints:\n    - {star: whte, at: [1, 1]}\n": [
        "4:13: panel.size[1] is 99999999999999999999, out of range",
    ],
    "panel:\n  size: [3, 3]\n  constraints:\n    - {piece: bar, at: [1, 1]}\npieces: {bar: 5}\n": [
        "7:15: pieces.bar must be a list, not 5",
    ],
}


@pytest.mark.parametrize("body", list(SCHEMA_AND_MORE), ids=range(len(SCHEMA_AND_MORE)))
def test_schema_and_other_mistakes_are_reported_in_one_run(tmp_path, capsys, body):
    spec = tmp_path / "bad.yaml"
    spec.write_text("kind: witness\nname: bad\n" + body)
    assert main(["validate", "-q", str(spec)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(SCHEMA_AND_MORE[body]), lines
    for line, expected in zip(lines, SCHEMA_AND_MORE[body], strict=True):
        assert line.startswith(f"{spec}:{expected}"), line
