"""SplitMix64's draws (core/rng.py says how a seed becomes its state): numba kernels,
callable from kernels and from Python, and the same stream as a Python object."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ..core.rng import GOLDEN, MASK64, stream_state

UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, _nrt=False)
def mix64(x):
    """SplitMix64's finaliser: a well-spread 64-bit hash of x."""
    x = np.uint64(x)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True, _nrt=False)
def next_unit(rng):
    """A uniform float in [0, 1) with 53 random bits; `rng` is a one-element uint64 array."""
    rng[0] += np.uint64(GOLDEN)
    return float(mix64(rng[0]) >> np.uint64(11)) * UNIT


class SplitMix64:
    """Stream `stream` of a run seeded `seed`, drawn from Python: the same on every machine."""

    def __init__(self, seed: int, stream: int = 0) -> None:
        self.state = stream_state(seed, stream)

    def next64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return int(mix64(np.uint64(self.state)))

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
