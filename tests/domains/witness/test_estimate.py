"""The estimate of a layout search, from the spec alone: the layouts it visits (exact counts,
those with two symbols in one place among them), floors on its time and memory; builds
beyond a day or the machine's memory are refused (exit 1) unless --force."""

from __future__ import annotations

import itertools
from pathlib import Path

import numba
import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.compile import budget
from epcg_spec.core.context import RunContext
from epcg_spec.domains.witness.estimate import LAYOUTS_PER_SECOND_PER_THREAD, free_blocks
from epcg_spec.domains.witness.model import SLOT_KINDS

SPECS = Path(__file__).resolve().parents[3] / "specs"
GiB = 2.0**30
THREADS = numba.config.NUMBA_NUM_THREADS

# Two symbols may meet: slot placements over edges, vertices and both, a cell placement
# on the base panel's square, and base symbols in every domain.
COLLIDING = """kind: witness
name: colliding
panel:
  size: [2, 2]
  constraints:
    - must_cross: [1, 1]
    - cannot_cross: [[0, 0], [1, 0]]
{cells}layout:
  - {{place: must_cross, count: 2}}
  - {{place: cannot_cross, count: 1, within: edges}}
  - {{place: must_cross, count: 1, within: vertices}}
{placed}"""


@pytest.fixture
def machine(monkeypatch):
    monkeypatch.setattr(budget, "available_memory", lambda: 16 * GiB)
    monkeypatch.setattr(budget, "free_disk", lambda path: 100 * GiB)


