"""Pictures of hex and cube results: hexes as SVG and PNG, voxels as an isometric PNG.

A cell is filled with its tile's colour (the mean colour of the tile's image; an undecided cell
the weighted mean of its candidates). Where the run's `connected` gives exits, a decided cell
draws a dark line from its centre to each side it opens; otherwise a tile with several variants
draws a short tick towards where its side 0 turned. Cells a mask took out are not drawn.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from .model import WfcRun
from .render import png_bytes
from .topology import Topology

RADIUS = 12  # hex circumradius in pixels
VOXEL = 6  # isometric half-width of a voxel in pixels
LINE = (40, 40, 40)


def tile_colors(run: WfcRun) -> np.ndarray:
    """(values, 3): the mean colour of each variant's image, or of each pattern's own cell."""
    if run.tiled is None:
        return run.patterns.colors[run.patterns.patterns[:, 0, 0]].astype(np.float64)
    return run.tiled.images.reshape(run.values, -1, 3).mean(axis=1)


def cell_colors(run: WfcRun, domains: np.ndarray) -> np.ndarray:
    """(cells, 3) uint8: each cell's colour, its candidates weighted as in the square picture."""
    weights = domains * run.weights[None, :]
    total = weights.sum(axis=1, keepdims=True)
    mean = (weights / np.where(total > 0, total, 1.0)) @ tile_colors(run)
    return np.floor(mean).astype(np.uint8)


def _marks(run: WfcRun, value: int) -> tuple[list[int], float]:
    """Directions to draw from a decided cell's centre, and how far (1 = to the side)."""
    connection = run.connection
    if run.tiled is None:
        return [], 0.0
    if connection is not None and connection.exits is not None:
        return [d for d, opens in connection.exits.items() if opens[value]], 1.0
    model = run.tiled
    if len(model.variants(model.names[value].split()[0])) > 1:
        return [model.makers[value][0]], 0.6
    return [], 0.0


def _angle(run: WfcRun, d: int) -> float:
    """Direction d's angle in radians, counter-clockwise from east."""
    start = 0.0 if run.topology.layout == "pointy" else math.pi / 6
    return start + d * math.pi / 3


def hex_geometry(run: WfcRun) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """(centres (cells, 2), corner offsets (6, 2), picture size) of the hex grid in pixels."""
    r, s = RADIUS, math.sqrt(3) * RADIUS
    xyz = run.topology.coordinates()
    x, y = xyz[:, 0].astype(float), xyz[:, 1].astype(float)
    if run.topology.layout == "pointy":
        centres = np.stack([s * (x + 0.5 * (xyz[:, 1] % 2)) + s / 2, 1.5 * r * y + r], axis=1)
        start = math.pi / 6
    else:
        centres = np.stack([1.5 * r * x + r, s * (y + 0.5 * (xyz[:, 0] % 2)) + s / 2], axis=1)
        start = 0.0
    angles = start + np.arange(6) * math.pi / 3
    corners = np.stack([r * np.cos(angles), -r * np.sin(angles)], axis=1)
    return centres, corners, hex_size(run.topology)


def hex_size(topology: Topology) -> tuple[int, int]:
    """The hex picture's (width, height) in pixels."""
    columns, rows, _ = topology.shape
    r, s = RADIUS, math.sqrt(3) * RADIUS
    if topology.layout == "pointy":
        return math.ceil(s * (columns + 0.5)), math.ceil(1.5 * r * rows + r / 2)
    return math.ceil(1.5 * r * columns + r / 2), math.ceil(s * (rows + 0.5))


def _hex_shapes(run: WfcRun, domains: np.ndarray, values: np.ndarray):
    """Per map cell: (corner points, fill colour, mark lines) in pixels."""
    centres, corners, size = hex_geometry(run)
    colors = cell_colors(run, domains)
    inside = run.topology.inside()
    shapes = []
    for cell in np.flatnonzero(inside):
        centre = centres[cell]
        lines = _mark_lines(run, int(values[cell]), centre) if values[cell] >= 0 else []
        shapes.append(([tuple(centre + c) for c in corners], tuple(colors[cell]), lines))
    return shapes, size


