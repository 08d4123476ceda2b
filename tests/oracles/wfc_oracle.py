"""Plain-Python references for Wave Function Collapse.

`count_tilings` counts the assignments of a small grid row by row (a transfer matrix), so
it shares nothing with the search; `plain_wfc` is a straightforward WFC (AC-4 support counts,
lowest entropy found by scanning every cell, restart on a contradiction): the baseline that
benchmarks/bench_wfc.py measures against.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np


def count_tilings(right: np.ndarray, down: np.ndarray, width: int, height: int) -> int:
    """Assignments of a bounded width x height grid whose neighbours are allowed."""
    values = range(len(right))
    rows = [
        row
        for row in itertools.product(values, repeat=width)
        if all(right[row[i], row[i + 1]] for i in range(width - 1))
    ]
    ways = dict.fromkeys(rows, 1)
    for _ in range(height - 1):
        ways = {
            below: sum(
                n
                for above, n in ways.items()
                if all(down[a, b] for a, b in zip(above, below, strict=True))
            )
            for below in rows
        }
    return sum(ways.values())


def plain_wfc(right, down, weights, width, height, periodic, seed):
    """One attempt of classic WFC: the cell values, or None on a contradiction."""
    rng = random.Random(seed)
    count = len(weights)
    offsets = ((1, 0), (0, 1), (-1, 0), (0, -1))
    tables = [right, down, right.T, down.T]
    support = [[list(np.flatnonzero(t[a])) for a in range(count)] for t in tables]
    cells = width * height
    wave = [[True] * count for _ in range(cells)]
    compat = [
        [[len(support[(d + 2) % 4][a]) for d in range(4)] for a in range(count)]
        for _ in range(cells)
    ]
    sums = [float(sum(weights))] * cells
    logs = [float(sum(w * math.log(w) for w in weights))] * cells
    sizes = [count] * cells
    stack = []

    def neighbour(i, d):
        x, y = i % width + offsets[d][0], i // width + offsets[d][1]
        if periodic:
            return x % width + y % height * width
        return x + y * width if 0 <= x < width and 0 <= y < height else -1

    def ban(i, a):
        wave[i][a] = False
        sizes[i] -= 1
        sums[i] -= weights[a]
        logs[i] -= weights[a] * math.log(weights[a])
        stack.append((i, a))

    while True:
        best, best_entropy = -1, math.inf
        for i in range(cells):
            if sizes[i] == 0:
                return None
            if sizes[i] > 1:
                entropy = math.log(sums[i]) - logs[i] / sums[i] + 1e-6 * rng.random()
                if entropy < best_entropy:
                    best, best_entropy = i, entropy
        if best < 0:
            return [row.index(True) for row in wave]
        choices = [a for a in range(count) if wave[best][a]]
        pick = rng.choices(choices, [weights[a] for a in choices])[0]
        for a in choices:
            if a != pick:
                ban(best, a)
        while stack:
            i, a = stack.pop()
            for d in range(4):
                j = neighbour(i, d)
                if j < 0:
                    continue
                for b in support[d][a]:
                    compat[j][b][d] -= 1
                    if compat[j][b][d] == 0 and wave[j][b]:
                        ban(j, b)
