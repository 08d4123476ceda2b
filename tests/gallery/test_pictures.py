"""The pictures this issue added: Sudoku grids and space states as SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from epcg_spec.domains.space.render import state_svg
from epcg_spec.domains.sudoku.render import THICK, THIN, grid_drawing, grid_svg, pictures

SVG = "{http://www.w3.org/2000/svg}"
PUZZLE = ["..2.", "1...", "...4", ".3.."]
SOLUTION = ["3421", "1243", "2134", "4312"]


def test_a_grid_has_thick_box_lines_and_the_clues_or_every_digit():
    puzzle = grid_drawing(PUZZLE, 2)
    assert len(puzzle.lines) == 10
    assert sorted({w for *_, w in puzzle.lines}) == [THIN, THICK]
    assert sum(w == THICK for *_, w in puzzle.lines) == 6  # edges and the box borders
    assert [(c, r, t) for c, r, t, given in puzzle.digits] == [
        (2, 0, "2"), (0, 1, "1"), (3, 2, "4"), (1, 3, "3")
    ]  # fmt: skip
    solved = grid_drawing(PUZZLE, 2, SOLUTION)
    assert len(solved.digits) == 16
    assert sum(given for *_, given in solved.digits) == 4
    svg = ET.fromstring(grid_svg(solved, "4 clues · grade naked"))
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert texts[-1] == "4 clues · grade naked"
    assert "".join(texts[:-1]) == "".join("".join(row) for row in SOLUTION)


def test_a_record_gives_a_puzzle_and_a_solution_picture():
    record = {"puzzle": PUZZLE, "solution": SOLUTION, "clues": 4, "grade": "naked"}
    files = pictures(record, 2, "-3")
    assert sorted(files) == ["puzzle-3.svg", "solution-3.svg"]
    digits = ET.fromstring(files["puzzle-3.svg"]).iter(f"{SVG}text")
    assert [t.text for t in digits][:4] == ["2", "1", "4", "3"]


def test_a_permutation_is_a_board_of_dots_and_marks_are_a_ruler():
    board = ET.fromstring(state_svg({"q": [1, 3, 0, 2]}, "rank 7"))
    dots = list(board.iter(f"{SVG}circle"))
    assert [(float(c.get("cx")), float(c.get("cy"))) for c in dots] == [
        (14, 42), (42, 98), (70, 14), (98, 70)
    ]  # fmt: skip
    assert board.find(f"{SVG}title").text == "rank 7"
    ruler = ET.fromstring(state_svg({"mark": [0, 1, 4, 9, 11], "die": [1, 2, 2, 3]}))
    assert not list(ruler.iter(f"{SVG}circle"))
    labels = [t.text for t in ruler.iter(f"{SVG}text")]
    assert labels == ["mark", "0", "1", "4", "9", "11", "die", "1", "2×2", "3"]


@pytest.mark.parametrize("top", [10**9, 10**400])
def test_a_ruler_of_values_spread_wide_is_as_long_as_one_of_100(top):
    """At 6 pixels a unit, values 0 to 10^9 drew a line 6 billion pixels long, and 10^400
    (a merged shard's state) was an OverflowError: exit 3."""
    ruler = ET.fromstring(state_svg({"v": [0, top // 2, top]}))
    line, *ticks = ruler.iter(f"{SVG}line")
    hundred = next(ET.fromstring(state_svg({"v": [0, 100]})).iter(f"{SVG}line"))
    assert line.get("x2") == hundred.get("x2") == "600"
    assert [float(t.get("x1")) for t in ticks] == [0, 300, 600]