def hex_tile(run: WfcRun, value: int, size: tuple[int, int]) -> np.ndarray:
    """(height, width, 4): one variant drawn as a hex on a transparent tile of `size`."""
    _, corners, _ = hex_geometry(run)
    centre = np.array(size, dtype=float) / 2
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    color = tuple(int(c) for c in np.floor(tile_colors(run)[value]))
    _draw_hex(ImageDraw.Draw(image), [tuple(centre + c) for c in corners], color,
              _mark_lines(run, value, centre))  # fmt: skip
    return np.asarray(image)


def _draw_hex(draw: ImageDraw.ImageDraw, points, color, lines) -> None:
    draw.polygon(points, fill=color, outline=(128, 128, 128))
    for line in lines:
        draw.line(line, fill=LINE, width=3)


def _mark_lines(run: WfcRun, value: int, centre: np.ndarray) -> list[tuple]:
    """The lines a decided cell draws from `centre` (see `_marks`)."""
    apothem = RADIUS * math.sqrt(3) / 2
    directions, reach = _marks(run, value)
    lines = []
    for d in directions:
        a = _angle(run, d)
        end = centre + reach * apothem * np.array([math.cos(a), -math.sin(a)])
        lines.append((tuple(centre), tuple(end)))
    return lines


def hex_svg(run: WfcRun, domains: np.ndarray, values: np.ndarray) -> bytes:
    """The hex map as an SVG of one polygon per map cell."""
    shapes, (width, height) = _hex_shapes(run, domains, values)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">'
    ]
    for points, color, lines in shapes:
        text = " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
        fill = "#" + bytes(int(c) for c in color).hex()
        out.append(f'<polygon points="{text}" fill="{fill}" stroke="#808080" stroke-width="0.5"/>')
        for (x0, y0), (x1, y1) in lines:
            out.append(
                f'<line x1="{x0:.2f}" y1="{y0:.2f}" x2="{x1:.2f}" y2="{y1:.2f}" '
                f'stroke="#282828" stroke-width="2.5" stroke-linecap="round"/>'
            )
    out.append("</svg>")
    return ("\n".join(out) + "\n").encode()


def hex_png(run: WfcRun, domains: np.ndarray, values: np.ndarray) -> bytes:
    """The hex map as a PNG (white where no hex is)."""
    shapes, size = _hex_shapes(run, domains, values)
    image = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for points, color, lines in shapes:
        _draw_hex(draw, points, color, lines)
    return png_bytes(np.asarray(image))


def iso_size(shape: tuple[int, int, int]) -> tuple[int, int]:
    """The isometric picture's (width, height) in pixels, of (columns, rows, layers) voxels."""
    columns, rows, layers = shape
    return (columns + rows) * VOXEL * 2 + 2, (columns + rows) * VOXEL + layers * 2 * VOXEL + 2


def iso_png(
    shape: tuple[int, int, int], codes: np.ndarray, palette: dict[int, tuple[int, int, int]]
) -> bytes:
    """An isometric preview of the voxels (`codes` per cell, x fastest; 0: empty), each drawn
    as a cube (top, left and right faces shaded), back to front so nearer ones cover farther."""
    _, rows, layers = shape
    h = VOXEL
    image = Image.new("RGB", iso_size(shape), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    xyz = Topology("cube", shape, (False, False, False)).coordinates()
    # farther first: larger y (north, away) and smaller x are behind; lower z first
    order = np.lexsort((xyz[:, 0], -xyz[:, 1], xyz[:, 2]))
    for cell in order:
        if codes[cell] == 0:
            continue
        x, y, z = (int(c) for c in xyz[cell])
        # screen position of the voxel's top corner nearest the viewer
        sx = (x + y) * 2 * h + 1
        sy = (x - y + rows - 1) * h + (layers - 1 - z) * 2 * h + 1
        top = [(sx, sy + h), (sx + 2 * h, sy), (sx + 4 * h, sy + h), (sx + 2 * h, sy + 2 * h)]
        left = [top[0], top[3], (sx + 2 * h, sy + 4 * h), (sx, sy + 3 * h)]
        right = [top[3], top[2], (sx + 4 * h, sy + 3 * h), (sx + 2 * h, sy + 4 * h)]
        base = palette[int(codes[cell])]
        for face, shade in ((top, 1.0), (left, 0.75), (right, 0.55)):
            fill = tuple(int(c * shade) for c in base)
            draw.polygon(face, fill=fill, outline=tuple(int(c * shade * 0.8) for c in base))
    return png_bytes(np.asarray(image))
