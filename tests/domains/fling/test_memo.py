"""The expert's memo against a Python dict: keys found with their values through growth."""

import numpy as np

from epcg_spec.domains.fling.memo import START, memo_add, memo_find, memo_new


def test_memo_holds_what_a_dict_holds_through_growth():
    rng = np.random.default_rng(3)
    pairs = {(int(a), int(b)) for a, b in rng.integers(0, 2**63, (5 * int(START), 2))}
    pairs |= {(0, 0), (2**64 - 1, 2**64 - 1), (7, 0), (0, 7)}  # edge keys, near-collisions
    keys, full, values = memo_new(START, np.int64(2))
    expected = {}
    for count, (a, b) in enumerate(sorted(pairs)):
        assert memo_find(keys, full, np.uint64(a), np.uint64(b)) == -1
        keys, full, values, at = memo_add(keys, full, values, count, np.uint64(a), np.uint64(b))
        values[at] = (count, -count)
        expected[(a, b)] = count
    assert keys.shape[0] >= 2 * len(pairs) > START  # it grew, and stays at most half full
    for (a, b), count in expected.items():
        at = memo_find(keys, full, np.uint64(a), np.uint64(b))
        assert tuple(values[at]) == (count, -count)
    assert memo_find(keys, full, np.uint64(1), np.uint64(2)) == -1
    assert full.sum() == len(pairs)
