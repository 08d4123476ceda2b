"""Piece (polyomino) libraries: the default 24 fixed pieces, user pieces as rows of text."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FILLED = "#Xx"
EMPTY = ". "
MAX_PIECES = 63  # a sorted multiset of piece indices packs 6 bits per piece (see kernels)

# Every fixed-orientation polyomino of 1 to 4 cells except the S and Z tetrominoes, never
# rotated or mirrored. Rows are read top to bottom; '#' is a cell.
DEFAULT_ROWS: dict[str, tuple[str, ...]] = {
    "dot": ("#",),
    "I2-h": ("##",),
    "I2-v": ("#", "#"),
    "I3-h": ("###",),
    "I3-v": ("#", "#", "#"),
    "L3-sw": ("#.", "##"),
    "L3-se": (".#", "##"),
    "L3-nw": ("##", "#."),
    "L3-ne": ("##", ".#"),
    "O4": ("##", "##"),
    "I4-h": ("####",),
    "I4-v": ("#", "#", "#", "#"),
    "L4-h-nw": ("#..", "###"),
    "L4-h-ne": ("..#", "###"),
    "L4-h-sw": ("###", "#.."),
    "L4-h-se": ("###", "..#"),
    "L4-v-se": ("#.", "#.", "##"),
    "L4-v-sw": (".#", ".#", "##"),
    "L4-v-ne": ("##", "#.", "#."),
    "L4-v-nw": ("##", ".#", ".#"),
    "T4-n": (".#.", "###"),
    "T4-s": ("###", ".#."),
    "T4-e": ("#.", "##", "#."),
    "T4-w": (".#", "##", ".#"),
}


@dataclass(frozen=True)
class Piece:
    """A polyomino: its cells (x, y) with y upwards, the lowest row and column at 0."""

    name: str
    cells: tuple[tuple[int, int], ...]

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def width(self) -> int:
        return 1 + max(x for x, _ in self.cells)

    @property
    def height(self) -> int:
        return 1 + max(y for _, y in self.cells)

    @property
    def rows(self) -> tuple[str, ...]:
        """The piece as rows of text, top row first."""
        cells = set(self.cells)
        return tuple(
            "".join("#" if (x, y) in cells else "." for x in range(self.width))
            for y in reversed(range(self.height))
        )


def parse_rows(rows: list[str]) -> tuple[tuple[int, int], ...] | str:
    """The cells of a piece drawn as rows of text (top first), or why the drawing is wrong."""
    if not rows:
        return "a piece needs at least one row"
    cells = []
    for r, row in enumerate(rows):
        for x, char in enumerate(row):
            if char in FILLED:
                cells.append((x, len(rows) - 1 - r))
            elif char not in EMPTY:
                return f"row {r + 1} holds {char!r}; draw cells with '#' and gaps with '.'"
    if not cells:
        return "the piece has no cell; draw its cells with '#'"
    low_x = min(x for x, _ in cells)
    low_y = min(y for _, y in cells)
    return tuple(sorted(((x - low_x, y - low_y) for x, y in cells), key=lambda c: (c[1], c[0])))


def default_library() -> tuple[Piece, ...]:
    """The 24 default pieces, in the order of DEFAULT_ROWS."""
    return tuple(Piece(name, parse_rows(list(rows))) for name, rows in DEFAULT_ROWS.items())


def piece_sizes(pieces: tuple[Piece, ...]) -> np.ndarray:
    return np.array([p.size for p in pieces], dtype=np.int64)


def placement_table(pieces: tuple[Piece, ...], width: int, height: int) -> np.ndarray:
    """place[p, c]: the cell mask of piece p put with its first cell (lowest row, then
    leftmost) on cell c (c = y * width + x), or 0 where it would leave the panel."""
    table = np.zeros((len(pieces), width * height), dtype=np.uint64)
    for p, piece in enumerate(pieces):
        ax, ay = piece.cells[0]
        for cy in range(height):
            for cx in range(width):
                mask = 0
                for x, y in piece.cells:
                    px, py = cx + x - ax, cy + y - ay
                    if not (0 <= px < width and 0 <= py < height):
                        mask = 0
                        break
                    mask |= 1 << (py * width + px)
                table[p, cy * width + cx] = mask
    return table
