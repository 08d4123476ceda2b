"""The typed form of a `kind: witness` spec: the grid, symbols, panels, layouts, joint sets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...spec.document import Document
from .pieces import Piece

# Symbol kinds as a spec writes them, and the codes the kernels read.
CELL_KINDS = ("square", "star", "triangle", "piece")
SLOT_KINDS = ("must_cross", "cannot_cross")
NONE, SQUARE, STAR, TRIANGLE, PIECE = 0, 1, 2, 3, 4
MUST, CANNOT = 1, 2
KIND_CODE = {
    "square": SQUARE,
    "star": STAR,
    "triangle": TRIANGLE,
    "piece": PIECE,
    "must_cross": MUST,
    "cannot_cross": CANNOT,
}
# Families of symbols whose rules interact (the kernels group placed symbols by family).
COLOUR_FAMILY, PIECE_FAMILY, LOCAL_FAMILY = 0, 1, 2
FAMILY = {
    "square": COLOUR_FAMILY,
    "star": COLOUR_FAMILY,
    "piece": PIECE_FAMILY,
    "triangle": LOCAL_FAMILY,
    "must_cross": LOCAL_FAMILY,
    "cannot_cross": LOCAL_FAMILY,
}
COLOURS: dict[str, str] = {
    "white": "#f4f4f0",
    "black": "#1b1b1b",
    "orange": "#f28c1c",
    "purple": "#8f4fc7",
    "green": "#3aa655",
    "cyan": "#2cc3d6",
    "magenta": "#d8399a",
    "yellow": "#f5d02a",
    "red": "#d93a3a",
    "blue": "#3b6fe0",
}
COLOUR_NAMES = tuple(COLOURS)
DOMAINS = ("cells", "edges", "vertices", "slots")
MAX_SIDE = 8


@dataclass(frozen=True)
class Grid:
    """A panel of width x height cells; vertices (x, y) with y upwards; slots are the edges
    (horizontal, then vertical) followed by the vertices, each numbered row by row."""

    width: int
    height: int
    start: tuple[int, int]
    goal: tuple[int, int]

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def hedges(self) -> int:
        return self.width * (self.height + 1)

    @property
    def edges(self) -> int:
        return self.hedges + (self.width + 1) * self.height

    @property
    def vertices(self) -> int:
        return (self.width + 1) * (self.height + 1)

    @property
    def slots(self) -> int:
        return self.edges + self.vertices

    @property
    def words(self) -> int:
        """uint64 words of a slot bitset."""
        return (self.slots + 63) // 64

    def cell(self, x: int, y: int) -> int:
        return y * self.width + x

    def cell_xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def vertex(self, x: int, y: int) -> int:
        return self.edges + y * (self.width + 1) + x

    def edge(self, a: tuple[int, int], b: tuple[int, int]) -> int | None:
        """The slot of the edge between vertices a and b, or None if they are not adjacent
        vertices of the panel."""
        (x1, y1), (x2, y2) = sorted([a, b])
        if min(x1, y1) < 0 or x2 > self.width or y2 > self.height:
            return None
        if y1 == y2 and x2 == x1 + 1:
            return y1 * self.width + x1
        if x1 == x2 and y2 == y1 + 1:
            return self.hedges + y1 * (self.width + 1) + x1
        return None

    def slot_ends(self, slot: int) -> tuple[tuple[int, int], ...]:
        """The vertex of a vertex slot, or the two end vertices of an edge slot."""
        if slot >= self.edges:
            v = slot - self.edges
            return ((v % (self.width + 1), v // (self.width + 1)),)
        if slot < self.hedges:
            x, y = slot % self.width, slot // self.width
            return (x, y), (x + 1, y)
        v = slot - self.hedges
        x, y = v % (self.width + 1), v // (self.width + 1)
        return (x, y), (x, y + 1)

    def domain(self, name: str) -> tuple[int, int]:
        """(first index, size) of a placement domain: cells, or a range of slots."""
        return {
            "cells": (0, self.cells),
            "edges": (0, self.edges),
            "vertices": (self.edges, self.vertices),
            "slots": (0, self.slots),
        }[name]


@dataclass(frozen=True)
class Symbol:
    """One constraint on a panel: a cell symbol (value: colour, count or piece index) or a
    slot symbol (must_cross / cannot_cross on an edge or a vertex)."""

    kind: str
    at: int
    value: int = 0


@dataclass
class PanelArrays:
    """A panel as the kernels read it."""

    must: np.ndarray  # uint64[words]: slots the line must use
    cannot: np.ndarray  # uint64[words]: slots the line must avoid
    cell_kind: np.ndarray  # int64[cells]: NONE, SQUARE, STAR, TRIANGLE or PIECE
    cell_param: np.ndarray  # int64[cells]: colour index, triangle count or piece index

    @property
    def marked(self) -> np.ndarray:
        """The cells that hold a symbol."""
        return np.flatnonzero(self.cell_kind).astype(np.int64)

    def kernel_args(self) -> tuple:
        """P of the rule kernels: (must, cannot, kind, param, marked)."""
        return self.must, self.cannot, self.cell_kind, self.cell_param, self.marked


@dataclass(frozen=True)
class Panel:
    grid: Grid
    symbols: tuple[Symbol, ...]

    def arrays(self) -> PanelArrays:
        grid = self.grid
        masks = {MUST: np.zeros(grid.words, np.uint64), CANNOT: np.zeros(grid.words, np.uint64)}
        kind = np.zeros(grid.cells, np.int64)
        param = np.zeros(grid.cells, np.int64)
        for symbol in self.symbols:
            code = KIND_CODE[symbol.kind]
            if symbol.kind in SLOT_KINDS:
                masks[code][symbol.at // 64] |= np.uint64(1 << (symbol.at % 64))
            else:
                kind[symbol.at] = code
                param[symbol.at] = symbol.value
        return PanelArrays(masks[MUST], masks[CANNOT], kind, param)

    def to_data(self, pieces: tuple[Piece, ...]) -> dict[str, Any]:
        """The panel in the spec's own text form (so `build` can read it back)."""
        grid = self.grid
        data: dict[str, Any] = {"size": [grid.width, grid.height]}
        if grid.start != (0, 0):
            data["start"] = list(grid.start)
        if grid.goal != (grid.width, grid.height):
            data["goal"] = list(grid.goal)
        items = [symbol_data(grid, s, pieces) for s in sorted(self.symbols, key=_symbol_order)]
        if items:
            data["constraints"] = items
        return data


