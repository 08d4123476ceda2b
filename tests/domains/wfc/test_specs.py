"""The reference's XML read as it is, and broken specs reported in one located line each."""

from __future__ import annotations

import json
import shutil

import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.search import backtrack
from epcg_spec.search.driver import Report
from tests.domains.wfc.paths import DATA, PIPES

SAMPLES_XML = """<samples>
  <overlapping name="checker" N="2" periodic="True" size="12"/>
  <overlapping name="ground" N="3" symmetry="2" ground="True" periodic="True" size="20"
    screenshots="1"/>
  <simpletiled name="pipes" width="10" height="8" subset="NoEmpty" periodic="True"
    textOutput="True"/>
</samples>
"""


@pytest.fixture
def samples(tmp_path):
    folder = tmp_path / "samples"
    (folder / "pipes").mkdir(parents=True)
    for name in ("checker", "ground"):
        shutil.copy(DATA / f"{name}.png", folder / f"{name}.png")
    for tile in (DATA / "pipes").iterdir():
        shutil.copy(tile, folder / "pipes" / tile.name)
    shutil.copy(PIPES, folder / "pipes" / "data.xml")
    xml = tmp_path / "samples.xml"
    xml.write_text(SAMPLES_XML)
    return xml


def test_a_reference_samples_xml_builds_every_entry(samples, tmp_path):
    assert main(["build", str(samples), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    runs = [o["run"] for o in result["outputs"]]
    assert runs == ["checker", "checker", "ground", "pipes", "pipes"]  # screenshots default 2
    assert all(o["status"] == "solved" for o in result["outputs"])
    text = (tmp_path / "out" / "02-pipes-0.txt").read_text().splitlines()
    assert len(text) == 8 and all("empty" not in line for line in text)


def test_a_tileset_xml_builds_directly(tmp_path):
    assert main(["build", str(PIPES), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    text = (tmp_path / "out" / "pipes.txt").read_text().splitlines()
    assert len(text) == 24


def test_validate_accepts_the_xml_files(samples, capsys):
    assert main(["validate", str(samples), str(PIPES)]) == 0


BROKEN = [
    (
        {"model": "tiled", "tileset": str(PIPES), "subset": "Loopz"},
        "the tileset has no subset 'Loopz'; did you mean 'Loops'?",
    ),
    (
        {"model": "tiled", "tileset": str(PIPES), "fixed": [{"at": [1, 1], "tile": "crosss"}]},
        "unknown tile 'crosss'",
    ),
    (
        {"model": "tiled", "tileset": str(PIPES), "fixed": [{"at": [1, 1], "tile": "line 2"}]},
        "'line 2' is not a variant",
    ),
    ({"model": "tiled", "tileset": str(PIPES), "N": 3}, "'N' applies to the overlapping model"),
    ({"model": "overlapping", "sample": "missing.png"}, "no image at"),
    (
        {
            "model": "overlapping",
            "sample": str(DATA / "maze.png"),
            "fixed": [{"row": 0, "color": "#123456"}],
        },
        "is not a colour of the sample",
    ),
    (
        {"model": "overlapping", "sample": str(DATA / "maze.png"), "heuristc": "mrv"},
        "unknown key 'heuristc'",
    ),
    (
        {"model": "tiled", "tiles": [{"name": "a", "color": "#ffffff", "symmetry": "Q"}]},
        "is not allowed",
    ),
    (
        {
            "model": "tiled",
            "tileset": str(PIPES),
            "size": 12,
            "fixed": [{"at": [0, 0], "tile": "cross"}],
            "border": {"tile": "empty"},
        },
        "fixed[0] and border clash with the tile rules",
    ),
    (
        {
            "model": "tiled",
            "tileset": str(PIPES),
            "search": {"backtrack": False, "max_backtracks": 50},
        },
        "max_backtracks caps the backtracks of an attempt, and backtrack: false makes none",
    ),
]


@pytest.mark.parametrize("fields,message", BROKEN)
def test_broken_specs_give_one_located_line(write_spec, tmp_path, capsys, fields, message):
    spec = write_spec(**fields)
    code = main(["build", str(spec), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and message in err[0], err
    assert not (tmp_path / "out").exists()


def test_a_broken_tileset_points_into_the_xml(tmp_path, write_spec, capsys):
    xml = tmp_path / "set.xml"
    xml.write_text(PIPES.read_text().replace('right="corner 3"', 'right="corner 7"', 1))
    for tile in (DATA / "pipes").iterdir():
        shutil.copy(tile, tmp_path / tile.name)
    spec = write_spec(model="tiled", tileset=str(xml))
    assert main(["validate", "--quiet", str(spec)]) == 1
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"{xml}:") and "'corner 7' is not a variant of 'corner'" in line


def test_a_misnamed_neighbor_rule_does_not_hide_the_problems_after_it(write_spec, capsys):
    """The docs promise every problem at once: a rule naming no tile stopped the checks."""
    tiles = [{"name": "wall", "color": "#404040"}, {"name": "floor", "color": "#d8c8a0"}]
    spec = write_spec(
        model="tiled",
        tiles=tiles,
        neighbors=[{"left": "wall", "right": "flor"}, {"left": "floor", "right": "floor"}],
        border={"tile": "wal"},
        counts=[{"tile": "floor", "min": 50, "max": 10}],
    )
    assert main(["validate", "--quiet", str(spec)]) == 1
    messages = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()]
    assert [m.split(";")[0] for m in messages] == [
        "unknown tile 'flor'",
        "unknown tile 'wal'",
        "min 50 is more than max 10",
    ]


def test_an_inline_tileset_in_the_dsl(tmp_path):
    spec = tmp_path / "stripes.epcg"
    spec.write_text(
        "kind: wfc\nname: stripes\nmodel: tiled\nsize: 6\ntile_size: 2\n"
        'tiles: [{name: sea, color: "#2040a0"}, {name: sand, color: "#e0d080"}]\n'
        "neighbors: [{left: sea, right: sand}, {left: sand, right: sand}]\n"
    )
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    text = (tmp_path / "out" / "stripes.txt").read_text()
    assert "sea 0, sea 0" not in text.replace("\n", " ")


def test_count_and_explain_through_the_cli(write_spec, capsys):
    spec = write_spec(model="tiled", tileset=str(PIPES), width=3, height=2)
    assert main(["count", str(spec), "--json"]) == 0
    counted = json.loads(capsys.readouterr().out)
    assert counted["counts"][0]["complete"] and counted["count"] > 0
    assert main(["count", str(spec), "--limit", "7", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 7
    assert main(["explain", str(spec)]) == 0
    assert "12 variants" in capsys.readouterr().out


def test_the_runs_of_one_count_share_its_time_limit(samples, monkeypatch):
    """Each run of a count had the whole --time-limit, so a spec of three runs could count
    for three times as long; then the runs' networks and compiling were counted against
    it too, which a single run's count does not do."""
    limits = []

    def counted(model, ctx, limit, **options):
        limits.append(ctx.time_limit)
        return 5, True, Report((0, 1), 0, 1, 1, 7.0, 0.5, None)  # 7 s counting, 0.5 compiling

    monkeypatch.setattr(backtrack, "run_count", counted)
    result = epcg_spec.load(samples).count(time_limit=60)
    assert limits == [60, 53, 46]
    assert result.data["compile_seconds"] == 1.5
