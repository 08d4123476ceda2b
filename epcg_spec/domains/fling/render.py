"""Boards as text and SVG, each piece labelled with the step at which it is first flung."""

from __future__ import annotations

from itertools import pairwise
from xml.sax.saxutils import escape

from .kernels import DIRECTIONS

LABELS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
STEP = ((1, 0), (-1, 0), (0, 1), (0, -1))
CELL = 40  # SVG pixels per cell


def cells_of(board: int) -> list[int]:
    """The occupied cells of a board mask, ascending."""
    return [c for c in range(board.bit_length()) if board >> c & 1]


def first_flings(cells: list[int], solution: list[int], width: int, height: int) -> dict[int, int]:
    """Original cell -> the step (1-based) at which that piece is first flung.

    Pieces are followed one by one: the flung piece stops next to the first piece in its
    way, which takes the momentum and stops next to the following one, and so on; the last
    piece of the line leaves the board.
    """
    origin = {c: c for c in cells}  # where each piece is now -> where it started
    first: dict[int, int] = {}
    for step, move in enumerate(solution, 1):
        p, d = divmod(move, 4)
        first.setdefault(origin[p], step)
        dx, dy = STEP[d]
        x, y = p % width, p // width
        line = [p]
        while 0 <= (x := x + dx) < width and 0 <= (y := y + dy) < height:
            if y * width + x in origin:
                line.append(y * width + x)
        moved = {at: origin.pop(at) for at in line}
        back = dx + dy * width
        for here, there in pairwise(line):
            origin[there - back] = moved[here]
    return first


def move_text(move: int, width: int) -> str:
    """A move as people read it: the piece's (column, row), 1-based, and the direction."""
    p, d = divmod(move, 4)
    return f"({p % width + 1}, {p // width + 1}) {DIRECTIONS[d]}"


def board_text(cells: list[int], labels: dict[int, int], width: int, height: int) -> str:
    """Rows of '.' and pieces; a piece shows the step it is first flung at, or 'o'."""
    occupied = set(cells)
    rows = []
    for y in range(height):
        row = ""
        for x in range(width):
            c = y * width + x
            step = labels.get(c)
            if c not in occupied:
                row += "."
            elif step is None or step > len(LABELS):
                row += "o"
            else:
                row += LABELS[step - 1]
        rows.append(row)
    return "\n".join(rows) + "\n"


def board_svg(cells: list[int], labels: dict[int, int], width: int, height: int, title: str) -> str:
    """An SVG picture of the board: a grid, each piece a disc with its first-fling step."""
    w, h = width * CELL, height * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2}" height="{h + 2}" '
        f'viewBox="-1 -1 {w + 2} {h + 2}" font-family="sans-serif">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="#1d3557" rx="4"/>',
    ]
    for x in range(1, width):
        parts.append(f'<line x1="{x * CELL}" y1="0" x2="{x * CELL}" y2="{h}" stroke="#457b9d"/>')
    for y in range(1, height):
        parts.append(f'<line x1="0" y1="{y * CELL}" x2="{w}" y2="{y * CELL}" stroke="#457b9d"/>')
    for c in cells:
        cx, cy = (c % width + 0.5) * CELL, (c // width + 0.5) * CELL
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.4}" fill="#f1c40f"/>')
        if c in labels:
            parts.append(
                f'<text x="{cx}" y="{cy}" text-anchor="middle" dominant-baseline="central" '
                f'font-size="{CELL * 0.45}" font-weight="bold" fill="#1d3557">{labels[c]}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def picture(cells: list[int], width: int, height: int) -> list[str]:
    """The board as rows of '.' and 'o' (the spec's puzzle form)."""
    return board_text(cells, {}, width, height).split()
