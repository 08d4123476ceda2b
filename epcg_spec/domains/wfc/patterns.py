"""The overlapping model: N x N patterns of a sample image and which may overlap which.

As in the reference: colours are numbered in order of first appearance (rows top to bottom);
windows are read row by row (wrapping when the input is periodic); each window yields its 8
images in the order identity, mirror, quarter turn, its mirror, half turn, its mirror, three
quarter turns, its mirror, of which the first `symmetry` count; a pattern's weight is the
number of times it was counted, and patterns are numbered in order of first appearance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class PatternModel:
    """The patterns of a sample, their weights, and the overlap tables."""

    n: int
    colors: np.ndarray  # (C, 3) uint8
    patterns: np.ndarray  # (T, N, N) colour indices
    weights: np.ndarray  # (T,) occurrence counts
    right: np.ndarray  # right[a, b]: b one cell right of a agrees on the overlap
    down: np.ndarray  # down[a, b]: b one cell below a agrees
    bottom: np.ndarray  # patterns of the sample's last unwrapped window row (and mirrors)

    @property
    def count(self) -> int:
        return len(self.weights)


def first_appearance(items: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct items in order of first appearance, each item's number in that order)."""
    _, first, inverse = np.unique(items, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return items[np.sort(first)], rank[inverse.ravel()]


def palette(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(colours in order of first appearance, the image as colour indices)."""
    colors, numbers = first_appearance(image.reshape(-1, image.shape[-1]))
    return colors, numbers.reshape(image.shape[:2])


def symmetries(p: np.ndarray) -> list[np.ndarray]:
    """The 8 images of a pattern, in the reference's order."""
    out = []
    q = p
    for _ in range(4):
        out += [q, q[:, ::-1]]
        q = np.rot90(q)
    return out


class PatternCounter:
    """Distinct patterns (of any shape) in order of first sight, each with how often it was
    seen: what every overlapping model learns from its sample."""

    def __init__(self) -> None:
        self.index: dict[bytes, int] = {}
        self.patterns: list[np.ndarray] = []
        self.counts: list[int] = []

    def add(self, pattern: np.ndarray) -> int:
        """Count one sighting of `pattern`; return its number."""
        pattern = np.ascontiguousarray(pattern)
        found = self.index.setdefault(pattern.tobytes(), len(self.patterns))
        if found == len(self.patterns):
            self.patterns.append(pattern)
            self.counts.append(0)
        self.counts[found] += 1
        return found

    def stack(self) -> np.ndarray:
        return np.stack(self.patterns).astype(np.int32)

    def weights(self) -> np.ndarray:
        return np.array(self.counts, dtype=np.float64)


MAX_TABLE = 1 << 28
"""Most entries (bytes) of the tables of which variant may neighbour which, in all
directions together: directions x variants^2, made as a spec is read (a 256 x 256 sample
of noise has half a million patterns, whose tables would take 250 GiB)."""


class TooManyVariants(Exception):
    """A model with more variants (tiles and their turns, or patterns) than MAX_TABLE allows."""

    def __init__(self, count: int, directions: int, what: str, fix: str):
        most = math.isqrt(MAX_TABLE // directions)
        super().__init__(
            f"{count:,} {what}, more than the {most:,} whose neighbour tables "
            f"({directions} x {most:,}^2) are made when a spec is read; {fix}"
        )


def check_variants(count: int, directions: int, what: str, fix: str) -> None:
    """Refuse (TooManyVariants) `count` variants whose tables in `directions` are too large."""
    if directions * count * count > MAX_TABLE:
        raise TooManyVariants(count, directions, what, fix)


PATTERN_FIX = "use a smaller sample, N or symmetry"


def extract(image: np.ndarray, n: int, symmetry: int, periodic_input: bool) -> PatternModel:
    """Every pattern of the sample with its weight, and the tables of allowed overlaps."""
    colors, sample = palette(image)
    height, width = sample.shape
    ys = height if periodic_input else height - n + 1
    xs = width if periodic_input else width - n + 1
    seen = PatternCounter()
    bottom: set[int] = set()
    rows = (np.arange(n)[:, None] + np.arange(ys)[None, :]) % height
    cols = (np.arange(n)[:, None] + np.arange(xs)[None, :]) % width
    for y in range(ys):
        for x in range(xs):
            window = sample[np.ix_(rows[:, y], cols[:, x])]
            for k, image_k in enumerate(symmetries(window)[:symmetry]):
                found = seen.add(image_k)
                if k < 2 and y == height - n:
                    bottom.add(found)
    check_variants(len(seen.patterns), 2, "patterns", PATTERN_FIX)
    stack = seen.stack()
    return PatternModel(
        n=n,
        colors=colors.astype(np.uint8),
        patterns=stack,
        weights=seen.weights(),
        right=_agree(stack[:, :, 1:], stack[:, :, :-1]),
        down=_agree(stack[:, 1:, :], stack[:, :-1, :]),
        bottom=np.array(sorted(bottom), dtype=np.int64),
    )


def _agree(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """agree[a, b]: the overlap part `first[a]` equals `second[b]`."""
    a = first.reshape(len(first), -1)
    b = second.reshape(len(second), -1)
    _, codes = np.unique(np.concatenate([a, b]), axis=0, return_inverse=True)
    codes = codes.ravel()
    return codes[: len(a), None] == codes[None, len(a) :]
