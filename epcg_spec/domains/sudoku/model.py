"""The typed form of a `kind: sudoku` spec."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...spec.document import Document

DIGITS = "123456789ABCDEFG"
GRADES = {"naked": 1, "hidden": 2, "search": 3}
GRADE_NAMES = {1: "naked", 2: "hidden", 3: "search"}


@dataclass(frozen=True)
class Generate:
    """How puzzles are dug out of a random full grid."""

    puzzles: int
    clues: int  # stop removing at this many clues (0: remove while possible)
    minimal: bool
    symmetric: bool
    difficulty: str  # any | naked | hidden | search
    attempts: int


@dataclass
class SudokuSpec:
    document: Document
    name: str
    description: str
    box: int
    puzzle: np.ndarray | None  # cell values 0-based, -1 blank; None: generate
    generate: Generate
    limit: int

    @property
    def side(self) -> int:
        return self.box * self.box


def grid_text(values: np.ndarray, box: int) -> str:
    """A grid as lines of digits ('.' for a blank), boxes set apart by spaces."""
    side = box * box
    rows = grid_rows(values, box)
    return "".join(" ".join(row[c : c + box] for c in range(0, side, box)) + "\n" for row in rows)


def grid_rows(values: np.ndarray, box: int) -> list[str]:
    """A grid as one string per row, for result.json."""
    side = box * box
    cells = "".join("." if v < 0 else DIGITS[v] for v in np.asarray(values).tolist())
    return [cells[r * side : (r + 1) * side] for r in range(side)]
