"""SVG drawings of panels, with or without a solution line, in the style of The Witness."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from .model import COLOUR_NAMES, COLOURS, Grid, Panel, Symbol
from .pieces import Piece

UNIT = 64  # pixels per cell
MARGIN = 44
TITLE = 26
GAP = 28  # between panels side by side
BACK = "#3c4a5c"
PATH = "#9fb0c2"
LINE = "#f4e07a"
HEXAGON = "#1d1d1d"
TRIANGLE_COLOUR = "#f28c1c"
PIECE_COLOUR = "#f5c518"
TEXT = "#1d2733"
WIDTH = 0.2  # path width, in cells
GAP_SIZE = 0.32  # the break of a cannot-cross edge, in cells


def panel_svg(panel: Panel, pieces: tuple[Piece, ...], line=None, title: str = "") -> str:
    """One panel, optionally with a line (a list of vertices from the start to the goal)."""
    return panels_svg([panel], pieces, line, [title] if title else None)


def panels_svg(
    panels: list[Panel], pieces: tuple[Piece, ...], line=None, titles: list[str] | None = None
) -> str:
    """Panels side by side (the sub-panels of a joint set share one line)."""
    grid = panels[0].grid
    width = grid.width * UNIT + 2 * MARGIN
    height = grid.height * UNIT + 2 * MARGIN + (TITLE if titles else 0)
    total = len(panels) * width + (len(panels) - 1) * GAP
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{height}" '
        f'viewBox="0 0 {total} {height}">',
        f'<rect width="{total}" height="{height}" fill="#ffffff"/>',
    ]
    for k, panel in enumerate(panels):
        dx = k * (width + GAP)
        top = TITLE if titles else 0
        if titles:
            parts.append(
                f'<text x="{dx + width / 2:.1f}" y="18" font-family="sans-serif" font-size="15" '
                f'text-anchor="middle" fill="{TEXT}">{escape(titles[k])}</text>'
            )
        parts.append(f'<g transform="translate({dx},{top})">')
        parts += _panel(panel, pieces, line)
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _xy(grid: Grid, x: float, y: float) -> tuple[float, float]:
    """Panel coordinates (y upwards) to pixels."""
    return MARGIN + x * UNIT, MARGIN + (grid.height - y) * UNIT


def _exit(grid: Grid) -> tuple[float, float]:
    """Where the stub beyond the goal ends: outwards through the nearest border."""
    gx, gy = grid.goal
    if gy == grid.height:
        return gx, gy + 0.38
    if gx == grid.width:
        return gx + 0.38, gy
    if gy == 0:
        return gx, gy - 0.38
    if gx == 0:
        return gx - 0.38, gy
    return gx, gy + 0.38


def _panel(panel: Panel, pieces: tuple[Piece, ...], line) -> list[str]:
    grid = panel.grid
    stroke = WIDTH * UNIT
    w, h = grid.width * UNIT, grid.height * UNIT
    out = [
        f'<rect x="{MARGIN - 0.55 * UNIT:.1f}" y="{MARGIN - 0.55 * UNIT:.1f}" '
        f'width="{w + 1.1 * UNIT:.1f}" height="{h + 1.1 * UNIT:.1f}" rx="{0.25 * UNIT:.1f}" '
        f'fill="{BACK}"/>'
    ]
    cannot = {s.at for s in panel.symbols if s.kind == "cannot_cross"}
    for slot in range(grid.edges):
        out += _edge(grid, slot, slot in cannot, cannot, stroke)
    out.append(_segment(grid, grid.goal, _exit(grid), PATH, stroke))
    sx, sy = _xy(grid, *grid.start)
    out.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="{0.3 * UNIT:.1f}" fill="{PATH}"/>')
    for vertex in cannot:
        if vertex >= grid.edges:
            ((x, y),) = grid.slot_ends(vertex)
            px, py = _xy(grid, x, y)
            half = 0.5 * stroke + 1
            out.append(
                f'<rect x="{px - half:.1f}" y="{py - half:.1f}" width="{2 * half:.1f}" '
                f'height="{2 * half:.1f}" fill="{BACK}"/>'
            )
    if line:
        out += _line(grid, line, stroke)
    for symbol in panel.symbols:
        out += _symbol(grid, symbol, pieces)
    return out


def _segment(grid: Grid, a, b, colour: str, stroke: float) -> str:
    x1, y1 = _xy(grid, *a)
    x2, y2 = _xy(grid, *b)
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
        f'stroke-width="{stroke:.1f}" stroke-linecap="round"/>'
    )


def _edge(grid: Grid, slot: int, broken: bool, cannot: set[int], stroke: float) -> list[str]:
    a, b = grid.slot_ends(slot)
    if not broken:
        return [_segment(grid, a, b, PATH, stroke)]
    cut = 0.5 - GAP_SIZE / 2
    mid_a = (a[0] + (b[0] - a[0]) * cut, a[1] + (b[1] - a[1]) * cut)
    mid_b = (b[0] + (a[0] - b[0]) * cut, b[1] + (a[1] - b[1]) * cut)
    return [_segment(grid, a, mid_a, PATH, stroke), _segment(grid, mid_b, b, PATH, stroke)]


def _line(grid: Grid, line, stroke: float) -> list[str]:
    points = [*line, _exit(grid)]
    coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in (_xy(grid, *p) for p in points))
    sx, sy = _xy(grid, *grid.start)
    return [
        f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="{0.3 * UNIT:.1f}" fill="{LINE}"/>',
        f'<polyline points="{coords}" fill="none" stroke="{LINE}" stroke-width="{stroke:.1f}" '
        'stroke-linecap="round" stroke-linejoin="round"/>',
    ]


def _symbol(grid: Grid, symbol: Symbol, pieces: tuple[Piece, ...]) -> list[str]:
    if symbol.kind == "must_cross":
        ends = grid.slot_ends(symbol.at)
        cx = sum(x for x, _ in ends) / len(ends)
        cy = sum(y for _, y in ends) / len(ends)
        return [_polygon(grid, cx, cy, 0.11, 6, 0.0, HEXAGON)]
    if symbol.kind == "cannot_cross":
        return []
    x, y = grid.cell_xy(symbol.at)
    cx, cy = x + 0.5, y + 0.5
    if symbol.kind == "square":
        px, py = _xy(grid, cx, cy)
        side = 0.34 * UNIT
        return [
            f'<rect x="{px - side / 2:.1f}" y="{py - side / 2:.1f}" width="{side:.1f}" '
            f'height="{side:.1f}" rx="{0.09 * UNIT:.1f}" '
            f'fill="{COLOURS[COLOUR_NAMES[symbol.value]]}"/>'
        ]
    if symbol.kind == "star":
        return [_star(grid, cx, cy, COLOURS[COLOUR_NAMES[symbol.value]])]
    if symbol.kind == "triangle":
        n = symbol.value
        return [
            _polygon(grid, cx + (k - (n - 1) / 2) * 0.22, cy, 0.1, 3, math.pi / 2, TRIANGLE_COLOUR)
            for k in range(n)
        ]
    return _piece(grid, cx, cy, pieces[symbol.value])


def _polygon(grid: Grid, cx, cy, radius, corners, turn, colour) -> str:
    points = []
    for k in range(corners):
        angle = turn + 2 * math.pi * k / corners
        points.append(_xy(grid, cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    text = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return f'<polygon points="{text}" fill="{colour}"/>'


def _star(grid: Grid, cx, cy, colour: str) -> str:
    points = []
    for k in range(16):
        radius = 0.2 if k % 2 == 0 else 0.15
        angle = math.pi * k / 8
        points.append(_xy(grid, cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    text = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return f'<polygon points="{text}" fill="{colour}"/>'


def _piece(grid: Grid, cx, cy, piece: Piece) -> list[str]:
    """The piece's cells as small blocks, centred in the cell."""
    block = 0.58 / max(piece.width, piece.height, 3)
    inner = block * 0.8
    out = []
    for x, y in piece.cells:
        bx = cx + (x - piece.width / 2) * block + (block - inner) / 2
        by = cy + (y - piece.height / 2) * block + (block - inner) / 2
        px, py = _xy(grid, bx, by + inner)
        out.append(
            f'<rect x="{px:.1f}" y="{py:.1f}" width="{inner * UNIT:.1f}" '
            f'height="{inner * UNIT:.1f}" fill="{PIECE_COLOUR}"/>'
        )
    return out
