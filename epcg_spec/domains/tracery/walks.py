"""Tracery draws by the compiled walks: the kernels choose, Python joins the text once.

Used where `walk_tables` could build the tables (tame grammars whose counts fit in 63
bits); each batch gives the same (rank, text) pairs as the Python walks of
`search.expand` for the same seeds, which stay the reference and the fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from ...search.expand import CAPTURE, MAX_CHARS, Program
from .kernels import FULL, NEED, OK, Memo, memo_put, mt_base, uniform_choices, walk
from .semantics import TracerySemantics
from .walk_tables import WalkTables

SAMPLER_SEED = 0x9E3779B97F4A7C15
"""`Sampler.draw` seeds Python's Mersenne Twister with seed * SAMPLER_SEED ^ stream."""
_NO_STATES = np.zeros(0, np.uint64)
_MT_BASE = mt_base()
MAX_BATCH_TOKENS = 1 << 24
"""Choices or pieces one batch may hold (128 MiB); a batch that needs more is drawn by
the Python walks, one derivation at a time within their bounds (expand.MAX_STEPS)."""
MEMO_PIECES = 1 << 18
"""Texts the memo learns before it starts again (checked between batches)."""


class CompiledWalks:
    """Batches of uniform and Tracery-style draws; None from a batch the kernels refused."""

    def __init__(self, tables: WalkTables, sem: TracerySemantics, program: Program) -> None:
        self.tables = tables
        self.memo = TextMemo(tables.pieces, sem, program)

    def uniform(self, seed: int, streams: Sequence[int]) -> list[tuple[int, str]] | None:
        """Uniform draws `streams` of `seed`: (rank, text before unescaping) each."""
        keys, lengths = mt_keys(seed, streams)
        choice_ptr = np.empty(len(streams) + 1, np.int64)
        capacity = len(streams) * 64
        while True:
            choices = np.empty(capacity, np.int64)
            status, _ = uniform_choices(
                self.tables.uniform, _MT_BASE, keys, lengths, choices, choice_ptr
            )
            if status != FULL or capacity >= MAX_BATCH_TOKENS:
                break
            capacity *= 2
        return self._walk(choices, choice_ptr, _NO_STATES) if status == OK else None

    def tracery(self, states: np.ndarray) -> list[tuple[int, str]] | None:
        """Draws choice by choice from SplitMix64 `states` (updated as SplitMix64 would be)."""
        return self._walk(np.zeros(0, np.int64), np.zeros(1, np.int64), states)

    def _walk(self, given, given_ptr, states) -> list[tuple[int, str]] | None:
        rows = len(states) or len(given_ptr) - 1
        tape_ptr = np.zeros(rows + 1, np.int64)
        ranks = np.empty(rows, np.int64)
        tape = np.empty(rows * 64, np.int64)
        need = np.empty(3, np.int64)
        memo, row = self.memo, 0
        memo.trim()
        while True:
            status, row = walk(
                self.tables.walk,
                memo.arrays,
                given,
                given_ptr,
                states,
                row,
                tape,
                tape_ptr,
                ranks,
                need,
            )
            if status == OK:
                break
            if status == FULL and len(tape) < MAX_BATCH_TOKENS:
                tape = np.concatenate([tape, np.empty_like(tape)])
            elif status == NEED:
                node, lo, hi = need.tolist()
                memo.learn(node, tape[lo:hi])
            else:
                return None
        pieces = memo.pieces
        tokens, bounds = tape[: tape_ptr[-1]].tolist(), tape_ptr.tolist()
        if int(np.diff(tape_ptr).max(initial=0)) * memo.longest > MAX_CHARS and any(
            sum(len(pieces[t]) for t in tokens[a:b]) > MAX_CHARS for a, b in pairwise(bounds)
        ):
            return None  # the Python walks refuse it, in one line
        texts = ["".join(map(pieces.__getitem__, tokens[a:b])) for a, b in pairwise(bounds)]
        return list(zip(ranks.tolist(), texts, strict=True))


