"""A placed map as text, SVG and PNG: floors, walls, doors and corridors."""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
from PIL import Image

EMPTY, WALL, FLOOR, PASSAGE, ROCK, OUTSIDE = 0, 1, 2, 3, 4, 5
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
CELL_PX = 12
COLOURS = np.array(
    [[40, 40, 48], [110, 104, 96], [224, 214, 190], [190, 160, 110], [70, 56, 48], [16, 16, 18]],
    dtype=np.uint8,
)


@dataclass(frozen=True)
class Placed:
    """A room on the map: floor rectangle, and the gap cells leading to its parent."""

    name: str
    x: int
    y: int
    width: int
    height: int
    parent: int
    passage: tuple[tuple[int, int], ...]


def label(index: int) -> str:
    return LABELS[index % len(LABELS)]


@dataclass(frozen=True)
class MapFrame:
    """The map's bounds and rock cells (x, y)."""

    width: int
    height: int
    rock: tuple[tuple[int, int], ...] = ()


def cell_grid(rooms: list[Placed], frame: MapFrame) -> tuple[np.ndarray, np.ndarray]:
    """(kind of each cell, room index of each floor cell or -1), with a one-cell border."""
    kind = np.full((frame.height + 2, frame.width + 2), EMPTY, dtype=np.int8)
    owner = np.full(kind.shape, -1, dtype=np.int32)
    for x, y in frame.rock:
        kind[y + 1, x + 1] = ROCK
    for room in rooms:
        ring = kind[room.y : room.y + room.height + 2, room.x : room.x + room.width + 2]
        ring[ring == EMPTY] = WALL
    for i, room in enumerate(rooms):
        kind[room.y + 1 : room.y + room.height + 1, room.x + 1 : room.x + room.width + 1] = FLOOR
        owner[room.y + 1 : room.y + room.height + 1, room.x + 1 : room.x + room.width + 1] = i
    for room in rooms:
        for cx, cy in room.passage:
            kind[cy + 1, cx + 1] = PASSAGE
            kind[cy : cy + 3, cx : cx + 3][kind[cy : cy + 3, cx : cx + 3] == EMPTY] = WALL
    frame_cells = np.ones(kind.shape, dtype=bool)
    frame_cells[1:-1, 1:-1] = False
    kind[frame_cells & (kind == EMPTY)] = OUTSIDE
    return kind, owner


def ascii_map(rooms: list[Placed], frame: MapFrame) -> str:
    """Rooms as letters (A is the root), walls '#', doors and corridors '+', free cells '.',
    rock '%'."""
    kind, owner = cell_grid(rooms, frame)
    chars = np.array([".", "#", ".", "+", "%", " "])[kind]
    for i in range(len(rooms)):
        chars[owner == i] = label(i)
    return "\n".join("".join(row).rstrip() for row in chars) + "\n"


def legend(rooms: list[Placed]) -> list[str]:
    lines = []
    for i, room in enumerate(rooms):
        parent = f", next to {label(room.parent)}" if room.parent >= 0 else " (root)"
        lines.append(
            f"{label(i)} {room.name}: {room.width} x {room.height} at ({room.x}, {room.y}){parent}"
        )
    return lines


def png_map(rooms: list[Placed], frame: MapFrame) -> bytes:
    kind, _ = cell_grid(rooms, frame)
    pixels = np.repeat(np.repeat(COLOURS[kind], CELL_PX, axis=0), CELL_PX, axis=1)
    buffer = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def svg_map(rooms: list[Placed], frame: MapFrame) -> str:
    """Cells as squares, each room labelled, a line from each room to its parent."""
    kind, _ = cell_grid(rooms, frame)
    s = CELL_PX
    hexes = ["#" + bytes(c).hex() for c in COLOURS.tolist()]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{kind.shape[1] * s}" '
        f'height="{kind.shape[0] * s}" viewBox="0 0 {kind.shape[1] * s} {kind.shape[0] * s}">',
        f'<rect width="100%" height="100%" fill="{hexes[OUTSIDE]}"/>',
    ]
    for (row, col), k in np.ndenumerate(kind):
        if k != OUTSIDE:
            parts.append(
                f'<rect x="{col * s}" y="{row * s}" width="{s}" height="{s}" fill="{hexes[k]}"/>'
            )
    centre = [((r.x + 1 + r.width / 2) * s, (r.y + 1 + r.height / 2) * s) for r in rooms]
    for room, (cx, cy) in zip(rooms, centre, strict=True):
        if room.parent >= 0:
            px, py = centre[room.parent]
            parts.append(
                f'<line x1="{cx:g}" y1="{cy:g}" x2="{px:g}" y2="{py:g}" stroke="#a04030" '
                f'stroke-width="1.5" stroke-opacity="0.6"/>'
            )
    for i, (cx, cy) in enumerate(centre):
        parts.append(
            f'<text x="{cx:g}" y="{cy + 4:g}" font-family="monospace" font-size="11" '
            f'text-anchor="middle" fill="#202020">{label(i)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
