"""Masks: cells taken out of the map, so that a level need not be a rectangle (or a box).

`mask: {cells: [[x, y], ...]}` takes out those cells (on a cube grid `[x, y]` takes out the
whole column, `[x, y, z]` one cell); `mask: {image: file.png}` takes out the cells whose pixel
is dark (grey level below 128) in an image of one pixel per cell, on every layer;
`mask: {map: file}` (a Tiled map's first layer, a .vox or a CSV of ids) takes out the cells
where the map has no tile (or air; a flat map on every layer).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .examples import read_map
from .inputs import Problems, outside, read_image


def read_mask(
    doc, path, node: dict, shape: tuple[int, int, int], folder: Path, problems: Problems
) -> np.ndarray | None:
    """True per cell (x fastest, then y, then z) where the cell stays in the map."""
    columns, rows, layers = shape
    inside = np.ones((layers, rows, columns), dtype=bool)
    if len(node) != 1:
        problems.add(
            doc, path, "a mask is one of 'cells' (a list), 'image' (a PNG) and 'map' (a map file)"
        )
        return None
    if "map" in node:
        data = read_map(doc, (*path, "map"), node["map"], folder, problems)
        if data is None:
            return None
        drawn = (data.ids >= 0) & ~np.isin(data.ids, list(data.air))
        if drawn.shape[1:] != (rows, columns) or drawn.shape[0] not in (1, layers):
            problems.add(
                doc,
                (*path, "map"),
                f"the map is {' x '.join(map(str, data.shape))} cells, the grid "
                f"{' x '.join(map(str, shape))}",
            )
            return None
        inside[:] = drawn
    elif "cells" in node:
        for i, cell in enumerate(node["cells"]):
            if len(cell) == 3 and layers == 1:
                problems.add(doc, (*path, "cells", i), f"{cell} has a z but the grid is flat")
                return None
            if not all(0 <= c < n for c, n in zip(cell, shape, strict=False)):
                sizes = shape if layers > 1 else shape[:2]
                problems.add(doc, (*path, "cells", i), *outside("", cell, sizes, negatives=False))
                return None
            if len(cell) == 3:
                inside[cell[2], cell[1], cell[0]] = False
            else:
                inside[:, cell[1], cell[0]] = False
    else:
        image = read_image(doc, (*path, "image"), node["image"], folder, problems)
        if image is None:
            return None
        if image.shape[:2] != (rows, columns):
            problems.add(
                doc,
                (*path, "image"),
                f"the mask image is {image.shape[1]} x {image.shape[0]} pixels, "
                f"the grid {columns} x {rows} cells",
                "draw one pixel per cell: dark pixels take cells out",
            )
            return None
        inside[:] = image.astype(np.int64).sum(axis=2) >= 3 * 128
    if not inside.any():
        problems.add(doc, path, "the mask takes out every cell", "leave some of the map")
        return None
    return inside.ravel()
