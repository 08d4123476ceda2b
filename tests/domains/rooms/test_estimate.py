"""The estimate of a rooms build, from the spec alone: floors on the map's files and on the
memory of its placements' cells and of each room's placements; its time is said not to be
estimated. The placements themselves are bounded before any estimate."""

from __future__ import annotations

import json
import math
import tracemalloc
from pathlib import Path

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.compile import budget
from epcg_spec.core.context import RunContext
from epcg_spec.domains.rooms.network import (
    allowed_values,
    build_network,
    exclusive_bytes,
    placements,
)

SPECS = Path(__file__).resolve().parents[3] / "specs"
GiB = 2.0**30


def test_explain_states_the_floors_of_the_house():
    rows = dict(epcg_spec.load(SPECS / "rooms-house.yaml").explain())
    assert rows["estimated memory"] == (
        "at least 1.2 MiB: the cells each placement uses (to keep rooms apart), the placements "
        "each room has left, and the map's files"
    )
    assert rows["estimated disk"] == (
        "at least 20.8 KiB: map.txt and map.svg (map.png, compressed, is not counted)"
    )
    assert rows["estimated time"] == (
        "not estimated: how many guesses and undos place every room is known only by searching"
    )


def test_the_floors_hold_for_the_map_built_and_its_network(tmp_path):
    spec = epcg_spec.load(SPECS / "rooms-house.yaml")
    problem = spec._problem()
    estimate = problem.estimate(RunContext())
    assert estimate.disk == problem.bytes_of_map() == 21_290
    places = placements(problem.spec)
    domains = len(problem.spec.rooms) * len(places.x)  # a byte a room and placement
    assert estimate.memory == 21_290 + exclusive_bytes(problem.spec, places) + domains
    assert estimate.memory == 1_214_889
    assert estimate.seconds is None and estimate.lower_bound
    tracemalloc.start()
    try:
        build_network(problem.spec, places)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak >= estimate.memory - estimate.disk
    spec.build(out=tmp_path / "out")
    written = sum((tmp_path / "out" / name).stat().st_size for name in ("map.txt", "map.svg"))
    assert 21_290 <= written < 2 * 21_290


def test_a_map_beyond_the_free_disk_is_refused_and_force_is_taken(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(budget, "available_memory", lambda: 16 * GiB)
    monkeypatch.setattr(budget, "free_disk", lambda folder: 10 * 1024)
    argv = ["build", str(SPECS / "rooms-house.yaml"), "--out", str(tmp_path / "out"), "-q"]
    assert main(argv) == 1
    assert capsys.readouterr().err == (
        "error: this build would need about 20.8 KiB of disk (10.0 KiB free); make the spec "
        "smaller, or pass --force to start it anyway\n"
    )
    assert not (tmp_path / "out").exists()
    assert main([*argv, "--force"]) == 0
    assert (tmp_path / "out" / "map.txt").exists()
    capsys.readouterr()


def test_rooms_in_a_thousand_sizes_are_refused_before_their_placements(tmp_path, capsys):
    """Their table of placements (1,000 sizes x 5 sides x 65,536 cells) was made to explain
    the spec: 18 GB and minutes. The placements of the rooms that are allowed are counted by
    size and side, once."""
    rooms = [{"name": "r0"}]
    rooms += [
        {"name": f"r{i}", "size": [1 + i % 32, 1 + i // 32], "parent": "r0"} for i in range(1, 1000)
    ]
    spec = tmp_path / "sizes.yaml"
    spec.write_text(
        json.dumps({"kind": "rooms", "map": {"width": 256, "height": 256}, "rooms": rooms})
    )
    assert main(["explain", str(spec)]) == 1
    assert capsys.readouterr().err == (
        f"{spec}:1:66: the rooms come in 1,000 sizes (turns included): their placements on the "
        "256 x 256 map (327,680,000) pass the 4,194,304 tabled before a build; give the rooms "
        "at most 12 sizes, or a smaller map\n"
    )


def test_the_space_size_counts_each_rooms_placements_off_the_rock():
    problem = epcg_spec.load(SPECS / "rooms-caves.yaml")._problem()
    spec, places = problem.spec, placements(problem.spec)
    assert spec.blocked, "the caves have rock, which takes placements away"
    each = [int(allowed_values(spec, places, r).sum()) for r in range(len(spec.rooms))]
    assert problem.space_size() == math.prod(each) > 0
