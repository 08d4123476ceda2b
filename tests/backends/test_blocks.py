"""search/blocks.py: every block exactly once, whatever the thread count; errors raised."""

from __future__ import annotations

import multiprocessing

import numba
import numpy as np
import pytest
from numba import njit

from epcg_spec.search import blocks, exhaustive
from tests.domains.space.helpers import problem_of


@njit(nogil=True)
def _mark(following, size, count, seen):
    lo = blocks.claim(following, size)
    while lo < count:
        for b in range(lo, min(lo + size, count)):
            seen[b] += 1
        lo = blocks.claim(following, size)


@pytest.fixture(params=[1, 2], ids=["1 thread", "2 threads"])
def threads(request):
    before = numba.get_num_threads()
    numba.set_num_threads(min(request.param, numba.config.NUMBA_NUM_THREADS))
    yield request.param
    numba.set_num_threads(before)


@pytest.mark.parametrize("count", [0, 1, 7, 513, 100_003])
def test_claimed_runs_cover_every_block_once(threads, count):
    seen = np.zeros(count, np.int64)
    blocks.each_claimed(lambda following, size: _mark(following, size, count, seen), count)
    assert seen.tolist() == [1] * count


def test_claim_returns_the_start_before_the_add():
    following = np.array([5], np.int64)

    @njit
    def twice(following):
        return blocks.claim(following, 3), blocks.claim(following, np.int32(4))

    assert twice(following) == (5, 8)
    assert following[0] == 12


@pytest.mark.parametrize("count", [0, 1, 7, 5000])
def test_runs_cover_every_block_once(threads, count):
    seen = np.zeros(max(count, 1), np.int64)

    def run(lo: int, hi: int) -> None:
        seen[lo:hi] += 1

    blocks.each_run(run, count)
    assert seen[:count].tolist() == [1] * count


def test_an_error_on_a_helper_thread_is_raised_once_every_thread_is_done():
    done = []

    def task() -> None:
        if len(done) == 1:
            done.append("failed")
            raise ValueError("block 3 failed")
        done.append("worked")

    with pytest.raises(ValueError, match="block 3 failed"):
        blocks.side_by_side(task, 3)
    assert sorted(done) == ["failed", "worked", "worked"]


@pytest.mark.parametrize(
    "values",
    [
        np.random.default_rng(1).integers(0, 1 << 40, 300_000),
        np.random.default_rng(2).integers(0, 3, 200_000),  # few distinct values: parts empty
        np.arange(250_000, 0, -1),
        np.arange(10),
        np.zeros(0, np.int64),
    ],
    ids=["random", "duplicates", "descending", "small", "empty"],
)
def test_the_sort_side_by_side_equals_numpys(threads, values):
    assert np.array_equal(blocks.sorted_side_by_side(values), np.sort(values))


def _child_runs(queue) -> None:
    seen = np.zeros(100, np.int64)
    blocks.each_run(lambda lo, hi: seen.__setitem__(slice(lo, hi), seen[lo:hi] + 1), 100)
    queue.put(seen.tolist() == [1] * 100)


def test_a_forked_child_starts_its_own_threads():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread: no helper threads to lose")
    numba.set_num_threads(2)
    blocks.side_by_side(lambda: None, 2)  # the parent's helper thread exists now
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child_runs, args=(queue,))
    child.start()
    child.join(timeout=60)
    alive = child.is_alive()
    if alive:
        child.kill()
    assert not alive and child.exitcode == 0 and queue.get(timeout=5)


def _lines(array: np.ndarray) -> range:
    """The cache lines `array` lies on."""
    start, line = array.ctypes.data, blocks.CACHE_LINE
    return range(start // line, (start + max(array.nbytes, 1) - 1) // line + 1)


def test_own_lines_gives_zeroed_arrays_each_on_lines_of_its_own():
    shapes = ((3, np.int64), ((2, 5), np.uint64), (7, np.bool_), ((0,), np.int64), (9, np.int32))
    made = [blocks.own_lines(*shapes) for _ in range(8)]  # one after the other, as threads do
    owner: dict[int, tuple[int, int]] = {}
    for t, arrays in enumerate(made):
        for i, (array, (shape, dtype)) in enumerate(zip(arrays, shapes, strict=True)):
            assert array.shape == np.empty(shape).shape and array.dtype == dtype
            assert array.flags.c_contiguous and array.flags.writeable and not array.any()
            if array.nbytes:
                assert array.ctypes.data % blocks.CACHE_LINE == 0
                for line in _lines(array):
                    assert owner.setdefault(line, (t, i)) == (t, i)


def test_the_exhaustive_scratch_of_threads_shares_no_cache_line():
    """Sixteen threads' scratch for 14-queens' pruned walk, made one after the other: numpy
    packed small arrays together, and one line shared by two threads' scratch slowed the
    walk 2.6 times on two cores (docs/benchmarks.md, "Scratch on shared cache lines")."""
    kernels = problem_of("n-queens", n=14).kernels()
    owner: dict[int, int] = {}
    made = [exhaustive._scratch(kernels) for _ in range(16)]
    for t, arrays in enumerate(made):
        for array in arrays:
            for line in _lines(array):
                assert owner.setdefault(line, t) == t


@pytest.mark.parametrize("top", [1, 3, 7, 40])
def test_an_unscored_chunk_sorts_only_the_blocks_that_hold_its_best(top):
    # blocks keep up to 3 states each, their first ranks in rank order, all valued 0, as
    # the walk keeps them unscored; some keep none; the whole sort says which come first
    rng = np.random.default_rng(top)
    blocks, keep, length = 50, 3, 4
    kept = rng.integers(0, keep + 1, blocks)
    kept[: blocks // 3] = 0
    arrays = list(exhaustive._results(blocks, keep, length)[3:])
    best_score, best_rank, best_state, _ = arrays
    for b in range(blocks):
        ranks = np.sort(rng.choice(1000, kept[b], replace=False)) + 1000 * b
        best_score[b, : kept[b]] = 0.0
        best_rank[b, : kept[b]] = ranks
        best_state[b, : kept[b]] = ranks[:, None] % 7
    arrays[3] = kept
    whole = exhaustive._top(arrays, top, scored=True)
    assert exhaustive._top(arrays, top, scored=False) == whole
    assert len(whole) == min(top, int(kept.sum()))
