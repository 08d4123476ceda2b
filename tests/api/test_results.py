"""A Result's fields are what the command writes and prints."""

from __future__ import annotations

from pathlib import Path

import epcg_spec

SPECS = Path(__file__).resolve().parents[2] / "specs"


def test_to_json_is_result_json_to_the_byte(tmp_path):
    # it lacked the file's last newline
    result = epcg_spec.load(SPECS / "sudoku-4x4.epcg").build(tmp_path)
    assert result.to_json() == (tmp_path / "result.json").read_text("utf-8")