class TextMemo:
    """The pieces (texts) the walks write, and the memo of texts only Python computes:
    a wrap's modified text and the text a pushed value shows, by (node, pieces inside)."""

    def __init__(self, pieces: list[str], sem: TracerySemantics, program: Program) -> None:
        self.base = list(pieces)
        self.sem = sem
        self.program = program
        self.trim(force=True)

    def trim(self, force: bool = False) -> None:
        """Forget what was learned, if forced or if it grew past MEMO_PIECES."""
        if force or len(self.pieces) > len(self.base) + MEMO_PIECES:
            self.pieces = list(self.base)
            # a row's text is at most its pieces times the longest: only a batch that could
            # pass MAX_CHARS has its texts' lengths counted
            self.longest = max(map(len, self.pieces), default=0)
            self.ids = {text: i for i, text in enumerate(self.pieces)}
            self.arrays = _memo_arrays(1 << 10, 1 << 12)

    def learn(self, node: int, inside: np.ndarray) -> None:
        """Compute and remember the text of `node` around the pieces `inside`."""
        text = "".join(self.pieces[i] for i in inside.tolist())
        kind, op = self.program.kinds[node], self.program.args[node][1]
        text = self.sem.shown(text) if kind == CAPTURE else self.sem.wrap(op, text)
        piece = self.ids.get(text)
        if piece is None:
            piece = self.ids[text] = len(self.pieces)
            self.pieces.append(text)
            self.longest = max(self.longest, len(text))
        arrays = self.arrays
        entries, keys = arrays.sizes.tolist()
        if 2 * (entries + 1) > len(arrays.slots) or keys + len(inside) > len(arrays.keys):
            self.arrays = _memo_arrays(2 * len(arrays.slots), 2 * (keys + len(inside)), arrays)
        memo_put(self.arrays, node, inside, piece)


def _memo_arrays(slots: int, keys: int, old: Memo | None = None) -> Memo:
    """An empty memo with room for slots / 2 entries, holding `old`'s entries."""
    memo = Memo(
        np.full(slots, -1, np.int64),
        *(np.empty(slots // 2, np.int64) for _ in range(4)),
        np.empty(keys, np.int64),
        np.zeros(2, np.int64),
    )
    if old is not None:
        for e in range(int(old.sizes[0])):
            first, length = old.start[e], old.length[e]
            memo_put(memo, old.node[e], old.keys[first : first + length], old.value[e])
    return memo


def mt_keys(seed: int, streams: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The 32-bit words CPython seeds its Mersenne Twister with, for each stream's seed."""
    base = seed * SAMPLER_SEED
    try:
        low = np.fromiter(streams, np.int64, len(streams))
    except OverflowError:
        low = None
    if base >= 0 and low is not None and (len(low) == 0 or low.min() >= 0):
        width = max(2, (base.bit_length() + 31) // 32)
        words = [(base >> (32 * i)) & 0xFFFFFFFF for i in range(width)]
        keys = np.tile(np.array(words, np.int64), (len(low), 1))
        keys[:, 0] ^= low & 0xFFFFFFFF
        keys[:, 1] ^= low >> 32
        nonzero = keys != 0
        top = width - np.argmax(nonzero[:, ::-1], axis=1)
        return keys, np.where(nonzero.any(axis=1), top, 1)
    values = [abs(base ^ s) for s in streams]
    width = max([1, *((v.bit_length() + 31) // 32 for v in values)])
    keys = np.zeros((len(values), width), np.int64)
    lengths = np.empty(len(values), np.int64)
    for row, v in enumerate(values):
        lengths[row] = max(1, (v.bit_length() + 31) // 32)
        keys[row, : lengths[row]] = [(v >> (32 * i)) & 0xFFFFFFFF for i in range(lengths[row])]
    return keys, lengths
