"""The overlapping model in 3D: N x N x N patterns of a voxel sample (a MagicaVoxel .vox).

As in 2D: voxel values (the sample's colour indices, 0 for no voxel) are numbered in order of
first appearance (x fastest, then y, then z); windows are read in that order (wrapping when the
input is periodic); each window yields its images under the turns about the vertical axis and
the mirror, in the 2D order (identity, mirror, quarter turn, its mirror, ...), of which the first
`symmetry` count; a pattern's weight is how often it was counted. Cell c of the output holds a
pattern whose corner voxel (lowest x, y, z) lies at c; neighbouring patterns agree where they
overlap, in each of the six directions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .patterns import PATTERN_FIX, PatternCounter, _agree, check_variants, first_appearance
from .topology import Topology


@dataclass
class VoxelPatterns:
    """The patterns of a voxel sample, their weights, and an overlap table per direction."""

    n: int
    codes: np.ndarray  # value index -> the sample's colour index (0: no voxel)
    palette: dict[int, tuple[int, int, int]]  # colour index -> RGB
    patterns: np.ndarray  # (T, N, N, N) value indices, axes z, y, x
    weights: np.ndarray
    sides: np.ndarray  # sides[d, a, b]: b in direction d of a agrees on the overlap
    bottom: np.ndarray  # patterns of windows resting on the sample's floor (z = 0)

    @property
    def count(self) -> int:
        return len(self.weights)

    @property
    def colors(self) -> np.ndarray:
        """(values, 3): the colour of each voxel value (white for no voxel)."""
        return np.array([self.palette.get(int(c), (255, 255, 255)) for c in self.codes])


def _images(window: np.ndarray) -> list[np.ndarray]:
    out = []
    w = window
    for _ in range(4):
        out += [w, w[:, :, ::-1]]
        w = np.rot90(w, axes=(1, 2))
    return out


def extract_voxels(
    grid: np.ndarray,
    palette: dict[int, tuple[int, int, int]],
    n: int,
    symmetry: int,
    periodic_input: bool,
) -> VoxelPatterns:
    """Every N x N x N pattern of a (z, y, x) grid of colour indices, and the overlap tables."""
    codes, numbers = first_appearance(grid.ravel())
    values = numbers.reshape(grid.shape)
    depth, height, width = grid.shape
    spans = [(s if periodic_input else s - n + 1) for s in (depth, height, width)]
    seen = PatternCounter()
    bottom: set[int] = set()
    for z in range(spans[0]):
        for y in range(spans[1]):
            for x in range(spans[2]):
                window = values[
                    np.ix_(
                        (z + np.arange(n)) % depth,
                        (y + np.arange(n)) % height,
                        (x + np.arange(n)) % width,
                    )
                ]
                for image in _images(window)[:symmetry]:
                    found = seen.add(image)
                    if z == 0:
                        bottom.add(found)
    check_variants(len(seen.patterns), 6, "patterns", PATTERN_FIX)
    stack = seen.stack()
    cube = Topology("cube", (1, 1, 1), (False, False, False))
    sides = np.zeros((6, len(stack), len(stack)), dtype=bool)
    # east (+x), north (+y), up (+z): b's window starts one voxel further along that axis
    for d, axis in ((0, 3), (1, 2), (4, 1)):
        ahead = [slice(None)] * 4
        behind = [slice(None)] * 4
        ahead[axis], behind[axis] = slice(1, None), slice(None, -1)
        sides[d] = _agree(stack[tuple(ahead)], stack[tuple(behind)])
        sides[cube.opposite(d)] = sides[d].T
    return VoxelPatterns(
        n=n,
        codes=codes.astype(np.int64),
        palette=palette,
        patterns=stack,
        weights=seen.weights(),
        sides=sides,
        bottom=np.array(sorted(bottom), dtype=np.int64),
    )


def pattern_voxels(patterns: VoxelPatterns, cells: tuple[int, int, int], values: np.ndarray,
                shape: tuple[int, int, int]) -> np.ndarray:  # fmt: skip
    """Per output voxel (x fastest; `shape` x, y, z), the colour index it shows (0: none or
    undecided): the voxel of the pattern at the covering cell."""
    columns, rows, layers = cells
    grid = values.reshape(layers, rows, columns)
    z, y, x = np.meshgrid(*(np.arange(s) for s in reversed(shape)), indexing="ij")
    cz, cy, cx = (np.minimum(a, c - 1) for a, c in ((z, layers), (y, rows), (x, columns)))
    chosen = grid[cz, cy, cx]
    shown = patterns.patterns[np.maximum(chosen, 0), z - cz, y - cy, x - cx]
    return np.where(chosen >= 0, patterns.codes[shown], 0).ravel()
