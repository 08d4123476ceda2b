"""Output of a run: a PNG (decided cells in their tiles or colours, undecided ones averaged)
and, for tiled runs, a text grid of variant names in the reference's format."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from .model import WfcRun


def png_bytes(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels, dtype=np.uint8), "RGB").save(buffer, "PNG")
    return buffer.getvalue()


def tiled_pixels(run: WfcRun, domains: np.ndarray) -> np.ndarray:
    """(rows * S, columns * S, 3): each cell its tile, or the weighted mean of its candidates."""
    model = run.tiled
    columns, rows = run.grid
    images = model.images.astype(np.float64)
    weights = domains * model.weights[None, :]
    total = weights.sum(axis=1, keepdims=True)
    mean = np.einsum("cv,vyxk->cyxk", weights / np.where(total > 0, total, 1.0), images)
    if run.black_background:
        untouched = domains.all(axis=1)
        mean[untouched] = 0.0
    size = images.shape[1]
    grid = mean.reshape(rows, columns, size, size, 3).transpose(0, 2, 1, 3, 4)
    return np.floor(grid.reshape(rows * size, columns * size, 3)).astype(np.uint8)


def overlapping_pixels(run: WfcRun, domains: np.ndarray) -> np.ndarray:
    """(height, width, 3): each pixel the mean colour of every candidate pattern covering it."""
    model = run.patterns
    n = model.n
    columns, rows = run.grid
    width, height = run.width, run.height
    colors = model.colors.astype(np.int64)
    total = np.zeros((height, width, 3), dtype=np.int64)
    count = np.zeros((height, width), dtype=np.int64)
    cells = domains.reshape(rows, columns, -1).astype(np.int64)
    for dy in range(n):
        for dx in range(n):
            # candidates of each cell, summed per colour of their pixel at offset (dx, dy)
            per_color = np.zeros((rows, columns, len(colors)), dtype=np.int64)
            for c in range(len(colors)):
                per_color[:, :, c] = cells @ (model.patterns[:, dy, dx] == c).astype(np.int64)
            ys = (np.arange(rows) + dy) % height
            xs = (np.arange(columns) + dx) % width
            np.add.at(total, (ys[:, None], xs[None, :]), per_color @ colors)
            np.add.at(count, (ys[:, None], xs[None, :]), per_color.sum(axis=2))
    return (total // np.maximum(count, 1)[:, :, None]).astype(np.uint8)


def pixels(run: WfcRun, domains: np.ndarray) -> np.ndarray:
    if run.tiled is not None:
        return tiled_pixels(run, domains)
    return overlapping_pixels(run, domains)


def text_grid(run: WfcRun, values: np.ndarray) -> str:
    """One line per row of cells: 'name k, ' per cell ('?' where undecided), as the reference."""
    columns, rows = run.grid
    names = run.tiled.names
    lines = []
    for y in range(rows):
        row = values[y * columns : (y + 1) * columns]
        lines.append("".join(f"{names[v] if v >= 0 else '?'}, " for v in row))
    return "\n".join(lines) + "\n"
