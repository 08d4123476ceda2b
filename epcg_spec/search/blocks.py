"""Splitting a rank range into blocks: the exhaustive back end's units of work."""

from __future__ import annotations

import numpy as np

MIN_BLOCK = 1 << 16
MAX_BLOCKS = 1 << 16
# A pruned walk starts each block from the root and skips most of its ranks at once, so its
# blocks are larger: fewer descents from the root, with still enough blocks to balance threads.
MIN_PRUNED_BLOCK = 1 << 20


def block_bounds(lo: int, hi: int, min_block: int = MIN_BLOCK) -> tuple[np.ndarray, np.ndarray]:
    """Block starts and ends covering [lo, hi); they depend only on the range, not threads."""
    span = hi - lo
    block = max(min_block, -(-span // MAX_BLOCKS))
    starts = np.arange(lo, hi, block, dtype=np.int64) if span > 0 else np.zeros(0, np.int64)
    ends = np.minimum(starts + block, hi).astype(np.int64)
    return starts, ends
