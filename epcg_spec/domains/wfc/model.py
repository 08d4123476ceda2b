"""The typed form of a `kind: wfc` spec: one or more runs, each a model on a grid."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...spec.document import Document
from ...spec.document import Path as DocPath
from .constraints import Nogoods
from .hexpatterns import HexPatterns
from .patterns import PatternModel
from .tiles import TiledModel
from .topology import Topology
from .voxels import VoxelPatterns

DEFAULT_SIZE = {"overlapping": 48, "tiled": 24}


@dataclass
class Restriction:
    """Cells whose value must lie in `allowed` (fixed tiles, borders, colours, ground)."""

    cells: np.ndarray
    allowed: np.ndarray  # bool per value
    at: DocPath = ()  # the setting that asks for it (as every constraint below)


@dataclass
class Count:
    """lo <= number of cells holding one of `values` <= hi."""

    label: str
    values: np.ndarray
    lo: int
    hi: int
    at: DocPath = ()


@dataclass
class Connection:
    """Cells holding `values` form one network; `exits[d]`: values open towards direction d."""

    values: np.ndarray
    exits: dict[int, np.ndarray] | None
    at: DocPath = ()


@dataclass
class Distance:
    """The path between two cells (whole-grid numbers) through `through` has lo..hi steps."""

    through: Connection
    start: int
    end: int
    lo: int
    hi: int
    at: DocPath = ()


@dataclass
class WfcRun:
    """One model on one grid, with its constraints and search policy."""

    name: str
    model: str  # "tiled" | "overlapping"
    width: int  # output size: cells (tiled) or pixels (overlapping)
    height: int
    periodic: bool
    heuristic: str
    outputs: int
    limit: int | None
    tiled: TiledModel | None
    patterns: PatternModel | VoxelPatterns | HexPatterns | None
    backtrack: bool
    max_backtracks: int | None
    attempts: int
    text_output: bool = True
    black_background: bool = False
    restrictions: list[Restriction] = field(default_factory=list)
    counts: list[Count] = field(default_factory=list)
    connection: Connection | None = None
    nogoods: list[Nogoods] = field(default_factory=list)  # separation, max_consecutive, mirror
    acyclic: list[Connection] = field(default_factory=list)  # checked on complete results
    distances: list[Distance] = field(default_factory=list)  # checked on complete results
    notes: list[str] = field(default_factory=list)
    topology: Topology | None = None  # set by the loader once the grid is known
    depth: int = 1  # cube: layers
    extra: tuple[str, ...] = ()  # further files per output: csv, tmx, vox, svg
    path: tuple[str | int, ...] = ()  # where the spec sets this run: () or ("samples", i)

    @property
    def values(self) -> int:
        return self.tiled.count if self.tiled is not None else self.patterns.count

    @property
    def weights(self) -> np.ndarray:
        return self.tiled.weights if self.tiled is not None else self.patterns.weights

    @property
    def grid(self) -> tuple[int, int]:
        """(columns, rows) of cells: an overlapping bounded grid has one cell per N x N window."""
        if self.patterns is None or self.periodic or isinstance(self.patterns, HexPatterns):
            return self.width, self.height
        n = self.patterns.n
        return self.width - n + 1, self.height - n + 1

    @property
    def cells(self) -> int:
        """Cells of the whole grid (the map and any cells a mask takes out)."""
        return self.topology.cells

    def constraints(self) -> list:
        """Every constraint beyond the tile rules, each with the setting (`at`) it comes from."""
        connection = [] if self.connection is None else [self.connection]
        return [
            *self.restrictions,
            *self.counts,
            *connection,
            *self.nogoods,
            *self.acyclic,
            *self.distances,
        ]


@dataclass
class WfcSpec:
    document: Document
    name: str
    description: str
    runs: list[WfcRun]
