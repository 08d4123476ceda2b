"""Grids as tables: cells, each direction's neighbour offset, opposite directions, symmetries.

Cells are numbered x fastest, then y, then z (layers). Directions are listed counter-clockwise
(seen from above), so one turn maps direction d to `rotation[d]`, and `mirror` is one fixed
reflection of the directions (see its docstring); the two generate the grid's symmetries.
A `square` grid has y pointing down (the image convention): right, up, left, down.
A `hex` grid is stored as Tiled stores it ("staggered", index odd): pointy-top hexes in rows,
odd rows shifted half a hex right; flat-top hexes in columns, odd columns shifted half a hex
down; the offsets of a direction then depend on the parity of the row (or column). A `cube` grid
has z pointing up, as MagicaVoxel does: east (+x), north (+y), west, south, up, down.

Only the `forward` directions carry edges in the network: each one's opposite is its
transpose, so every adjacent pair of cells is constrained exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NAMES = {
    "square": ("right", "up", "left", "down"),
    "pointy": ("east", "northeast", "northwest", "west", "southwest", "southeast"),
    "flat": ("northeast", "north", "northwest", "southwest", "south", "southeast"),
    "cube": ("east", "north", "west", "south", "up", "down"),
}
# (dx, dy, dz) per direction, for an even and an odd row (pointy) or column (flat)
_SQUARE = [(1, 0, 0), (0, -1, 0), (-1, 0, 0), (0, 1, 0)]
_POINTY_EVEN = [(1, 0, 0), (0, -1, 0), (-1, -1, 0), (-1, 0, 0), (-1, 1, 0), (0, 1, 0)]
_POINTY_ODD = [(1, 0, 0), (1, -1, 0), (0, -1, 0), (-1, 0, 0), (0, 1, 0), (1, 1, 0)]
_FLAT_EVEN = [(1, -1, 0), (0, -1, 0), (-1, -1, 0), (-1, 0, 0), (0, 1, 0), (1, 0, 0)]
_FLAT_ODD = [(1, 0, 0), (0, -1, 0), (-1, 0, 0), (-1, 1, 0), (0, 1, 0), (1, 1, 0)]
_CUBE = [(1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
TABLES = {
    "square": (_SQUARE, _SQUARE, -1, (0, 3)),
    "pointy": (_POINTY_EVEN, _POINTY_ODD, 1, (0, 4, 5)),
    "flat": (_FLAT_EVEN, _FLAT_ODD, 0, (0, 4, 5)),
    "cube": (_CUBE, _CUBE, -1, (0, 1, 4)),
}


@dataclass(frozen=True)
class Topology:
    """A grid: its shape, periodic axes, direction tables and the cells in the map."""

    layout: str  # square | pointy | flat | cube
    shape: tuple[int, int, int]  # columns, rows, layers
    periodic: tuple[bool, bool, bool]
    mask: np.ndarray | None = None  # bool per cell: True where the cell is in the map
    spin: str = "vertical"  # cube: tiles turn about the vertical only, or "all" 24 ways

    @property
    def grid(self) -> str:
        """square, hex or cube."""
        return "hex" if self.layout in ("pointy", "flat") else self.layout

    @property
    def directions(self) -> tuple[str, ...]:
        return NAMES[self.layout]

    @property
    def offsets(self) -> np.ndarray:
        """(2, D, 3): the offset of each direction from an even and from an odd row/column."""
        even, odd, _, _ = TABLES[self.layout]
        return np.array([even, odd], dtype=np.int64)

    @property
    def stagger(self) -> int:
        """The axis whose parity picks the offsets (-1: none)."""
        return TABLES[self.layout][2]

    @property
    def forward(self) -> tuple[int, ...]:
        return TABLES[self.layout][3]

    @property
    def turns(self) -> int:
        """Rotations of a tile in one full turn: 4 (square, cube) or 6 (hex)."""
        return 6 if self.grid == "hex" else 4

    def opposite(self, d: int) -> int:
        t = self.turns
        if d >= t:  # cube: up <-> down
            return 9 - d
        return (d + t // 2) % t

    @property
    def rotation(self) -> tuple[int, ...]:
        """Where one counter-clockwise turn sends each direction (up and down stay)."""
        t = self.turns
        return tuple((d + 1) % t if d < t else d for d in range(len(self.directions)))

    @property
    def mirror(self) -> tuple[int, ...]:
        """The reflection sending direction d to -d (square and cube: across the vertical).

        Square: right <-> left; cube: east <-> west; hex: d <-> -d (axis through direction 0).
        """
        t = self.turns
        axis = 2 if t == 4 else 0
        return tuple((axis - d) % t if d < t else d for d in range(len(self.directions)))

    @property
    def cells(self) -> int:
        return self.shape[0] * self.shape[1] * self.shape[2]

    def coordinates(self) -> np.ndarray:
        """(cells, 3): x, y, z of every cell in index order."""
        columns, rows, layers = self.shape
        z, y, x = np.meshgrid(np.arange(layers), np.arange(rows), np.arange(columns), indexing="ij")
        return np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)

    def index(self, xyz: np.ndarray) -> np.ndarray:
        """Cell numbers of (k, 3) coordinates."""
        columns, rows, _ = self.shape
        return xyz[:, 0] + xyz[:, 1] * columns + xyz[:, 2] * columns * rows

    def inside(self) -> np.ndarray:
        """True per cell in the map."""
        return np.ones(self.cells, dtype=bool) if self.mask is None else self.mask

    def variables(self) -> np.ndarray:
        """Per cell, its variable in the network (cells in the map in order), or -1."""
        inside = self.inside()
        out = np.full(self.cells, -1, dtype=np.int64)
        out[inside] = np.arange(int(inside.sum()))
        return out

    def links(self, d: int) -> tuple[np.ndarray, np.ndarray]:
        """(u, v): every pair of map cells with v the neighbour of u in direction d."""
        xyz = self.coordinates()
        if self.stagger >= 0:
            steps = self.offsets[xyz[:, self.stagger] % 2, d].T  # per axis, per cell
        else:
            steps = self.offsets[0, d]  # per axis, the same for every cell
        keep = np.ones(self.cells, dtype=bool)
        v = np.arange(self.cells)
        scale = 1
        for axis in range(3):
            if self.stagger < 0 and steps[axis] == 0:
                scale *= self.shape[axis]
                continue  # no cell moves along this axis
            here = xyz[:, axis]
            there = here + steps[axis]
            if self.periodic[axis]:
                there %= self.shape[axis]
            else:
                keep &= (there >= 0) & (there < self.shape[axis])
            v += (there - here) * scale
            scale *= self.shape[axis]
        u = np.flatnonzero(keep)
        v = v[keep]
        if self.mask is None:
            return u, v
        both = self.mask[u] & self.mask[v]
        return u[both], v[both]

    @property
    def tilt(self) -> tuple[int, ...]:
        """Cube: a quarter turn about the east axis (north to up, up to south)."""
        return (0, 4, 2, 5, 3, 1)

    def beside_mask(self) -> np.ndarray:
        """Map cells with a neighbour the mask took out."""
        whole = Topology(self.layout, self.shape, self.periodic)
        inside = self.inside()
        out = np.zeros(self.cells, dtype=bool)
        for d in range(len(self.directions)):
            u, v = whole.links(d)
            out[u[inside[u] & ~inside[v]]] = True
        return np.flatnonzero(out)


def describe_grid(topology: Topology) -> str:
    """One line for `explain`: the size, the kind of grid, what wraps and what is masked."""
    shape = topology.shape if topology.grid == "cube" else topology.shape[:2]
    text = f"{' x '.join(map(str, shape))} cells"
    if topology.grid == "hex":
        text += f", hex ({topology.layout} top)"
    elif topology.grid == "cube":
        text += ", cube (z up)"
    axes = [a for a, wraps in zip("xyz", topology.periodic, strict=True) if wraps]
    if len(axes) == len(shape):
        text += ", periodic"
    elif axes:
        text += f", periodic along {' and '.join(axes)}"
    if topology.mask is not None:
        text += f", {int((~topology.mask).sum())} masked out"
    return text
