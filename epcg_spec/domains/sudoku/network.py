"""A Sudoku grid as a propagation network: one variable per cell, one group per unit and digit."""

from __future__ import annotations

import numpy as np

from ...search.propagate import Model, Network


def units(box: int) -> list[list[int]]:
    """Rows, columns and boxes of a grid of side box * box, as lists of cell indices."""
    side = box * box
    rows = [[r * side + c for c in range(side)] for r in range(side)]
    columns = [[r * side + c for r in range(side)] for c in range(side)]
    boxes = [
        [(br * box + i) * side + bc * box + j for i in range(box) for j in range(box)]
        for br in range(box)
        for bc in range(box)
    ]
    return rows + columns + boxes


def sudoku_network(box: int, puzzle: np.ndarray | None = None) -> Model:
    """Each digit exactly once in every row, column and box; the puzzle's clues fixed."""
    side = box * box
    net = Network(side * side, side)
    if puzzle is not None:
        for cell in np.flatnonzero(puzzle >= 0):
            net.restrict([cell], np.arange(side) == puzzle[cell])
    for unit in units(box):
        for digit in range(side):
            net.group(unit, [digit], 1, 1)
    return net.compile()


def symmetric_partner(box: int) -> np.ndarray:
    """The cell a half turn of the grid maps each cell to."""
    cells = (box * box) ** 2
    return (cells - 1 - np.arange(cells)).astype(np.int64)
