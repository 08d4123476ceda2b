"""A schema-valid `kind: sudoku` document to a SudokuSpec, with located errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...core.errors import Diagnostic, SpecError
from ...spec.document import Document
from .model import DIGITS, Generate, SudokuSpec

BLANKS = ".0_"
Cell = tuple[tuple[str | int, ...], int, str]  # the string's path, the offset, the character


def load_sudoku_spec(doc: Document, params: dict[str, Any]) -> SudokuSpec:
    data = doc.data
    box = data.get("box", 3)
    options = data.get("generate") or {}
    if "puzzle" in data and "generate" in data:
        raise SpecError(
            doc.diag(("generate",), "give 'puzzle' (to solve or count) or 'generate', not both")
        )
    generate = Generate(
        puzzles=options.get("puzzles", 1),
        clues=options.get("clues", 0),
        minimal=options.get("minimal", "clues" not in options),
        symmetric=options.get("symmetric", False),
        difficulty=options.get("difficulty", "any"),
        attempts=options.get("attempts", 100),
    )
    if generate.minimal and generate.symmetric:
        raise SpecError(
            doc.diag(
                ("generate", "minimal"),
                "a symmetric puzzle is minimal only clue pair by clue pair",
                "drop 'minimal' or 'symmetric'",
            )
        )
    if generate.minimal and generate.clues:
        raise SpecError(
            doc.diag(
                ("generate", "clues"),
                "'clues' stops removing early, so the puzzle would not be minimal",
                "drop 'minimal' or 'clues'",
            )
        )
    if generate.clues > box**4:
        raise SpecError(
            doc.diag(
                ("generate", "clues"),
                f"generate.clues is {generate.clues}, but a {box * box} x {box * box} grid "
                f"has {box**4} cells; choose 0..{box**4}",
            )
        )
    puzzle = _grid(doc, box) if "puzzle" in data else None
    return SudokuSpec(
        document=doc,
        name=data.get("name") or Path(doc.source).stem,
        description=data.get("description", ""),
        box=box,
        puzzle=puzzle,
        generate=generate,
        limit=data.get("limit", 0),
    )


def _grid(doc: Document, box: int) -> np.ndarray:
    """The puzzle's digits, row by row; whitespace, '|', '-' and '+' are layout only."""
    symbols = DIGITS[: box * box]
    rows = _rows(doc)
    _refuse_non_digits(doc, rows, box, DIGITS)
    _refuse_size(doc, box, rows)
    _refuse_non_digits(doc, rows, box, symbols)
    cells = [cell for row in rows for cell in row]
    values = [-1 if c in BLANKS else symbols.index(c.upper()) for *_, c in cells]
    _refuse_clash(doc, box, cells, values)
    return np.array(values, dtype=np.int64)


def _rows(doc: Document) -> list[list[Cell]]:
    """The puzzle's cells, one list per line (of the text or of each item) holding any."""
    node = doc.data["puzzle"]
    texts = node if isinstance(node, list) else [node]
    rows: list[list[Cell]] = []
    for i, text in enumerate(texts):
        path = ("puzzle", i) if isinstance(node, list) else ("puzzle",)
        start = 0
        for line in text.split("\n"):
            row = [
                (path, start + offset, char)
                for offset, char in enumerate(line)
                if not (char.isspace() or char in "|-+")
            ]
            rows += [row] if row else []
            start += len(line) + 1
    return rows


def _refuse_non_digits(doc: Document, rows: list[list[Cell]], box: int, symbols: str) -> None:
    """Every cell not a blank nor one of `symbols`, one line each."""
    side = box * box
    problems = [
        Diagnostic(
            doc.text_pos(path, offset),
            f"{char!r} is not a digit of a {side} x {side} grid",
            f"digits: {DIGITS[:side]}, blanks: '.' or '0'",
        )
        for row in rows
        for path, offset, char in row
        if char not in BLANKS and char.upper() not in symbols
    ]
    if problems:
        raise SpecError(problems)


def _refuse_size(doc: Document, box: int, rows: list[list[Cell]]) -> None:
    """One line where the puzzle's cells do not make the grid that `box` gives."""
    side, cells = box * box, sum(map(len, rows))
    if cells == side * side:
        return
    fits = next((b for b in (2, 3, 4) if b**4 == cells), None)
    setting = f"box: {box}" if "box" in doc.data else f"box: {box} (the default)"
    if len(rows) > 1 and all(len(row) == len(rows) for row in rows):
        message = f"the puzzle has {len(rows)} rows but {setting} makes a {side} x {side} grid"
        hint = f"give {side} rows of {side} cells"
    else:
        message = f"the puzzle has {cells} cells, a {side} x {side} grid has {side * side}"
        hint = f"give {side * side} cells"
    raise SpecError(doc.diag(("puzzle",), message, hint + (f" or box: {fits}" if fits else "")))


def _refuse_clash(doc: Document, box: int, cells: list[Cell], values: list[int]) -> None:
    """One line, at its second place, for the first digit given twice in a unit."""
    side = box * box
    seen: dict[tuple[str, int, int], int] = {}
    for index, value in enumerate(values):
        if value < 0:
            continue
        row, col = divmod(index, side)
        units = (("row", row), ("column", col), ("box", row // box * box + col // box))
        for unit, number in units:
            first = seen.setdefault((unit, number, value), index)
            if first != index:
                path, offset, _ = cells[index]
                raise SpecError(
                    Diagnostic(
                        doc.text_pos(path, offset),
                        f"the puzzle has two {DIGITS[value]}s in {unit} {number + 1} "
                        f"({_cell_name(first, side)} and {_cell_name(index, side)})",
                        "a digit appears once per row, column and box",
                    )
                )


def _cell_name(index: int, side: int) -> str:
    """A cell as players name it: r3c7 (row and column from 1)."""
    row, col = divmod(index, side)
    return f"r{row + 1}c{col + 1}"
