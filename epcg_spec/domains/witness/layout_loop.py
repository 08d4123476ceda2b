"""The block loop of the layout enumeration (Algorithm 1 of Sturtevant & Ota, AIIDE 2018,
over blocks of ranks: one block per choice of positions, all value assignments within it).

This file is a template, never imported: `layouts.py` pastes it into a generated module
beside `space_unrank(r, x, S)` of the positions' ranked space (spaces/codegen.py), which
numba then inlines and caches with this loop (see DESIGN.md, Numba).
"""

# ruff: noqa: F401, F821

import numpy as np
from numba import njit, prange

from epcg_spec.domains.witness.layout_kernels import (
    crossings_count,
    layout_block,
)
from epcg_spec.search.blocks import claim


@njit(cache=True, nogil=True, error_model="numpy")
def layout_blocks(following, size, first, counts, bits, S, L, P, B, T, C, scratch):
    """Block b (positions of rank first + b) writes only counts[b] and bits[b]; on the runs
    of `size` blocks this thread claims (search/blocks.py, each_claimed)."""
    n = counts.shape[0]
    x = scratch[10]
    lo = claim(following, size)
    while lo < n:
        for b in range(lo, min(lo + size, n)):
            space_unrank(first + b, x, S)
            layout_block(x, counts[b], bits[b], L, P, B, T, C, scratch)
        lo = claim(following, size)


@njit(cache=True, nogil=True, error_model="numpy")
def crossing_blocks(following, size, first, counts, S, L, P, B, scratch):
    """layout_blocks where every position holds a crossing symbol of one value and no line
    bits are kept (`only_crossings` of layouts.py): block b is one panel, counts[b, 0]; on
    the runs of `size` blocks this thread claims (search/blocks.py, each_claimed)."""
    n = counts.shape[0]
    x = scratch[10]
    lo = claim(following, size)
    while lo < n:
        for b in range(lo, min(lo + size, n)):
            space_unrank(first + b, x, S)
            counts[b, 0] = crossings_count(x, L, P, B, scratch)
        lo = claim(following, size)
