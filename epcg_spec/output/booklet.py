"""A printable PDF booklet of a build's puzzles: the puzzles, then their solutions.

Drawn with fpdf2 (the optional extra `print`): Sudoku grids from the same grid drawings as
their SVG files (crisp lines and real text), Witness panels and Fling boards from the SVG
pictures the kinds draw. No dates or random ids go into the file: the same build gives the
same bytes.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..core.errors import BuildError, UsageError
from ..core.files import atomic_write, read_bounded
from ..domains.sudoku.render import GridDrawing, caption, grid_drawing
from .result import read_result

BOOKLET = "puzzles.pdf"
PAGE_W, PAGE_H, MARGIN = 210.0, 297.0, 16.0  # A4, in mm
HEAD = 12.0  # the title line at the top of each page
COLUMNS, ROWS = 2, 2  # pictures per page
LABEL = 9.0  # the caption under each picture
NOTE = 5.0  # each line of notes under a solution (e.g. Fling's moves)
FIXED_DATE = datetime(1970, 1, 1, tzinfo=UTC)  # the PDF's creation date, the same every time
INK = (29, 39, 51)
FILLED = (47, 111, 222)


@dataclass(frozen=True)
class Sheet:
    """One picture of the booklet: a grid drawing or an SVG text, its caption and notes."""

    picture: GridDrawing | str
    label: str
    notes: tuple[str, ...] = ()
    source: Path | None = None  # the file an SVG text was read from (None: drawn here)


def _sudoku(result: dict[str, Any], folder: Path) -> tuple[list[Sheet], list[Sheet]]:
    records, box = result.get("puzzles") or [], result["box"]
    puzzles = [
        Sheet(grid_drawing(r["puzzle"], box), f"Puzzle {k} · {caption(r)}")
        for k, r in enumerate(records, 1)
    ]
    solutions = [
        Sheet(grid_drawing(r["puzzle"], box, r["solution"]), f"Solution {k} · {caption(r)}")
        for k, r in enumerate(records, 1)
    ]
    return puzzles, solutions


def _witness(result: dict[str, Any], folder: Path) -> tuple[list[Sheet], list[Sheet]]:
    """Panels and their solved pictures (best-k / joint-k); one panel's solutions (solution-k)."""
    puzzles, solutions = [], []
    for k, entry in enumerate(result.get("best") or []):
        rank = f"rank {entry['rank']}" if entry.get("rank") is not None else f"#{k + 1}"
        for stem in (f"best-{k}", f"joint-{k}"):
            if (folder / f"{stem}-solution.svg").is_file():
                puzzles.append(_read(folder / f"{stem}.svg", f"Panel {k + 1} · {rank}"))
                solutions.append(
                    _read(folder / f"{stem}-solution.svg", f"Solution {k + 1} · {rank}")
                )
        if (folder / f"solution-{k}.svg").is_file():
            solutions.append(_read(folder / f"solution-{k}.svg", f"Solution {k + 1}"))
    if (folder / "panel.svg").is_file() and not puzzles:
        puzzles.append(_read(folder / "panel.svg", result["spec"]))
    return puzzles, solutions


def _fling(result: dict[str, Any], folder: Path) -> tuple[list[Sheet], list[Sheet]]:
    """The bare boards, then the boards numbered by first fling with the moves beside them."""
    from ..domains.fling.render import board_svg  # here: the gallery imports this module

    width, height = result["board"]["width"], result["board"]["height"]
    puzzles, solutions = [], []
    for k, entry in enumerate(result.get("best") or []):  # files count from 0, pages from 1
        what = f"{entry['state']['pieces']} pieces · rank {entry['rank']}"
        bare = board_svg(entry["state"]["cells"], {}, width, height, f"board {k + 1}")
        puzzles.append(Sheet(bare, f"Board {k + 1} · {what}"))
        moves = entry.get("solution") or []
        notes = tuple(f"{i}. {m}" for i, m in enumerate(moves, 1))
        solutions.append(_read(folder / f"board-{k}.svg", f"Solution {k + 1}", notes))
    return puzzles, solutions


PRINTABLE: dict[str, Callable[[dict[str, Any], Path], tuple[list[Sheet], list[Sheet]]]] = {
    "sudoku": _sudoku,
    "witness": _witness,
    "fling": _fling,
}


def _read(path: Path, label: str, notes: tuple[str, ...] = ()) -> Sheet:
    """The sheet of a picture the build drew; one missing, or not a regular file of bounded
    size (a pipe), or a link (a build writes none: through one, a picture from anywhere on
    the disk went into the PDF), is named in one line."""
    if path.is_symlink():
        raise BuildError(f"{path}: cannot read this picture (a symbolic link; a build writes none)")
    try:
        return Sheet(read_bounded(path).decode("utf-8"), label, notes, path)
    except FileNotFoundError:
        raise BuildError(f"{path}: missing; build the spec again to draw it") from None
    except (OSError, ValueError) as exc:  # a pipe, a link loop, not UTF-8
        raise BuildError(f"{path}: cannot read this picture ({exc})") from None


