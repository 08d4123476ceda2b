"""Output of a run: a PNG (decided cells in their tiles or colours, undecided ones averaged)
and, for tiled runs, a text grid of variant names in the reference's format.

The search holds one variable per map cell; `cell_domains` and `cell_values` spread them back
over the whole grid (cells a mask took out: no candidate, value MASKED)."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from .model import WfcRun

MASKED = -2
BAND_PIXELS = 1 << 16  # pixels of the tiled picture's rows held as float64 means at once
BAND_VALUES = 1 << 22  # (cell, value) pairs of the overlapping picture's rows held as int64


def cell_domains(run: WfcRun, domains: np.ndarray) -> np.ndarray:
    """(cells, values): each grid cell's candidates, none where the mask took the cell out."""
    variables = run.topology.variables()
    out = np.zeros((len(variables), domains.shape[1]), dtype=bool)
    out[variables >= 0] = domains
    return out


def cell_values(run: WfcRun, values: np.ndarray) -> np.ndarray:
    """Each grid cell's value (-1 undecided, MASKED out of the map)."""
    variables = run.topology.variables()
    out = np.full(len(variables), MASKED, dtype=np.int64)
    out[variables >= 0] = values
    return out


def png_bytes(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels, dtype=np.uint8), "RGB").save(buffer, "PNG")
    return buffer.getvalue()


def tiled_pixels(run: WfcRun, domains: np.ndarray) -> np.ndarray:
    """(rows * S, columns * S, 3): each cell its tile, or the weighted mean of its candidates."""
    model = run.tiled
    columns, rows = run.grid
    images = model.images.astype(np.float64)
    size = images.shape[1]
    out = np.empty((rows * size, columns * size, 3), np.uint8)
    band = max(1, BAND_PIXELS // (columns * size * size))
    for top in range(0, rows, band):  # a band of rows at a time: all means held 16 bytes a pixel
        cells = domains[top * columns : (top + band) * columns]
        weights = cells * model.weights[None, :]
        total = weights.sum(axis=1, keepdims=True)
        mean = np.einsum("cv,vyxk->cyxk", weights / np.where(total > 0, total, 1.0), images)
        if run.black_background:
            mean[cells.all(axis=1)] = 0.0
        grid = mean.reshape(-1, columns, size, size, 3).transpose(0, 2, 1, 3, 4)
        out[top * size : (top + band) * size] = np.floor(grid.reshape(-1, columns * size, 3))
    return out


def overlapping_pixels(run: WfcRun, domains: np.ndarray) -> np.ndarray:
    """(height, width, 3): each pixel the mean colour of every candidate pattern covering it."""
    model = run.patterns
    n = model.n
    columns, rows = run.grid
    width, height = run.width, run.height
    colors = model.colors.astype(np.int64)
    # (values, n, n, colours): whether a pattern's pixel at (dx, dy) has that colour
    has_color = (model.patterns[..., None] == np.arange(len(colors))).astype(np.int64)
    total = np.zeros((height, width, 3), dtype=np.int64)
    count = np.zeros((height, width), dtype=np.int64)
    band = max(1, BAND_VALUES // (columns * run.values))
    for top in range(0, rows, band):  # the candidates as int64, a band of rows at a time
        cells = domains[top * columns : (top + band) * columns].astype(np.int64)
        cells = cells.reshape(-1, columns, run.values)
        for dy in range(n):
            for dx in range(n):
                # candidates of each cell, summed per colour of their pixel at (dx, dy)
                per_color = cells @ has_color[:, dy, dx]
                ys = (np.arange(top, top + len(cells)) + dy) % height
                xs = (np.arange(columns) + dx) % width
                np.add.at(total, (ys[:, None], xs[None, :]), per_color @ colors)
                np.add.at(count, (ys[:, None], xs[None, :]), per_color.sum(axis=2))
    return (total // np.maximum(count, 1)[:, :, None]).astype(np.uint8)


def pixels(run: WfcRun, domains: np.ndarray) -> np.ndarray:
    """The square grid's picture from the grid's candidates (see `cell_domains`)."""
    if run.tiled is not None:
        return tiled_pixels(run, domains)
    return overlapping_pixels(run, domains)


def text_grid(run: WfcRun, values: np.ndarray) -> str:
    """One line per row of cells: 'name k, ' per cell ('?' where undecided, '-' out of the
    map), as the reference; the layers of a cube grid one after another, a blank line between."""
    columns, rows = run.grid
    names = run.tiled.names
    blocks = []
    for z in range(run.depth):
        lines = []
        for y in range(rows):
            start = (z * rows + y) * columns
            row = values[start : start + columns]
            lines.append("".join(f"{_name(names, v)}, " for v in row))
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def _name(names: list[str], v: int) -> str:
    return names[v] if v >= 0 else "?" if v == -1 else "-"
