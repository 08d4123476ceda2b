"""A printable PDF booklet of a build's puzzles: the puzzles, then their solutions.

Drawn with fpdf2 (the optional extra `print`) from the same grid drawings as the SVG files.
No dates or random ids go into the file: the same result.json gives the same bytes.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..domains.sudoku.render import GridDrawing, caption, grid_drawing
from ..errors import BuildError, UsageError
from .files import atomic_write

BOOKLET = "puzzles.pdf"
PAGE_W, PAGE_H, MARGIN = 210.0, 297.0, 16.0  # A4, in mm
HEAD = 12.0  # the title line at the top of each page
COLUMNS, ROWS = 2, 2  # puzzles per page
LABEL = 9.0  # the caption line under each grid
PRINTABLE = ("sudoku",)
FIXED_DATE = datetime(1970, 1, 1, tzinfo=UTC)  # the PDF's creation date, the same every time


def sudoku_booklet(result: dict[str, Any]) -> bytes:
    """The PDF: every puzzle of a sudoku result.json, four to a page, then every solution."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise UsageError(
            "printing needs the fpdf2 package: pip install 'epcg-spec[print]'"
        ) from None
    records = result.get("puzzles") or []
    box = result["box"]
    pdf = FPDF(format="A4", unit="mm")
    pdf.set_creation_date(FIXED_DATE)  # not the clock: same input, same bytes
    pdf.set_title(f"{result['spec']}: puzzles")
    pdf.set_creator("epcg-spec")
    pdf.set_producer("epcg-spec")
    pdf.set_auto_page_break(False)
    for part in ("Puzzles", "Solutions"):
        for first in range(0, len(records), COLUMNS * ROWS):
            pdf.add_page()
            pdf.set_font("Helvetica", "B", 14)
            pdf.set_xy(MARGIN, MARGIN)
            pdf.cell(0, 8, f"{result['spec']}: {part.lower()}")
            pdf.set_font("Helvetica", "", 9)
            pdf.set_xy(MARGIN, PAGE_H - MARGIN)
            pdf.cell(0, 5, f"page {pdf.page_no()}", align="C")
            for slot, record in enumerate(records[first : first + COLUMNS * ROWS]):
                solution = record["solution"] if part == "Solutions" else None
                drawing = grid_drawing(record["puzzle"], box, solution)
                label = f"{part[:-1]} {first + slot + 1} · {caption(record)}"
                _draw(pdf, drawing, label, slot)
    return bytes(pdf.output())


def _draw(pdf, drawing: GridDrawing, label: str, slot: int) -> None:
    """One grid in its slot of the page, the label under it."""
    cell_w = (PAGE_W - 2 * MARGIN) / COLUMNS
    cell_h = (PAGE_H - 2 * MARGIN - HEAD) / ROWS
    size = min(cell_w, cell_h - LABEL) * 0.86
    unit = size / drawing.side
    left = MARGIN + (slot % COLUMNS) * cell_w + (cell_w - size) / 2
    top = MARGIN + HEAD + (slot // COLUMNS) * cell_h + (cell_h - LABEL - size) / 2
    pdf.set_draw_color(29, 39, 51)
    for x1, y1, x2, y2, width in drawing.lines:
        pdf.set_line_width(width * unit)
        pdf.line(left + x1 * unit, top + y1 * unit, left + x2 * unit, top + y2 * unit)
    points = unit * 0.55 / 0.3528  # a digit a little over half a cell high, in points
    for c, r, text, given in drawing.digits:
        pdf.set_font("Helvetica", "B" if given else "", points)
        pdf.set_text_color(29, 39, 51) if given else pdf.set_text_color(47, 111, 222)
        pdf.set_xy(left + c * unit, top + r * unit)
        pdf.cell(unit, unit, text, align="C")
    pdf.set_text_color(29, 39, 51)
    pdf.set_font("Helvetica", "", 10)
    pdf.set_xy(left, top + size + 2)
    pdf.cell(size, LABEL - 3, label, align="C")


def write_booklet(folder: Path) -> Path:
    """Write `folder`/puzzles.pdf for the puzzles built into `folder` and return its path."""
    result = json.loads((Path(folder) / "result.json").read_text("utf-8"))
    if result.get("kind") not in PRINTABLE:
        raise UsageError(
            f"{folder}: a booklet is made for kind {', '.join(PRINTABLE)}, "
            f"not for {result.get('kind')}"
        )
    if not result.get("puzzles"):
        raise BuildError(f"{folder}: result.json holds no puzzles to print")
    target = Path(folder) / BOOKLET
    atomic_write(target, sudoku_booklet(result))
    return target
