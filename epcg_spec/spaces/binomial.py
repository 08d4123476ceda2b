"""Binomial coefficient tables for the combinatorial number system."""

from __future__ import annotations

import numpy as np

from epcg_spec.spaces.base import INT64_MAX


def binomial_table(top: int, bottom: int) -> np.ndarray:
    """Table T of shape (bottom + 1, top + 1) with T[j, a] = C(a, j), saturated at 2**63 - 1.

    Rows are indexed by the lower argument so that a search over `a` for a fixed `j` reads
    one contiguous row. Entries above 2**63 - 1 are stored as 2**63 - 1; the kernels in
    `sorted_sequence` only read entries no larger than the size of the space they rank.
    """
    table = np.zeros((bottom + 1, top + 1), dtype=np.int64)
    row = [1] * (top + 1)
    for j in range(bottom + 1):
        table[j, :] = [min(value, INT64_MAX) for value in row]
        row = [0] + [row[a - 1] * a // (j + 1) for a in range(1, top + 1)]
    return table
