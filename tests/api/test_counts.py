"""What a count's Result says: exact, or a lower bound, and why."""

from __future__ import annotations

from pathlib import Path

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
