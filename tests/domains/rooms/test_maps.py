"""Maps built by the stack and by restarts obey every rule, and counts match brute force."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from epcg_spec import api
from epcg_spec.cli.main import main
from epcg_spec.core.context import RunContext
from epcg_spec.spec.load import load_spec
from tests.domains.rooms.conftest import chain
from tests.oracles.rooms_oracle import count_maps, map_problems

SPECS = Path(__file__).parents[3] / "specs"


def oracle_rooms(result: dict) -> list[tuple]:
    names = [r["name"] for r in result["rooms"]]
    return [
        (r["x"], r["y"], r["width"], r["height"], names.index(r["parent"]) if r["parent"] else -1)
        for r in result["rooms"]
    ]


def check(result: dict, spec_path: Path) -> None:
    spec = load_spec(spec_path).spec
    assert result["status"] == "solved"
    assert len(result["rooms"]) == len(spec.rooms)
    assert not map_problems(
        spec.width, spec.height, spec.margin, spec.corridor, oracle_rooms(result), spec.blocked
    )


@pytest.mark.parametrize("strategy", ["stack", "restart"])
@pytest.mark.parametrize("seed", range(6))
def test_every_map_obeys_the_rules(write_spec, build, strategy, seed):
    rooms = [*chain(6), {"name": "side", "size": [2, 4], "parent": "r2"}]
    spec = write_spec(
        map={"width": 20, "height": 12}, rooms=rooms, search={"strategy": strategy}, rotate=True
    )
    code, result = build(spec, "--seed", str(seed))
    assert code == 0
    check(result, spec)
    if strategy == "restart":
        assert result["undos"] == 0 and result["attempts"] == result["failures"] + 1


@pytest.mark.parametrize("margin, corridor", [(0, 0), (1, 2), (2, 1)])
def test_margins_and_corridors(write_spec, build, margin, corridor):
    spec = write_spec(
        map={"width": 30, "height": 20}, margin=margin, corridor=corridor, rooms=chain(8, [3, 2])
    )
    for seed in range(3):
        code, result = build(spec, "--seed", str(seed))
        assert code == 0
        check(result, spec)


def test_rock(write_spec, build):
    rows = ["..#.....#.", "....#.....", ".#....#...", "......#..#", "..#......."]
    spec = write_spec(map={"width": 10, "height": 5, "blocked": rows}, rooms=chain(3, 2))
    for seed in range(4):
        code, result = build(spec, "--seed", str(seed))
        assert code == 0
        check(result, spec)


@pytest.mark.parametrize(
    "width, height, margin, sizes, parents, rotate",
    [
        (6, 4, 1, [[2, 2], [2, 2]], [-1, 0], False),  # two squares side by side
        (7, 5, 1, [[2, 1], [1, 1], [1, 2]], [-1, 0, 0], True),
        (5, 4, 0, [[1, 1], [1, 1], [1, 1]], [-1, 0, 1], False),
        (6, 5, 2, [[2, 2], [1, 1], [1, 1]], [-1, 0, 0], False),
    ],
)
def test_count_matches_brute_force(
    write_spec, capsys, width, height, margin, sizes, parents, rotate
):
    rooms = [
        {"name": f"r{i}", "size": s, **({"parent": f"r{p}"} if p >= 0 else {})}
        for i, (s, p) in enumerate(zip(sizes, parents, strict=True))
    ]
    spec = write_spec(
        map={"width": width, "height": height}, margin=margin, rooms=rooms, rotate=rotate
    )
    shapes = [{(w, h), (h, w)} if rotate else {(w, h)} for w, h in sizes]
    expected = count_maps(width, height, margin, shapes, parents)
    assert expected > 0
    assert main(["count", str(spec)]) == 0
    assert f": {expected:,} maps" in capsys.readouterr().out


@settings(max_examples=12, deadline=None)
@given(
    parents=st.lists(st.integers(0, 10), min_size=1, max_size=3),
    sizes=st.lists(st.sampled_from([1, 2, [2, 1]]), min_size=4, max_size=4),
    margin=st.integers(0, 1),
)
def test_count_matches_brute_force_on_random_trees(parents, sizes, margin):
    parents = [-1] + [p % (i + 1) for i, p in enumerate(parents)]
    sizes = [[s, s] if isinstance(s, int) else s for s in sizes[: len(parents)]]
    rooms = [
        {"name": f"r{i}", "size": s, **({"parent": f"r{p}"} if p >= 0 else {})}
        for i, (s, p) in enumerate(zip(sizes, parents, strict=True))
    ]
    expected = count_maps(5, 4, margin, [{tuple(s)} for s in sizes], parents)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "random.yaml"
        path.write_text(
            yaml.safe_dump(
                {
                    "kind": "rooms",
                    "map": {"width": 5, "height": 4},
                    "margin": margin,
                    "rooms": rooms,
                }
            )
        )
        loaded = load_spec(path)
    counted = loaded.domain.compile(loaded.spec).count(RunContext(), False)
    assert counted.result["count"] == expected


def test_infeasible_is_reported(write_spec, build, capsys):
    spec = write_spec(map={"width": 8, "height": 3}, rooms=chain(3, 3))
    code, result = build(spec)
    assert code == 1 and result is None
    assert "cannot all be placed" in capsys.readouterr().err


def test_outputs(build, tmp_path):
    code, result = build(SPECS / "rooms-house.yaml")
    assert code == 0
    check(result, SPECS / "rooms-house.yaml")
    folder = tmp_path / "out"
    text = (folder / "map.txt").read_text()
    assert "A hall: 4 x 3" in text and "#" in text
    svg = ElementTree.fromstring((folder / "map.svg").read_text())
    assert len(svg.findall("{http://www.w3.org/2000/svg}text")) == 7
    image = Image.open(folder / "map.png")
    assert image.size == ((24 + 2) * 12, (14 + 2) * 12)
    for key in ("guesses", "failures", "undos", "attempts"):
        assert isinstance(result[key], int)


def test_nested_tree(build):
    spec = SPECS / "rooms-dungeon.epcg"
    code, result = build(spec)
    assert code == 0
    check(result, spec)
    assert result["rooms"][0]["kind"] == "level"


def test_same_seed_same_map(build):
    spec = SPECS / "rooms-house.yaml"
    _, first = build(spec, "--seed", "5", out="a")
    _, second = build(spec, "--seed", "5", out="b")
    assert first["rooms"] == second["rooms"]


def test_count_by_hand(write_spec, capsys):
    """Two 2 x 2 rooms, one wall between, on a 6 x 4 map: 20 maps, counted by hand.

    Child to the right: parent x in {0, 1}; the child's door row (its y + 1) must meet the
    parent's two rows: (parent y, child y) in {(0,0), (1,0), (1,1), (2,1), (2,2)}: 10 maps;
    to the left, 10 more; above or below needs 2 + 1 + 2 = 5 rows: none. 20 in all.
    """
    rooms = [{"name": "a", "size": 2}, {"name": "b", "size": 2, "parent": "a"}]
    spec = write_spec(map={"width": 6, "height": 4}, rooms=rooms)
    assert main(["count", str(spec)]) == 0
    assert ": 20 maps" in capsys.readouterr().out


def test_one_room_guess_and_cell_are_said_in_the_singular(write_spec, capsys):
    rooms = [{"name": "a", "size": 2}]
    spec = write_spec(map={"width": 4, "height": 4}, corridor=1, rooms=rooms)
    assert main(["explain", str(spec)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert "1 cell between rooms" in rows[3] and rows[4].endswith(" 1 cell")
    assert main(["build", str(spec), "--out", str(spec.parent / "out"), "-q"]) == 0
    summary = capsys.readouterr().out.splitlines()[0]
    assert ": solved, 1 room on 4 x 4: 1 guess, 0 failures, 0 undos, " in summary


def test_a_room_that_fits_only_turned(write_spec, capsys):
    """A 5 x 2 room on a 3 x 6 map fits only turned (2 x 5): 2 columns x 2 rows of places."""
    spec = write_spec(
        map={"width": 3, "height": 6}, rotate=True, rooms=[{"name": "a", "size": [5, 2]}]
    )
    assert main(["count", str(spec)]) == 0
    assert ": 4 maps" in capsys.readouterr().out
    spec = write_spec(map={"width": 3, "height": 6}, rooms=[{"name": "a", "size": [5, 2]}])
    assert main(["validate", str(spec)]) == 1
    assert "larger than the 3 x 6 map" in capsys.readouterr().out


def test_a_count_of_unknown_size_stops_at_the_budget_with_what_it_found(monkeypatch, capsys):
    """Without --time-limit a count stops within its budget: at once where the rate says it
    would run longer, and, where its size is not known ahead (rooms), once the budget is spent
    (here 1.5 s for the usual 600 s), with the count so far as a lower bound. (The caves:
    the dungeon's first map takes over 40,000 guesses: over 1.5 s on 2 cores.)"""
    monkeypatch.setattr(api, "COUNT_BUDGET_SECONDS", 1.5)
    spec = str(Path(__file__).parents[3] / "specs" / "rooms-caves.yaml")
    assert main(["count", spec, "--json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["complete"] is False and result["count"] > 0
    assert "partial result (time budget); the count is a lower bound" in err
    assert "stops after 1.5 s; give --time-limit SECONDS to count longer" in err
