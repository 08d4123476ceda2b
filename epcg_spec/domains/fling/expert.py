"""The expert evaluator: how much an expert's reasoning cuts the search for a solution.

In a uniquely solvable board every move of the solution depends on the move before it;
otherwise the two could be played in the other order and there would be a second solution
(Sturtevant & Ota, AIIDE 2018). Precisely: after move a took board A to A', a move b legal
on A' is *independent* of a when b is a different move that was already legal on A, a is
still legal after b on A, and both orders give the same board; otherwise b *depends* on a.
An expert who knows this only tries, after each move, the moves that depend on it.

The score of a board is brute / expert: the number of nodes of the full search tree (every
sequence of legal moves, until none is left) over the number of nodes of the expert's tree
(every first move, then only dependent moves). Both are counted exactly with a memo over
the distinct boards (or board-and-move pairs) met, in float64 (exact below 2**53).

Every reachable board is also judged: solvable, and unique under each rule (see
search/retrograde_loop.py for the definitions), so a single board needs no stored layers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ...core.errors import BuildError
from .kernels import MAX_MOVES, ZERO, Geometry, is_legal, piece_count
from .kernels import apply_move as _inlined_apply
from .kernels import layer_moves as _inlined_moves
from .memo import START, memo_add, memo_find, memo_new

SOLVABLE, UNIQUE_MOVES, UNIQUE_BOARDS = 1, 2, 4
FIRST_MOVE = 8  # a board's flags keep its first move to a solvable board from this bit on
STACK = 64 * MAX_MOVES  # depth (pieces) x moves per board: enough for any walk
DEFAULT_LIMIT = 5_000_000
EDGES_PER_BOARD = 16  # the expert's memo holds (board, move) pairs: allow more of them
FLAGS, NODES, WINS = 0, 1, 2  # the walk's memo columns (flags below 2**16: exact)
ROOT = np.uint64(2**64 - 1)  # the "move" of the expert tree's root node: no move code
# Called, not inlined: one compiled copy of each serves every site (the layer scan keeps
# them inlined). layer_moves runs once per board; apply_move is small, and LLVM inlines it.
layer_moves = njit(cache=True)(_inlined_moves.py_func)
apply_move = njit(cache=True)(_inlined_apply.py_func)
# The memos key boards by (board, 0) and the expert's nodes by (board, move): see memo.py.


@dataclass(frozen=True)
class Verdict:
    """A board judged by its own search: flags, a solution and the two tree sizes."""

    solvable: bool
    unique: dict[str, bool]
    solution: list[int]  # move codes (cell * 4 + direction), empty when not solvable
    boards_reached: int
    solutions: float  # sequences of moves that end with one piece
    brute_tree: float
    expert_tree: float
    expert_follows: bool  # every move of the solution depends on the move before it

    @property
    def ratio(self) -> float:
        return self.brute_tree / self.expert_tree


def judge(board: int, geometry: Geometry, limit: int = DEFAULT_LIMIT) -> Verdict:
    """Solve, check and score one board (cells as the bits of `board`)."""
    root = np.uint64(board)
    reached, f, nodes, wins, solution, follows = _walk(root, geometry, limit)
    if reached > limit:
        raise BuildError(
            f"a board of {piece_count(root)} pieces reaches more than {limit:,} distinct "
            f"boards; it is too large to judge on its own"
        )
    expert = _expert_tree(root, geometry, EDGES_PER_BOARD * limit)
    if expert < 0:
        raise BuildError(
            f"the expert's tree of a board of {piece_count(root)} pieces has more than "
            f"{EDGES_PER_BOARD * limit:,} distinct nodes; it is too large to score"
        )
    return Verdict(
        solvable=bool(f & SOLVABLE),
        unique={"moves": bool(f & UNIQUE_MOVES), "boards": bool(f & UNIQUE_BOARDS)},
        solution=[int(m) for m in solution],
        boards_reached=int(reached),
        solutions=float(wins),
        brute_tree=float(nodes),
        expert_tree=float(expert),
        expert_follows=bool(follows),
    )


@njit(cache=True)
def _walk(root, G, limit):
    """Every board reachable from root, children first: its flags, the nodes of its full
    search tree (every sequence of legal moves) and how many of those sequences end with
    one piece. Stops early once more than `limit` boards are met. Returns the boards met,
    the root's flags, nodes and wins, a solution and whether the expert follows it.

    Python gets scalars and arrays, not the memo, and the solution comes from the flags,
    which keep each board's first move to a solvable board above FIRST_MOVE, not from a
    second walk over the moves (each kernel inlined once more is compiled once more).
    """
    keys, full, memo = memo_new(START, np.int64(3))  # per board: FLAGS, NODES, WINS
    count = np.int64(0)
    stack = np.empty(STACK, np.uint64)
    opened = np.zeros(STACK, np.bool_)
    moves = np.empty(MAX_MOVES, np.int64)
    stack[0] = root
    top = 1
    while top > 0 and count <= limit:
        b = stack[top - 1]
        if memo_find(keys, full, b, ZERO) >= 0:
            top -= 1
            continue
        # one loop over the moves serves both visits of b (each inlined kernel costs compile)
        opening = not opened[top - 1]
        opened[top - 1] = True
        if not opening:
            top -= 1
        total = 1.0
        won = 1.0 if piece_count(b) == 1 else 0.0
        solvable = 0  # the successors' flags, as _flags reads them
        first = np.uint64(0)
        first_flags = 0
        first_move = 0
        same = True
        for i in range(layer_moves(b, G, moves)):
            after = apply_move(b, moves[i], G)
            at = memo_find(keys, full, after, ZERO)
            if opening:
                if at < 0:
                    stack[top] = after
                    opened[top] = False
                    top += 1
                continue
            total += memo[at, NODES]
            won += memo[at, WINS]
            f = np.int64(memo[at, FLAGS])
            if f & SOLVABLE:
                solvable += 1
                if solvable == 1:
                    first = after
                    first_flags = f
                    first_move = moves[i]
                elif after != first:
                    same = False
        if not opening:
            keys, full, memo, at = memo_add(keys, full, memo, count, b, ZERO)
            count += 1
            memo[at, FLAGS] = _flags(piece_count(b), solvable, first_flags, same) | (
                first_move << FIRST_MOVE
            )
            memo[at, NODES] = total
            memo[at, WINS] = won
    if top > 0:  # stopped at the limit: the caller refuses the board
        return count, 0, 0.0, 0.0, np.zeros(0, np.int64), False
    at = memo_find(keys, full, root, ZERO)
    f = np.int64(memo[at, FLAGS]) & (SOLVABLE | UNIQUE_MOVES | UNIQUE_BOARDS)
    solution = np.zeros(piece_count(root) - 1 if f & SOLVABLE else 0, np.int64)
    path = np.empty(solution.shape[0] + 1, np.uint64)
    path[0] = root
    for step in range(solution.shape[0]):
        flags = np.int64(memo[memo_find(keys, full, path[step], ZERO), FLAGS])
        solution[step] = flags >> FIRST_MOVE
        path[step + 1] = apply_move(path[step], solution[step], G)
    follows = True
    for step in range(solution.shape[0] - 1):
        if not _depends(path[step], solution[step], path[step + 1], solution[step + 1], G):
            follows = False
    return count, f, memo[at, NODES], memo[at, WINS], solution, follows


@njit(cache=True, inline="always")
def _flags(m, solvable, first_flags, same):
    """The flags of a board of m pieces whose moves reach `solvable` solvable boards, the
    first of them with `first_flags`, all of them the same board if `same`."""
    if m == 1:
        return SOLVABLE | UNIQUE_MOVES | UNIQUE_BOARDS
    if solvable == 0:
        return 0
    if m == 2:
        return SOLVABLE | UNIQUE_MOVES | UNIQUE_BOARDS
    flags = SOLVABLE
    if solvable == 1 and first_flags & UNIQUE_MOVES:
        flags |= UNIQUE_MOVES
    if same and first_flags & UNIQUE_BOARDS:
        flags |= UNIQUE_BOARDS
    return flags


@njit(cache=True)  # called, not inlined: its two callers would each compile a copy
def _depends(a, move, after, nxt, G):
    """Whether move `nxt`, legal on `after` = a + `move`, depends on `move`."""
    if nxt == move or not is_legal(a, nxt, G):
        return True
    first = apply_move(a, nxt, G)
    if not is_legal(first, move, G):
        return True
    return apply_move(first, move, G) != apply_move(after, nxt, G)


@njit(cache=True)
def _expert_tree(root, G, limit):
    """Nodes of the expert's tree: every first move, then only moves that depend on the
    move before. Memo on (board, move): the subtree below the node that move reaches."""
    keys, full, memo = memo_new(START, np.int64(1))  # per node: the nodes of its subtree
    count = np.int64(0)
    boards = np.empty(STACK, np.uint64)
    played = np.empty(STACK, np.uint64)
    opened = np.zeros(STACK, np.bool_)
    moves = np.empty(MAX_MOVES, np.int64)
    boards[0] = root
    played[0] = ROOT  # the root's node: every move is a first move
    top = 1
    while top > 0:
        if count > limit:
            return -1.0
        a = boards[top - 1]
        move = played[top - 1]
        if memo_find(keys, full, a, move) >= 0:
            top -= 1
            continue
        after = a if move == ROOT else apply_move(a, np.int64(move), G)
        opening = not opened[top - 1]
        opened[top - 1] = True
        if not opening:
            top -= 1
        total = 1.0
        for i in range(layer_moves(after, G, moves)):  # one loop serves both visits
            if move == ROOT or _depends(a, np.int64(move), after, moves[i], G):
                at = memo_find(keys, full, after, np.uint64(moves[i]))
                if not opening:
                    total += memo[at, 0]
                elif at < 0:
                    boards[top] = after
                    played[top] = np.uint64(moves[i])
                    opened[top] = False
                    top += 1
        if not opening:
            keys, full, memo, at = memo_add(keys, full, memo, count, a, move)
            count += 1
            memo[at, 0] = total
    return memo[memo_find(keys, full, root, ROOT), 0]
