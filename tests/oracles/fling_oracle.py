"""A slow, obviously-correct Fling! reference in plain Python: pieces are (x, y) pairs and a
move is played out piece by piece, exactly as the rules are written."""

from __future__ import annotations

from functools import cache
from itertools import combinations

Cell = tuple[int, int]
Board = frozenset[Cell]

DIRECTIONS = {"right": (1, 0), "left": (-1, 0), "down": (0, 1), "up": (0, -1)}


def on_board(cell: Cell, width: int, height: int) -> bool:
    return 0 <= cell[0] < width and 0 <= cell[1] < height


def fling(board: Board, piece: Cell, direction: str, width: int, height: int) -> Board | None:
    """The board after flinging `piece`, or None if that move is not legal."""
    if piece not in board:
        return None
    dx, dy = DIRECTIONS[direction]
    x, y = piece
    first = (x + dx, y + dy)
    if not on_board(first, width, height) or first in board:
        return None
    ahead = [(x + k * dx, y + k * dy) for k in range(2, max(width, height))]
    if not any(cell in board for cell in ahead):
        return None
    pieces = set(board)
    pieces.remove(piece)
    at = piece
    while True:
        step = (at[0] + dx, at[1] + dy)
        if not on_board(step, width, height):
            return frozenset(pieces)  # the moving piece slides off the board
        if step in pieces:
            pieces.add(at)  # it stops next to the piece it meets,
            pieces.remove(step)  # which takes the momentum
        at = step


def moves(board: Board, width: int, height: int) -> list[tuple[Cell, str, Board]]:
    """Every legal move as (piece, direction, resulting board)."""
    out = []
    for piece in sorted(board):
        for direction in DIRECTIONS:
            after = fling(board, piece, direction, width, height)
            if after is not None:
                out.append((piece, direction, after))
    return out


class Oracle:
    """Solvability and the two uniqueness rules of every board of one shape, memoised."""

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.solvable = cache(self._solvable)
        self.unique_moves = cache(self._unique_moves)
        self.unique_boards = cache(self._unique_boards)

    def successors(self, board: Board) -> list[Board]:
        return [after for _, _, after in moves(board, self.width, self.height)]

    def _solvable(self, board: Board) -> bool:
        if len(board) == 1:
            return True
        return any(self.solvable(after) for after in self.successors(board))

    def _unique_moves(self, board: Board) -> bool:
        """Exactly one move leads to a solvable board, and that board is unique."""
        if len(board) <= 2:
            return self.solvable(board)
        good = [after for after in self.successors(board) if self.solvable(after)]
        return len(good) == 1 and self.unique_moves(good[0])

    def _unique_boards(self, board: Board) -> bool:
        """Exactly one distinct solvable board follows, and that board is unique."""
        if len(board) <= 2:
            return self.solvable(board)
        good = {after for after in self.successors(board) if self.solvable(after)}
        return len(good) == 1 and self.unique_boards(next(iter(good)))

    def all_boards(self, pieces: int):
        cells = [(x, y) for y in range(self.height) for x in range(self.width)]
        for chosen in combinations(cells, pieces):
            yield frozenset(chosen)

    def counts(self, pieces: int) -> tuple[int, int, int, int]:
        """(boards, solvable, unique under the moves rule, unique under the boards rule)."""
        total = solvable = by_moves = by_boards = 0
        for board in self.all_boards(pieces):
            total += 1
            solvable += self.solvable(board)
            by_moves += self.unique_moves(board)
            by_boards += self.unique_boards(board)
        return total, solvable, by_moves, by_boards


def board_from_cells(cells: list[int], width: int) -> Board:
    return frozenset((c % width, c // width) for c in cells)


def cells_of(board: Board, width: int) -> list[int]:
    return sorted(y * width + x for x, y in board)


def judged_boards(width: int, height: int, top: int):
    """Yield (pieces, board, solvable, unique by moves, unique by boards) for every board of
    1..top pieces, layer by layer, judged from the sets of the layer below (the only layer
    kept in memory): the same rules as Oracle, without its memo."""
    oracle = Oracle(width, height)
    below: dict[str, set[Board]] = {}
    for pieces in range(1, top + 1):
        keep: dict[str, set[Board]] = {"solvable": set(), "moves": set(), "boards": set()}
        for board in oracle.all_boards(pieces):
            good = [a for a in oracle.successors(board) if a in below["solvable"]] if below else []
            solvable = pieces == 1 or bool(good)
            by_moves = by_boards = solvable
            if pieces > 2:
                by_moves = len(good) == 1 and good[0] in below["moves"]
                by_boards = len(set(good)) == 1 and good[0] in below["boards"]
            if pieces < top:
                for key, flag in (
                    ("solvable", solvable),
                    ("moves", by_moves),
                    ("boards", by_boards),
                ):
                    if flag:
                        keep[key].add(board)
            yield pieces, board, solvable, by_moves, by_boards
        below = keep
