"""The estimate of a rooms build, from the spec alone: floors on the map's files and on the
memory of its placements' cells; its time is said not to be estimated."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.compile import budget
from epcg_spec.core.context import RunContext
from epcg_spec.domains.rooms.network import build_network, exclusive_bytes, placements

SPECS = Path(__file__).resolve().parents[3] / "specs"
GiB = 2.0**30


def test_explain_states_the_floors_of_the_house():
    rows = dict(epcg_spec.load(SPECS / "rooms-house.yaml").explain())
    assert rows["estimated memory"] == (
        "at least 1.1 MiB: the cells each placement uses (to keep rooms apart), and the map's files"
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
    assert estimate.memory == 21_290 + exclusive_bytes(problem.spec, places) == 1_157_874
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
