"""The block loop of the layout enumeration (Algorithm 1 of Sturtevant & Ota, AIIDE 2018,
over blocks of ranks: one block per choice of positions, all value assignments within it).

This file is a template, never imported: `layouts.py` pastes it into a generated module
beside `space_unrank(r, x, S)` of the positions' ranked space (spaces/codegen.py), which
numba then inlines and caches with this loop (see DESIGN.md, Numba).
"""

# ruff: noqa: F821

import numpy as np
from numba import njit, prange

from epcg_spec.domains.witness.layout_kernels import (
    crossings_count,
    layout_block,
    layout_scratch,
)

PARTS = 1024  # runs of blocks shared among the threads; each makes its scratch once


@njit(cache=True, parallel=True)
def layout_blocks(first, counts, bits, S, L, P, B, T, C):
    """Block b (positions of rank first + b) writes only counts[b] and bits[b]."""
    n = counts.shape[0]
    parts = min(n, PARTS)
    for part in prange(parts):
        x = np.empty(P[0].shape[0], np.int64)
        scratch = layout_scratch(counts.shape[1], x.shape[0], L, B)
        run = np.int64(part)  # a prange index is unsigned: keep the ranks int64
        for b in range(n * run // parts, n * (run + 1) // parts):
            space_unrank(first + b, x, S)
            layout_block(x, counts[b], bits[b], L, P, B, T, C, scratch)


@njit(cache=True, parallel=True)
def crossing_blocks(first, counts, S, L, P, B):
    """layout_blocks where every position holds a crossing symbol of one value and no line
    bits are kept (`only_crossings` of layouts.py): block b is one panel, counts[b, 0]."""
    n = counts.shape[0]
    parts = min(n, PARTS)
    for part in prange(parts):
        x = np.empty(P[0].shape[0], np.int64)
        scratch = layout_scratch(1, x.shape[0], L, B)
        run = np.int64(part)  # a prange index is unsigned: keep the ranks int64
        for b in range(n * run // parts, n * (run + 1) // parts):
            space_unrank(first + b, x, S)
            counts[b, 0] = crossings_count(x, L, P, B, scratch)
