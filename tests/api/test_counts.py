"""What a count's Result says: exact, or a lower bound, and why."""

from __future__ import annotations

from pathlib import Path

import pytest

import epcg_spec

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"


def test_a_witness_layout_count_stopped_by_its_time_limit_says_so():
    # five pieces on a 3x3 panel: 1,003,290,624 layouts in 126 units of 7,962,624, a few
    # seconds' work; the count came back as if complete, without `partial`, and a count too
    # long to finish was not refused but cut short at its first second
    text = (SPECS / "witness-pieces-3x3.yaml").read_text().replace("count: 3", "count: 5")
    result = epcg_spec.loads(text).count(constrained=True, time_limit=0.01)
    assert (result.stopped, result.complete) == ("time limit", False)
    assert result.data["partial"]["stopped"] == "time limit"
    assert 0 < result.data["partial"]["units_done"] < 126
    assert result.data["evaluated"] == result.data["partial"]["units_done"] * 7_962_624
    assert result.summary[-1].endswith(" solvable panels so far (partial: time limit)")


def test_a_witness_panel_count_says_one_solution_in_the_singular():
    result = epcg_spec.load(SPECS / "witness-panel.yaml").count(constrained=True)
    assert result.summary == ["witness-panel: 8,512 candidate lines", "  1 solution"]


WITNESS_LIMITED = """kind: witness
name: open-2x2
panel: {size: [2, 2]}
search: {limit: 5}
"""


@pytest.mark.parametrize(
    ("load", "arguments", "line"),
    [  # each said complete (stopped None) while result.json said "complete": false
        (
            lambda: epcg_spec.load(SPECS / "sudoku-4x4.epcg"),
            {"limit": 10},
            "sudoku-4x4: 10 complete grids (stopped at the limit 10; there may be more)",
        ),
        (
            lambda: epcg_spec.load(SPECS / "wfc-pipes.yaml"),
            {"limit": 5},
            "wfc-pipes: 5 complete outputs (stopped at the limit 5; there may be more)",
        ),
        (
            lambda: epcg_spec.load(SPECS / "rooms-caves.yaml"),
            {"limit": 3, "time_limit": 60},
            "rooms-caves: 3 maps (stopped at the limit 3; there may be more)",
        ),
        (
            lambda: epcg_spec.load(SPECS / "ppg-levers.epcg"),
            {"limit": 3},
            "ppg-levers: 3 valid orders of 4 nodes up to relabelling template copies "
            "(stopped at the limit 3; there may be more)",
        ),
        (
            lambda: epcg_spec.loads(WITNESS_LIMITED),
            {"constrained": True},
            "  5 solutions (stopped at the limit 5; there may be more)",
        ),
    ],
)
def test_a_count_stopped_at_its_limit_is_not_complete(load, arguments, line):
    """Its JSON says so too: a WFC count said it in `counts` only, a Witness count nowhere
    (its count looked exact), while Sudoku, rooms and PPG said `"complete": false`."""
    result = load().count(**arguments)
    assert (result.stopped, result.complete, result.summary[-1]) == ("limit", False, line)
    assert result.data["complete"] is False


def test_a_count_under_its_limit_is_complete():
    result = epcg_spec.load(SPECS / "sudoku-4x4.epcg").count(limit=1000)
    assert (result.count, result.stopped, result.complete) == (288, None, True)
    assert result.data["complete"] is True


def test_a_nested_count_counts_no_elements_and_says_none():
    # the tree is unbounded: it said count 0, as if the spec made nothing
    result = epcg_spec.load(SPECS / "nested-dungeon.epcg").count()
    assert result.count is None and "count" not in result.data
    assert result.data["types"]["dungeon"] == {"names": 5, "names_exact": True, "layouts": 3}
