"""Sudoku grids as drawings: lines and digits in cell units, written as SVG (or PDF, in print)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from html import escape

CELL = 40  # SVG pixels per cell
MARGIN = 12
CAPTION = 26
INK = "#1d2733"
FILLED = "#2f6fde"  # digits the solver filled in
THIN, THICK = 0.025, 0.075  # line widths, in cells


@dataclass(frozen=True)
class GridDrawing:
    """A grid in cell units: lines (x1, y1, x2, y2, width) and digits (column, row, text, given)."""

    side: int
    lines: tuple[tuple[int, int, int, int, float], ...]
    digits: tuple[tuple[int, int, str, bool], ...]


def grid_drawing(puzzle: list[str], box: int, solution: list[str] | None = None) -> GridDrawing:
    """The puzzle's grid with its clues; with `solution`, the filled digits too.

    Rows are strings as in result.json: one character per cell, '.' for a blank.
    """
    side = box * box
    lines = _grid_lines(box)
    digits = []
    for r in range(side):
        for c in range(side):
            clue = puzzle[r][c]
            if clue != ".":
                digits.append((c, r, clue, True))
            elif solution is not None:
                digits.append((c, r, solution[r][c], False))
    return GridDrawing(side, lines, tuple(digits))


@cache
def _grid_lines(box: int) -> tuple[tuple[int, int, int, int, float], ...]:
    side = box * box
    return tuple(
        line
        for k in range(side + 1)
        for line in (
            (k, 0, k, side, THICK if k % box == 0 else THIN),
            (0, k, side, k, THICK if k % box == 0 else THIN),
        )
    )


@cache
def _lines_svg(lines: tuple[tuple[int, int, int, int, float], ...]) -> str:
    """The grid's lines as SVG elements (made once per grid size: a build draws many)."""
    return "\n".join(
        f'<line x1="{x1 * CELL}" y1="{y1 * CELL}" x2="{x2 * CELL}" y2="{y2 * CELL}" '
        f'stroke-width="{w * CELL:g}"/>'
        for x1, y1, x2, y2, w in lines
    )


@cache
def _digit_svg(c: int, r: int, text: str, given: bool) -> str:
    """One digit as an SVG element (a grid has few cells and digits: each is made once)."""
    style = f'fill="{INK}" font-weight="bold"' if given else f'fill="{FILLED}"'
    x, y = (c + 0.5) * CELL, (r + 0.53) * CELL
    return f'<text x="{x:g}" y="{y:g}" {style}>{escape(text, quote=False)}</text>'


def grid_svg(drawing: GridDrawing, caption: str = "") -> str:
    """The drawing as an SVG picture, the caption (e.g. the grade) under the grid."""
    size = drawing.side * CELL
    width, height = size + 2 * MARGIN, size + 2 * MARGIN + (CAPTION if caption else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<g transform="translate({MARGIN},{MARGIN})" stroke="{INK}" stroke-linecap="square">',
    ]
    if drawing.lines:
        parts.append(_lines_svg(drawing.lines))
    parts.append("</g>")
    parts.append(
        f'<g transform="translate({MARGIN},{MARGIN})" text-anchor="middle" '
        f'dominant-baseline="central" font-size="{CELL * 0.6:g}">'
    )
    parts += [_digit_svg(*digit) for digit in drawing.digits]
    parts.append("</g>")
    if caption:
        parts.append(
            f'<text x="{width / 2:g}" y="{size + 2 * MARGIN + CAPTION / 2:g}" font-size="15" '
            f'text-anchor="middle" dominant-baseline="central" fill="{INK}">'
            f"{escape(caption, quote=False)}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def caption(record: dict) -> str:
    """The line under a puzzle: clues and grade, as in result.json's record."""
    return f"{record['clues']} clues · grade {record['grade']}"


def pictures(record: dict, box: int, suffix: str = "") -> dict[str, str]:
    """puzzle{suffix}.svg and solution{suffix}.svg for one record of result.json."""
    puzzle, solution = record["puzzle"], record["solution"]
    return {
        f"puzzle{suffix}.svg": grid_svg(grid_drawing(puzzle, box), caption(record)),
        f"solution{suffix}.svg": grid_svg(grid_drawing(puzzle, box, solution), caption(record)),
    }
