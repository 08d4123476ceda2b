"""SplitMix64's draws in kernels (core/rng.py says how a seed becomes its state, and draws
the same stream from Python)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ..core.rng import GOLDEN

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
