"""Non-local constraints as nogoods (sets of cell values that may not occur together).

separation: no two cells holding tiles of a set lie fewer than d steps apart (steps between
neighbouring map cells, wrapping where the grid does). max_consecutive: no k + 1 cells in a row
along an axis all hold tiles of a set. mirror: the result equals its own mirror image across
the middle of the map (x: left-right, y: top-bottom on square grids; x or y on cube grids;
y on pointy-top hex maps, x on flat-top ones, where the rows (columns) that shift by half a hex
are odd, so an odd count of them maps shifted rows onto shifted rows), each tile in its
mirrored variant.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .orbits import elements
from .topology import Topology

# axis -> the direction that walks along it, per grid
AXES = {
    "square": {"x": 0, "y": 3},
    "pointy": {"x": 0},
    "flat": {"y": 4},
    "cube": {"x": 0, "y": 1, "z": 4},
}
# mirror axis -> (the reflection as a permutation of the directions, the coordinate flipped)
MIRRORS = {
    "square": {"x": ((2, 1, 0, 3), 0), "y": ((0, 3, 2, 1), 1)},
    "pointy": {"y": ((0, 5, 4, 3, 2, 1), 1)},  # east stays, northeast <-> southeast, ...
    "flat": {"x": ((2, 1, 0, 5, 4, 3), 0)},  # north stays, northeast <-> northwest, ...
    "cube": {"x": ((2, 1, 0, 3, 4, 5), 0), "y": ((0, 3, 2, 1, 4, 5), 1)},
}


@dataclass
class Nogoods:
    """Rows of cells (whole-grid numbers) and, per cell of a row, the values it may not hold
    all together: a row is violated when every one of its cells holds a value of its set."""

    cells: np.ndarray  # (rows, length)
    sets: np.ndarray  # (rows, length, values) bool
    at: tuple[str | int, ...] = ()  # the setting that asks for them


def _steps(topology: Topology) -> list[np.ndarray]:
    """Per direction, each cell's neighbour there (-1: none)."""
    out = []
    for d in range(len(topology.directions)):
        step = np.full(topology.cells, -1, dtype=np.int64)
        u, v = topology.links(d)
        step[u] = v
        out.append(step)
    return out


def separation(topology: Topology, members: np.ndarray, distance: int) -> Nogoods:
    """No two cells of `members` (a value mask) closer than `distance` steps."""
    steps = _steps(topology)
    pairs = set()
    for start in np.flatnonzero(topology.inside()).tolist():
        seen, frontier = {start}, [start]
        for _ in range(distance - 1):
            frontier = [
                int(s[c]) for c in frontier for s in steps if s[c] >= 0 and int(s[c]) not in seen
            ]
            seen.update(frontier)
        pairs.update((start, c) for c in seen if c > start)
    cells = np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)
    return Nogoods(cells, np.broadcast_to(members, (len(cells), 2, len(members))).copy())


def max_consecutive(topology: Topology, members: np.ndarray, most: int, axis: str) -> Nogoods:
    """No `most` + 1 cells in a row along `axis` all hold values of `members`."""
    step = _steps(topology)[AXES[topology.layout][axis]]
    rows = []
    for start in np.flatnonzero(topology.inside()).tolist():
        row = [start]
        while len(row) <= most and step[row[-1]] >= 0:
            row.append(int(step[row[-1]]))
        if len(row) == most + 1 and len(set(row)) == len(row):
            rows.append(row)
    cells = np.array(rows, dtype=np.int64).reshape(-1, most + 1)
    return Nogoods(cells, np.broadcast_to(members, (len(cells), most + 1, len(members))).copy())


def mirror_element(topology: Topology, axis: str) -> int:
    """The index, among the grid's symmetries, of the reflection across `axis`."""
    return elements(topology).index(MIRRORS[topology.layout][axis][0])


def mirror(topology: Topology, actions: np.ndarray, axis: str) -> tuple[Nogoods, np.ndarray]:
    """(nogoods tying each cell to its mirror cell, cells on the mirror line): cell c holds
    a where its mirror cell holds the mirror image of a; a cell on the line holds a variant
    its own mirror image."""
    image = actions[:, mirror_element(topology, axis)]
    flipped = MIRRORS[topology.layout][axis][1]
    xyz = topology.coordinates()
    other = xyz.copy()
    other[:, flipped] = topology.shape[flipped] - 1 - xyz[:, flipped]
    partner = topology.index(other)
    count = len(image)
    rows, sets = [], []
    for c in range(topology.cells):
        if c < partner[c]:
            for a in range(count):
                forbidden = np.ones(count, dtype=bool)
                forbidden[image[a]] = False
                here = np.zeros(count, dtype=bool)
                here[a] = True
                rows.append((c, int(partner[c])))
                sets.append((here, forbidden))
    on_line = np.flatnonzero(partner == np.arange(topology.cells))
    cells = np.array(rows, dtype=np.int64).reshape(-1, 2)
    return Nogoods(cells, np.array(sets, dtype=bool).reshape(-1, 2, count)), on_line
