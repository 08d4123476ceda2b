"""The block loop of the layout enumeration (Algorithm 1 of Sturtevant & Ota, AIIDE 2018,
over blocks of ranks: one block per choice of positions, all value assignments within it).

This file is a template, never imported: `layouts.py` pastes it into a generated module
beside `space_unrank(r, x, S)` of the positions' ranked space (spaces/codegen.py), which
numba then inlines and caches with this loop (see DESIGN.md, Numba).
"""

# ruff: noqa: F821

import numpy as np
from numba import njit, prange

from epcg_spec.domains.witness.layout_kernels import layout_block


@njit(cache=True, parallel=True)
def layout_blocks(first, counts, bits, S, L, P, B, T):
    """Block b (positions of rank first + b) writes only counts[b] and bits[b]."""
    for b in prange(counts.shape[0]):
        x = np.empty(P[0].shape[0], np.int64)
        space_unrank(first + np.int64(b), x, S)
        layout_block(x, counts[b], bits[b], L, P, B, T)