def _symbol_order(symbol: Symbol) -> tuple[int, int]:
    return (SLOT_KINDS + CELL_KINDS).index(symbol.kind), symbol.at


def symbol_data(grid: Grid, symbol: Symbol, pieces: tuple[Piece, ...]) -> dict[str, Any]:
    """One symbol in the spec's text form, e.g. {piece: L3-sw, at: [0, 2]}."""
    if symbol.kind in SLOT_KINDS:
        ends = [list(v) for v in grid.slot_ends(symbol.at)]
        return {symbol.kind: ends[0] if len(ends) == 1 else ends}
    value: Any = symbol.value
    if symbol.kind in ("square", "star"):
        value = COLOUR_NAMES[symbol.value]
    elif symbol.kind == "piece":
        value = pieces[symbol.value].name
    return {symbol.kind: value, "at": list(grid.cell_xy(symbol.at))}


@dataclass(frozen=True)
class Placement:
    """`count` symbols of one kind placed on every combination of positions of a domain,
    each taking every value of `values` (colours, counts or piece indices)."""

    kind: str
    count: int
    values: tuple[int, ...]
    domain: str
    path: tuple


@dataclass(frozen=True)
class JointSpec:
    """Choose `panels` sub-panels from the layouts' panels, one line solving them all."""

    panels: int
    min_solutions: int
    max_solutions: int | None


@dataclass
class WitnessSpec:
    document: Document
    name: str
    description: str
    grid: Grid
    panel: Panel
    pieces: tuple[Piece, ...]
    placements: list[Placement]
    joint: JointSpec | None
    objective: str
    top: int
    limit: int

    @property
    def mode(self) -> str:
        """solve (one panel), layouts (exhaustive) or joint (branch and bound)."""
        if self.joint is not None:
            return "joint"
        return "layouts" if self.placements else "solve"

    @property
    def backend(self) -> str:
        return "branch_and_bound" if self.joint is not None else "exhaustive"
