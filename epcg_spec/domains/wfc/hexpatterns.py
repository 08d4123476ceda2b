"""The overlapping model on hex grids: N x N rhombi of a hex sample map, in axial coordinates.

A hex cell (x, y) of the staggered storage has axial coordinates (q, r): pointy-top rows
q = x - (y - y % 2) / 2, r = y; flat-top columns q = x, r = y - (x - x % 2) / 2. The window
of a cell is the N x N rhombus of cells (q + i, r + j); a pattern is the sample's values there
(read only where the whole rhombus lies inside the sample). symmetry 2 adds each window's half
turn, the one turn of a hex that maps a rhombus onto itself. Cell c of the output holds a
pattern whose corner (i = j = 0) is c's own value; neighbouring cells hold patterns that agree
where their rhombi overlap, so every window inside the output occurs in the sample.

With `ground` (pointy-top only: there a row of the storage is a line r = constant), the windows
of the sample's last N - 1 rows are read too, hanging below its floor, with one value standing
for "under the floor" (never shown: it lies outside any map). `floor[k]` lists the patterns
of windows hanging k rows below the floor (k = 0: resting on it); the output's rows from
height - N down then hold exactly these, and no other row holds any of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .patterns import PATTERN_FIX, PatternCounter, check_variants, first_appearance

# axial (dq, dr) of each direction, in the topology's direction order
AXIAL = {
    "pointy": ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)),
    "flat": ((1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (1, 0)),
}


@dataclass
class HexPatterns:
    """The rhombus patterns of a hex sample, their weights and an overlap table per direction."""

    n: int
    colors: np.ndarray  # (values, 3) uint8
    patterns: np.ndarray  # (T, N, N): value at (q + i, r + j) as [i, j]
    weights: np.ndarray
    sides: np.ndarray  # sides[d, a, b]: b in direction d of a agrees on the overlap
    floor: list[np.ndarray]  # with ground: patterns hanging k rows below the floor; else []

    @property
    def count(self) -> int:
        return len(self.weights)


def to_axial(layout: str, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if layout == "pointy":
        return x - (y - y % 2) // 2, y
    return x, y - (x - x % 2) // 2


def to_offset(layout: str, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if layout == "pointy":
        return q + (r - r % 2) // 2, r
    return q, r + (q - q % 2) // 2


def extract_hex(
    values: np.ndarray,
    colors: np.ndarray,
    layout: str,
    n: int,
    symmetry: int,
    ground: bool = False,
) -> HexPatterns:
    """Every N x N rhombus of a (rows, columns) hex sample of value indices, and the tables
    (with `ground`, pointy-top: also the windows hanging below the sample's floor)."""
    rows, columns = values.shape
    seen = PatternCounter()
    floor: list[set[int]] = [set() for _ in range(n)] if ground else []
    under = int(values.max()) + 1  # the value of the cells under the floor
    steps = np.arange(n)
    for y in range(rows):
        hang = y - (rows - n)  # rows of the window under the floor (pointy-top)
        if hang > 0 and not ground:
            continue
        for x in range(columns):
            q, r = to_axial(layout, np.array(x), np.array(y))
            wx, wy = np.broadcast_arrays(*to_offset(layout, q + steps[:, None], r + steps[None, :]))
            real = wy < rows
            if wy.min() < 0 or wx[real].min() < 0 or wx[real].max() >= columns:
                continue
            if wy.max() >= rows and not ground:
                continue
            window = np.where(real, values[np.minimum(wy, rows - 1), wx % columns], under)
            for image in (window, window[::-1, ::-1])[: symmetry if hang <= 0 else 1]:
                found = seen.add(image)
                if ground and hang >= 0 and image is window:
                    floor[hang].add(found)
    check_variants(len(seen.patterns), 6, "patterns", PATTERN_FIX)
    stack = seen.stack()
    sides = np.zeros((6, len(stack), len(stack)), dtype=bool)
    for d, (dq, dr) in enumerate(AXIAL[layout]):
        # b's cell [i, j] is a's cell [i + dq, j + dr]: compare where both lie in the rhombus
        i0, i1 = max(0, dq), min(n, n + dq)
        j0, j1 = max(0, dr), min(n, n + dr)
        mine = stack[:, i0:i1, j0:j1].reshape(len(stack), -1)
        theirs = stack[:, i0 - dq : i1 - dq, j0 - dr : j1 - dr].reshape(len(stack), -1)
        sides[d] = (mine[:, None, :] == theirs[None, :, :]).all(axis=2)
    floors = [np.array(sorted(f), dtype=np.int64) for f in floor]
    return HexPatterns(n, colors, stack, seen.weights(), sides, floors)


def sample_values(ids: np.ndarray, color_of) -> tuple[np.ndarray, np.ndarray]:
    """(values, colours): a map's tile ids numbered in order of first appearance."""
    tiles, numbers = first_appearance(ids.ravel())
    colors = np.array([color_of(int(t)) for t in tiles], dtype=np.uint8)
    return numbers.reshape(ids.shape), colors
