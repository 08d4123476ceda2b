"""The typed form of a `kind: fling` spec."""

from __future__ import annotations

from dataclasses import dataclass

from ...spec.document import Document

MAX_CELLS = 64  # a board is one uint64 of bits, one a cell


@dataclass(frozen=True)
class Layers:
    """Judge every board of up to `solvable` pieces; count unique boards up to `unique`."""

    solvable: int
    unique: int
    unique_by: str  # "predecessors" or "scan"


@dataclass(frozen=True)
class Selection:
    """Keep the `top` boards of `pieces` pieces by the expert's ratio, of `candidates` drawn."""

    pieces: int
    top: int
    candidates: int


@dataclass(frozen=True)
class FlingSpec:
    document: Document
    name: str
    description: str
    seed: int
    width: int
    height: int
    rules: tuple[str, ...]  # the first one selects
    layers: Layers | None
    selection: Selection | None
    puzzle: tuple[int, ...] | None  # the occupied cells of the board to check

    @property
    def cells(self) -> int:
        return self.width * self.height
