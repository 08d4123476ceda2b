"""The Python side of the rule kernels: the tables they read, and solving one panel."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .kernels import base_filter, grid_tables
from .lines import LineSet
from .model import FAMILY, LOCAL_FAMILY, Grid, Panel
from .pieces import Piece, piece_sizes, placement_table

SOLVE_RUN = 1 << 12  # lines checked per kernel call: a limit stops the count after its run


@cache
def rule_tables(grid: Grid, pieces: tuple[Piece, ...]) -> tuple:
    """R of the rule kernels: (the slot of each side of each cell, the piece placements,
    the piece sizes); built once per grid and library, never written to."""
    _, side = grid_tables(grid)
    return side, placement_table(pieces, grid.width, grid.height), piece_sizes(pieces)


def filter_args(panel: Panel, pieces: tuple[Piece, ...], lines: LineSet) -> tuple:
    """The arguments of base_filter before its outputs (L, P, side, R), with R None where
    the panel has no square, star or piece."""
    tables = rule_tables(panel.grid, pieces)
    regional = any(FAMILY[symbol.kind] != LOCAL_FAMILY for symbol in panel.symbols)
    rules = tables if regional else None
    return lines.kernel_args(), panel.arrays().kernel_args(), tables[0], rules


@dataclass
class Solved:
    count: int  # solutions found (at most the limit)
    checked: int  # lines checked before the limit stopped the count
    found: list[int]  # the first solutions, as line numbers


def solve(panel: Panel, pieces: tuple[Piece, ...], lines: LineSet, limit: int, keep: int) -> Solved:
    """Count the lines that solve the panel, up to `limit` (at least 1), keeping the first
    `keep`."""
    args = filter_args(panel, pieces, lines)
    ok = np.zeros(lines.count, np.bool_)
    fail_colour = np.zeros(lines.count, np.uint64)
    fail_piece = np.zeros(lines.count, np.uint64)
    count, found = 0, []
    for lo in range(0, lines.count, SOLVE_RUN):
        hi = min(lo + SOLVE_RUN, lines.count)
        base_filter(lo, hi, *args, ok, fail_colour, fail_piece)
        solves = ok[lo:hi] & (fail_colour[lo:hi] == 0) & (fail_piece[lo:hi] == 0)
        solutions = lo + np.flatnonzero(solves)[: limit - count]
        found += solutions[: keep - len(found)].tolist()
        count += len(solutions)
        if count == limit:
            return Solved(count, int(solutions[-1]) + 1, found)
    return Solved(count, lines.count, found)
