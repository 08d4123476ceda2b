"""A schema-valid `kind: sudoku` document to a SudokuSpec, with located errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...core.errors import Diagnostic, SpecError
from ...spec.document import Document
from .model import DIGITS, Generate, SudokuSpec

BLANKS = ".0_"


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
    side = box * box
    symbols = DIGITS[:side]
    node = doc.data["puzzle"]
    texts = node if isinstance(node, list) else [node]
    values: list[int] = []
    problems: list[Diagnostic] = []
    for i, text in enumerate(texts):
        path = ("puzzle", i) if isinstance(node, list) else ("puzzle",)
        for offset, char in enumerate(text):
            if char.isspace() or char in "|-+":
                continue
            if char in BLANKS:
                values.append(-1)
            elif char.upper() in symbols:
                values.append(symbols.index(char.upper()))
            else:
                problems.append(
                    Diagnostic(
                        doc.text_pos(path, offset),
                        f"{char!r} is not a digit of a {side} x {side} grid",
                        f"digits: {symbols}, blanks: '.' or '0'",
                    )
                )
    if problems:
        raise SpecError(problems)
    if len(values) != side * side:
        raise SpecError(
            doc.diag(
                ("puzzle",),
                f"the puzzle has {len(values)} cells, a {side} x {side} grid has {side * side}",
            )
        )
    return np.array(values, dtype=np.int64)