def booklet_pdf(result: dict[str, Any], folder: Path) -> bytes:
    """The PDF for the build in `folder`: its puzzles, four to a page, then the solutions."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise UsageError(
            "printing needs the fpdf2 package: pip install 'epcg-spec[print]'"
        ) from None
    puzzles, solutions = PRINTABLE[result["kind"]](result, folder)
    if not solutions:
        raise BuildError(f"{folder}: the build holds no puzzles to print")
    pdf = FPDF(format="A4", unit="mm")
    pdf.set_creation_date(FIXED_DATE)  # not the clock: same input, same bytes
    pdf.set_title(f"{result['spec']}: puzzles")
    pdf.set_creator("epcg-spec")
    pdf.set_producer("epcg-spec")
    pdf.set_auto_page_break(False)
    quiet = logging.getLogger("fpdf.svg")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # not a word per <title> it skips
    try:
        for part, sheets in (("puzzles", puzzles), ("solutions", solutions)):
            for first in range(0, len(sheets), COLUMNS * ROWS):
                _page(pdf, f"{result['spec']}: {part}")
                for slot, sheet in enumerate(sheets[first : first + COLUMNS * ROWS]):
                    _sheet(pdf, sheet, slot)
        return bytes(pdf.output())
    finally:
        quiet.setLevel(level)


def _page(pdf, title: str) -> None:
    pdf.add_page()
    pdf.set_text_color(*INK)
    pdf.set_font("Helvetica", "B", 14)
    pdf.set_xy(MARGIN, MARGIN)
    pdf.cell(0, 8, _latin1(title))
    pdf.set_font("Helvetica", "", 9)
    pdf.set_xy(MARGIN, PAGE_H - MARGIN)
    pdf.cell(0, 5, f"page {pdf.page_no()}", align="C")


def _sheet(pdf, sheet: Sheet, slot: int) -> None:
    """One picture in its quarter of the page, the caption and notes under it."""
    cell_w = (PAGE_W - 2 * MARGIN) / COLUMNS
    cell_h = (PAGE_H - 2 * MARGIN - HEAD) / ROWS
    below = LABEL + NOTE * ((len(sheet.notes) + 1) // 2)
    size = min(cell_w, cell_h - below) * 0.86
    left = MARGIN + (slot % COLUMNS) * cell_w + (cell_w - size) / 2
    top = MARGIN + HEAD + (slot // COLUMNS) * cell_h + (cell_h - below - size) / 2
    if isinstance(sheet.picture, GridDrawing):
        _grid(pdf, sheet.picture, left, top, size)
    else:
        _svg(pdf, sheet, left, top, size)
    pdf.set_text_color(*INK)
    pdf.set_font("Helvetica", "", 10)
    pdf.set_xy(left, top + size + 2)
    pdf.cell(size, LABEL - 3, _latin1(sheet.label), align="C")
    pdf.set_font("Helvetica", "", 8.5)
    half = (len(sheet.notes) + 1) // 2
    for i, note in enumerate(sheet.notes):
        pdf.set_xy(left + (i // half) * size / 2, top + size + LABEL + (i % half) * NOTE)
        pdf.cell(size / 2, NOTE, _latin1(note))


def _svg(pdf, sheet: Sheet, left: float, top: float, size: float) -> None:
    """An SVG picture. One read from the folder that fpdf2 cannot draw, or that names
    another file (an <image>, which fpdf2 would read from anywhere on the disk into the
    PDF), is refused in one line naming it."""
    from defusedxml.ElementTree import fromstring  # fpdf2's own dependency

    try:
        if sheet.source is not None:
            tags = {element.tag.rsplit("}", 1)[-1] for element in fromstring(sheet.picture).iter()}
            if "image" in tags:
                raise ValueError("an <image> element names another file")
        svg = io.BytesIO(sheet.picture.encode())
        pdf.image(svg, x=left, y=top, w=size, h=size, keep_aspect_ratio=True)
    except Exception as exc:  # fpdf2 raises many kinds on an SVG it cannot draw
        if sheet.source is None:
            raise  # a picture drawn here: a bug of ours
        raise BuildError(f"{sheet.source}: cannot draw this picture ({exc})") from None


def _latin1(text: str) -> str:
    """Text the PDF's built-in Helvetica can show: other characters become '?'."""
    return text.encode("latin-1", "replace").decode("latin-1")


def _grid(pdf, drawing: GridDrawing, left: float, top: float, size: float) -> None:
    unit = size / drawing.side
    pdf.set_draw_color(*INK)
    for x1, y1, x2, y2, width in drawing.lines:
        pdf.set_line_width(width * unit)
        pdf.line(left + x1 * unit, top + y1 * unit, left + x2 * unit, top + y2 * unit)
    points = unit * 0.55 / 0.3528  # a digit a little over half a cell high, in points
    for c, r, text, given in drawing.digits:
        pdf.set_font("Helvetica", "B" if given else "", points)
        pdf.set_text_color(*(INK if given else FILLED))
        pdf.set_xy(left + c * unit, top + r * unit)
        pdf.cell(unit, unit, text, align="C")


def write_booklet(folder: Path) -> Path:
    """Write `folder`/puzzles.pdf for the puzzles built into `folder` and return its path."""
    folder = Path(folder)
    result = read_result(folder)
    if result["kind"] not in PRINTABLE:
        raise UsageError(
            f"{folder}: a booklet is made for kind {', '.join(PRINTABLE)}, "
            f"not for {result.get('kind')}"
        )
    target = folder / BOOKLET
    atomic_write(target, booklet_pdf(result, folder))
    return target
