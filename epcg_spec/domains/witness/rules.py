"""The Python side of the rule kernels: the tables they read, and solving one panel."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .kernels import grid_tables, solve_panel
from .lines import LineSet
from .model import Grid, Panel
from .pieces import Piece, piece_sizes, placement_table


@cache
def rule_tables(grid: Grid, pieces: tuple[Piece, ...]) -> tuple:
    """R of the rule kernels: (the slot of each side of each cell, the piece placements,
    the piece sizes); built once per grid and library, never written to."""
    _, side = grid_tables(grid)
    return side, placement_table(pieces, grid.width, grid.height), piece_sizes(pieces)


@dataclass
class Solved:
    count: int  # solutions found (at most the limit)
    checked: int  # lines checked before the limit stopped the count
    found: list[int]  # the first solutions, as line numbers


def solve(panel: Panel, pieces: tuple[Piece, ...], lines: LineSet, limit: int, keep: int) -> Solved:
    """Count the lines that solve the panel, up to `limit`, keeping the first `keep`."""
    found = np.zeros(keep, np.int64)
    count, checked = solve_panel(
        lines.kernel_args(),
        panel.arrays().kernel_args(),
        rule_tables(panel.grid, pieces),
        limit,
        found,
    )
    return Solved(int(count), int(checked), [int(i) for i in found[: min(count, keep)]])
