"""Seeded random numbers: how every kind turns (seed, i) into a stream, and draws from it.

One family, SplitMix64, serves kernels and Python alike:

- `stream_state(seed, i)`: the 64-bit key of stream i of a run seeded `seed`, a fixed
  function of both (attempt i of a search, text i of a grammar, the element of a tree);
  a stream starts from its key finalised by `mix64`, so that the streams of neighbouring
  seeds and indices share no draws.
- `SplitMix64`: its draws from Python (a grammar's choices, a tree's elements), in Python
  integers; the kernels' own draws, the same stream, are in search/splitmix.py (`mix64`,
  `next_unit`). This module imports no numba: validating a spec needs none, and a draw from
  Python is quicker without a call into a kernel.

Two other generators stay, because tests and documented examples pin the content they make
(the same spec and seed must give the same bytes): `mersenne` (Python's Mersenne Twister,
whose exact `randrange` the grammar sampler draws from) and `numpy_stream` (numpy's PCG64,
which draws Sudoku's clue order and the ranks sampled from a space). Both are seeded from
here, so this module is the one place that says how a seed becomes numbers.
"""

from __future__ import annotations

import random

import numpy as np

GOLDEN = 0x9E3779B97F4A7C15
"""SplitMix64's increment (2**64 over the golden ratio); also spreads seeds apart."""
STREAM = 0xD1B54A32D192ED03
"""An odd multiplier that spreads stream indices apart."""
MASK64 = (1 << 64) - 1


def stream_state(seed: int, stream: int) -> int:
    """The 64-bit key of stream `stream` of a run seeded `seed` (its start is mix64 of it)."""
    return (seed * GOLDEN + stream * STREAM + 1) & MASK64


def item_seed(seed: int, index: int) -> int:
    """The seed of item `index` of a run seeded `seed`, for the kinds that seed items one by
    one (Sudoku puzzles, WFC outputs, PPG puzzles): seed + index."""
    return seed + index


def mersenne(seed: int, stream: int) -> random.Random:
    """Python's Mersenne Twister for stream `stream` of a run seeded `seed`."""
    return random.Random(seed * GOLDEN ^ stream)


def numpy_stream(seed: int) -> np.random.Generator:
    """numpy's default generator (PCG64) seeded `seed`."""
    return np.random.default_rng(seed)


def mix64(x: int) -> int:
    """SplitMix64's finaliser on a Python int (search/splitmix.py's kernel, the same)."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


class SplitMix64:
    """Stream `stream` of a run seeded `seed`, drawn from Python: the same on every machine.

    It starts from the finalised `stream_state`, as the kernels start from a finalised
    attempt seed: the raw states of seeds s and s + 1 lie one SplitMix64 step apart, so
    without it seed s + 1 would draw what seed s draws, one draw later."""

    def __init__(self, seed: int, stream: int = 0) -> None:
        self.state = mix64(stream_state(seed, stream))

    def next64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), exact for any n (rejection sampling)."""
        if n <= 0:
            raise ValueError("below(n) needs n > 0")
        bits = (n - 1).bit_length() or 1
        while True:
            value = 0
            for _ in range(-(-bits // 64)):
                value = value << 64 | self.next64()
            value >>= -bits % 64
            if value < n:
                return value
