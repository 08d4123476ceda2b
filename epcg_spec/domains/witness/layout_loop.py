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
    layout_scratch,
    only_crossings,
)


@njit(cache=True, nogil=True)
def layout_blocks(lo, hi, first, counts, bits, S, L, P, B, T):
    """Blocks lo <= b < hi (positions of rank first + b); block b writes only counts[b] and
    bits[b]. The caller shares runs of blocks among threads (search/blocks.py)."""
    crossings = bits.shape[1] == 0 and only_crossings(P, P[0].shape[0])
    x = np.empty(P[0].shape[0], np.int64)
    scratch = layout_scratch(counts.shape[1], x.shape[0], L, B)
    for b in range(lo, hi):
        space_unrank(first + b, x, S)
        if crossings:  # one panel a block, each line's test a bit set's
            counts[b, 0] = crossings_count(x, L, P, B, scratch)
        else:
            layout_block(x, counts[b], bits[b], L, P, B, T, scratch)
