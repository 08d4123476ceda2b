"""A schema-valid `kind: fling` document to a FlingSpec, with every semantic check located."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.errors import Diagnostic, SpecError
from ...spec.document import Document
from ...spec.document import Path as DocPath
from ...spec.params import integer_field, resolve_params
from .model import MAX_CELLS, FlingSpec, Layers, Selection

DEFAULT_WIDTH, DEFAULT_HEIGHT = 7, 8
DEFAULT_TOP = 5
DEFAULT_CANDIDATES = 200
EMPTY, PIECE = ".", "o"


def load_fling_spec(doc: Document, overrides: dict[str, Any]) -> FlingSpec:
    data = doc.data
    params = resolve_params(doc, overrides)
    problems: list[Diagnostic] = []

    def number(path: DocPath, default: int, least: int) -> int:
        if doc.get(path) is None:
            return default
        value = integer_field(doc, path, params)
        if value < least:
            problems.append(doc.diag(path, f"{_where(path)} is {value}; it must be >= {least}"))
            return least
        return value

    rows = _picture(doc, problems) if "puzzle" in data else None
    given = data.get("board") or {}
    width = number(("board", "width"), len(rows[0]) if rows else DEFAULT_WIDTH, 1)
    height = number(("board", "height"), len(rows) if rows else DEFAULT_HEIGHT, 1)
    if width * height > MAX_CELLS:
        problems.append(
            doc.diag(
                ("board",),
                f"a {width} x {height} board has {width * height} cells; at most {MAX_CELLS} fit",
                "make it smaller",
            )
        )
    puzzle = None
    if rows is not None:
        puzzle = _puzzle_cells(doc, rows, width, height, "width" in given or "height" in given)
    raw_rules = data.get("unique", "moves")
    rules = (raw_rules,) if isinstance(raw_rules, str) else tuple(raw_rules)
    layers = selection = None
    if "layers" in data:
        layers = _layers(doc, number, problems)
        top = layers.unique if layers else 1
        pieces = number(("select", "pieces"), top, 1)
        if layers and not 2 <= pieces <= layers.unique:
            problems.append(
                doc.diag(
                    ("select", "pieces"),
                    f"select.pieces is {pieces}, but unique boards are counted for 2..{top} pieces",
                    f"choose 2..{top}, or raise layers",
                )
            )
        selection = Selection(
            pieces, number(("select", "top"), DEFAULT_TOP, 1),
            number(("select", "candidates"), DEFAULT_CANDIDATES, 1),
        )  # fmt: skip
    else:
        for key in ("search", "select"):
            if key in data:
                problems.append(
                    doc.diag((key,), f"'{key}' applies to 'layers' only", "remove it", key=True)
                )
    if layers and layers.unique > width * height:
        problems.append(
            doc.diag(
                ("layers",), f"a {width} x {height} board holds at most {width * height} pieces"
            )
        )
    if problems:
        raise SpecError(problems)
    return FlingSpec(
        document=doc,
        name=data.get("name") or Path(doc.source).stem,
        description=data.get("description", ""),
        seed=data.get("seed", 0),
        width=width,
        height=height,
        rules=rules,
        layers=layers,
        selection=selection,
        puzzle=puzzle,
    )


def _where(path: DocPath) -> str:
    return ".".join(str(p) for p in path)


def _layers(doc: Document, number, problems: list[Diagnostic]) -> Layers | None:
    node = doc.data["layers"]
    path: DocPath = ("layers",) if not isinstance(node, dict) else ("layers", "unique")
    unique = number(path, 2, 2)
    solvable = number(("layers", "solvable"), unique, 1) if isinstance(node, dict) else unique
    if unique > solvable + 1:
        problems.append(
            doc.diag(
                ("layers", "unique"),
                f"unique boards of {unique} pieces are found from the solvable boards of "
                f"{unique - 1}, but layers.solvable is {solvable}",
                f"set layers.solvable to at least {unique - 1}",
            )
        )
        return None
    unique_by = (doc.data.get("search") or {}).get("unique_by", "predecessors")
    return Layers(solvable, unique, unique_by)


def _picture(doc: Document, problems: list[Diagnostic]) -> list[tuple[DocPath, int, str]] | None:
    """The puzzle's rows as (path, offset of the row in that string, row text)."""
    node = doc.data["puzzle"]
    rows: list[tuple[DocPath, int, str]] = []
    if isinstance(node, str):
        offset = 0
        for line in node.split("\n"):
            if line.strip():
                start = len(line) - len(line.lstrip())
                rows.append((("puzzle",), offset + start, line.strip()))
            offset += len(line) + 1
    else:
        rows = [(("puzzle", i), 0, row) for i, row in enumerate(node)]
    for path, offset, row in rows:
        for i, char in enumerate(row):
            if char not in (EMPTY, PIECE):
                problems.append(
                    Diagnostic(
                        doc.text_pos(path, offset + i),
                        f"{char!r} is not a cell",
                        f"draw an empty cell as '{EMPTY}' and a piece as '{PIECE}'",
                    )
                )
                break
    if not rows:
        problems.append(doc.diag(("puzzle",), "the puzzle has no rows"))
        return None
    return [row for _, _, row in rows] if not problems else None


def _puzzle_cells(doc: Document, rows, width: int, height: int, explicit: bool) -> tuple[int, ...]:
    problems = []
    if len(rows) != height:
        problems.append(
            doc.diag(
                ("puzzle",),
                f"the puzzle has {len(rows)} rows, but the board is {height} high",
                "draw one row per board row" if explicit else "",
            )
        )
    for y, row in enumerate(rows):
        if len(row) != width:
            problems.append(
                doc.diag(
                    ("puzzle", y) if isinstance(doc.data["puzzle"], list) else ("puzzle",),
                    f"row {y + 1} of the puzzle has {len(row)} cells, but the board is "
                    f"{width} wide",
                )
            )
    cells = tuple(
        y * width + x for y, row in enumerate(rows) for x, c in enumerate(row) if c == PIECE
    )
    if not cells:
        problems.append(doc.diag(("puzzle",), "the puzzle has no pieces", "draw pieces as 'o'"))
    if problems:
        raise SpecError(problems)
    return cells