def _spec(tmp_path: Path, text: str, name: str = "spec.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_explain_states_the_layouts_and_floors_of_the_pieces_spec():
    spec = epcg_spec.load(SPECS / "witness-pieces-3x3.yaml")
    rows = dict(spec.explain())
    # C(9, 3) x 24^3 layouts: 84 blocks of 24^3, each reading the 3 words of the bit set of
    # the 184 candidate lines
    assert rows["estimated time"] == (
        "at least 0 s: 1,161,216 layouts, 252 words of line bit sets read: at most 500 million "
        f"layouts or 10 billion words a second on each of {THREADS} thread"
        + ("s" if THREADS > 1 else "")
    )
    # a block's counts (int32) and one thread's work row (int64), + 4 position words
    assert rows["estimated memory"] == (
        "at least 162.0 KiB: the counts and work arrays of a block of 13,824 layouts"
    )
    estimate = spec._problem().estimate(RunContext(threads=1))
    assert estimate.memory == 13_824 * 12 + 4 * 8
    assert estimate.seconds == 1_161_216 / LAYOUTS_PER_SECOND_PER_THREAD
    assert estimate.lower_bound


def test_explain_of_a_joint_spec_leaves_its_branch_and_bound_unestimated():
    rows = dict(epcg_spec.load(SPECS / "witness-joint-3x3.epcg").explain())
    assert rows["estimated time"].startswith("at least 0 s: 1,161,216 layouts, 252 words of")
    assert rows["estimated time"].endswith("; the branch and bound after them is not estimated")
    # and its solution bits: one line word per layout of the block
    assert rows["estimated memory"].startswith("at least 270.0 KiB: ")


def test_a_single_panel_has_no_estimate_and_refuses_force(capsys):
    rows = dict(epcg_spec.load(SPECS / "witness-panel.yaml").explain())
    assert not [label for label in rows if "estimated" in label]
    assert main(["build", str(SPECS / "witness-panel.yaml"), "--force"]) == 2
    assert capsys.readouterr().err == (
        "usage error: --force is refused for `build` of this witness spec: mode solve checks one "
        "panel in a single search: there is no estimate\n"
    )


def test_the_layouts_with_two_symbols_in_one_place_are_those_the_build_finds(tmp_path):
    path = _spec(tmp_path, COLLIDING.format(cells="", placed=""))
    spec = epcg_spec.load(path)
    result = spec.build(threads=1).data
    assert result["invalid"] == 10_712  # what the kernels marked, panel by panel
    assert result["space_size"] - free_blocks(spec._problem().spec) == 10_712
    # the base panel's crossing symbols filter the lines: their words are not counted
    assert dict(spec.explain())["estimated time"].startswith(
        "at least 0 s: 22,680 layouts (10,712 of them invalid at once: two symbols in one "
        "place): at most"
    )


def test_free_blocks_agree_with_every_choice_of_positions(tmp_path):
    """Slots and cells together, against itertools over every placement's positions."""
    cells = "    - {square: white, at: [0, 0]}\n"
    placed = "  - {place: triangle, count: 1}\n  - {place: square, count: 2}\n"
    path = _spec(tmp_path, COLLIDING.format(cells=cells, placed=placed))
    spec = epcg_spec.load(path)._problem().spec
    grid = spec.grid
    taken = {(s.kind in SLOT_KINDS, s.at) for s in spec.panel.symbols}
    choices = []
    for p in spec.placements:
        first, size = grid.domain(p.domain)
        on_slot = p.kind in SLOT_KINDS
        choices.append(
            [
                [(on_slot, first + at) for at in chosen]
                for chosen in itertools.combinations(range(size), p.count)
            ]
        )
    free = 0
    for block in itertools.product(*choices):
        places = [place for chosen in block for place in chosen]
        free += len(set(places)) == len(places) and not taken.intersection(places)
    assert free == free_blocks(spec) == 35_904


def test_a_layout_search_past_a_day_is_refused_and_force_is_taken(
    tmp_path, capsys, machine, monkeypatch
):
    path = str(SPECS / "witness-must-cross.yaml")
    big = ["--param", "hexagons=8", "--threads", "1"]
    out = tmp_path / "out"
    # 8 hexagons on the 96 edges and vertices of a 5x5 panel: C(96, 8) layouts, each reading
    # the 19,732 words of the 1,262,816 lines' bit set, at 1e10 words a second: 3.0 days
    spec = _spec(tmp_path, Path(path).read_text().replace("size: [3, 3]", "size: [5, 5]"))
    rows = dict(epcg_spec.load(spec, params={"hexagons": 8}).explain())
    assert "132,601,016,340 layouts, about 2.62e+15 (16 digits) words" in rows["estimated time"]
    assert main(["build", spec, *big, "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        "error: this build would need about 3.0 days (more than the 24.0 hours limit); make the "
        "spec smaller, or pass --force to start it anyway\n"
    )
    assert not out.exists()  # refused before anything was written
    # --force starts a refused build (here a small one refused under a limit of nothing)
    monkeypatch.setattr(budget, "MAX_SECONDS", 1e-9)
    argv = ["build", path, "--out", str(out), "-q"]
    assert main(argv) == 1
    assert "more than the 0 s limit" in capsys.readouterr().err
    assert main([*argv, "--force"]) == 0
    assert (out / "result.json").exists()
    capsys.readouterr()


def test_explain_counts_the_candidate_lines_before_they_are_cached(tmp_path, monkeypatch):
    """explain said 'enumerated on the first build' while its estimate had counted them."""
    monkeypatch.setenv("EPCG_CACHE_DIR", str(tmp_path / "cache"))
    spec = _spec(tmp_path, "kind: witness\nname: w\npanel:\n  size: [2, 2]\n")
    assert dict(epcg_spec.load(spec).explain())["candidate lines"] == (
        "12 (counted; listed on the first build)"
    )
    assert main(["build", spec, "--out", str(tmp_path / "out"), "-q"]) == 0
    assert dict(epcg_spec.load(spec).explain())["candidate lines"] == "12 (cached)"


def test_a_build_on_a_cluster_is_not_refused_for_this_machines_time(
    tmp_path, capsys, machine, monkeypatch
):
    """The time floor is of this machine's threads: a build sent to a cluster of a hundred
    was refused for taking more than a day here."""
    spec = _spec(tmp_path, (SPECS / "witness-must-cross.yaml").read_text())
    monkeypatch.setattr(budget, "MAX_SECONDS", 1e-9)  # every estimate is past the limit

    class Reached(Exception):
        pass

    def connected(scheduler, ctx):
        raise Reached(scheduler)

    monkeypatch.setattr(epcg_spec.api, "connected", connected)
    argv = ["build", spec, "--out", str(tmp_path / "out"), "-q"]
    assert main(argv) == 1 and "more than the 0 s limit" in capsys.readouterr().err
    with pytest.raises(Reached, match="local:2"):
        epcg_spec.load(spec).build(tmp_path / "out", scheduler="local:2")
