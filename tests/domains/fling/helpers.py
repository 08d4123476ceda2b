"""Boards drawn as pictures, and conversions between the kernels' masks and the oracle."""

from __future__ import annotations

import numpy as np

from epcg_spec.domains.fling import kernels as K
from tests.oracles.fling_oracle import Board, board_from_cells, cells_of


def draw(*rows: str) -> tuple[int, int, int]:
    """(mask, width, height) of a board drawn with '.' and 'o'."""
    width = len(rows[0])
    cells = [y * width + x for y, row in enumerate(rows) for x, c in enumerate(row) if c == "o"]
    return sum(1 << c for c in cells), width, len(rows)


def picture(mask: int, width: int, height: int) -> tuple[str, ...]:
    return tuple(
        "".join("o" if mask >> (y * width + x) & 1 else "." for x in range(width))
        for y in range(height)
    )


def to_oracle(mask: int, width: int) -> Board:
    return board_from_cells([c for c in range(64) if mask >> c & 1], width)


def to_mask(board: Board, width: int) -> int:
    return sum(1 << c for c in cells_of(board, width))


def kernel_moves(mask: int, g: K.Geometry) -> dict[tuple[int, str], int]:
    """(cell, direction) -> resulting mask, for every legal move, by the kernels."""
    out = np.empty(K.MAX_MOVES, np.int64)
    n = K.layer_moves(np.uint64(mask), g, out)
    return {
        (int(m) >> 2, K.DIRECTIONS[int(m) & 3]): int(K.apply_move(np.uint64(mask), int(m), g))
        for m in out[:n]
    }
