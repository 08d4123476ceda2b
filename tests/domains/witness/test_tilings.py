"""The piece multisets that tile a region (layout_kernels.tilings), against brute force."""

from itertools import combinations_with_replacement

import numpy as np

from epcg_spec.domains.witness.kernels import tiles
from epcg_spec.domains.witness.layout_kernels import KEY_BITS, tilings
from epcg_spec.domains.witness.pieces import piece_sizes, placement_table

from .helpers import LIBRARY

PLACE = placement_table(LIBRARY, 3, 3)
SIZES = piece_sizes(LIBRARY)
LARGEST = int(SIZES.max())
# a domino, an L of three cells, the top row, a 2x2 block, the whole 3x3 panel
REGIONS = np.array([0b11, 0b1011, 0b111_000_000, 0b11011, 0b111_111_111], np.uint64)


def brute_force(region: int, most: int) -> list[tuple[int, ...]]:
    """Every multiset of at most `most` pieces (sorted indices) that tiles the region."""
    area = bin(region).count("1")
    found = []
    for n in range(1, most + 1):
        for types in combinations_with_replacement(range(len(LIBRARY)), n):
            chosen = np.array(types, np.int64)
            if SIZES[chosen].sum() == area and tiles(np.uint64(region), chosen, PLACE):
                found.append(types)
    return found


def keys_of(found: list[tuple[int, ...]]) -> list[int]:
    return sorted(sum((t + 1) << (KEY_BITS * k) for k, t in enumerate(ts)) for ts in found)


def run(most: int, capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(counts, start, keys) of tilings' two passes over REGIONS."""
    n = len(REGIONS)
    counts, start = np.zeros(n, np.int64), np.zeros(n + 1, np.int64)
    args = (REGIONS, most, PLACE, LARGEST, capacity, counts, start)
    tilings(0, n, *args, np.zeros(0, np.int64))
    np.cumsum(np.maximum(counts, 0), out=start[1:])
    keys = np.zeros(int(start[-1]), np.int64)
    tilings(0, n, *args, keys)
    return counts, start, keys


def test_tilings_are_the_distinct_multisets_that_tile_each_region_in_key_order():
    for most in (1, 2, 3):
        counts, start, keys = run(most, 1 << 12)
        for u, region in enumerate(REGIONS.tolist()):
            expected = keys_of(brute_force(region, most))
            assert counts[u] == len(expected)
            assert keys[start[u] : start[u + 1]].tolist() == expected
    # the domino: I2-h or two dots; the L: L3-sw, or a dot and a domino either way
    assert run(2, 1 << 12)[0].tolist() == [2, 3, 2, 7, 0]


def test_more_distinct_tilings_than_the_capacity_is_reported():
    counts, _, _ = run(2, 2)
    assert counts.tolist() == [2, -1, 2, -1, 0]
