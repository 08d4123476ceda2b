"""The branch-and-bound back end on a toy problem with its own evaluator, against brute force."""

import hashlib
import itertools
from math import comb
from pathlib import Path

import numba
import numpy as np
import pytest
from numba import njit

from epcg_spec.core.context import RunContext
from epcg_spec.search import branch_bound, driver

TOP = 5


@njit(cache=True)
def toy_extend(acc, chosen, d, T):
    """Choose p items of distinct colours with the largest total weight (weights come in
    decreasing order, so every later item weighs at most the next one)."""
    weight, colour = T[0], T[1]
    item = chosen[d]
    bit = np.uint64(1) << np.uint64(colour[item])
    if acc[d, 1] & bit:
        return -np.inf
    acc[d + 1, 0] = acc[d, 0] + np.uint64(weight[item])
    acc[d + 1, 1] = acc[d, 1] | bit
    p = acc.shape[0] - 1
    if d + 1 == p:
        return float(acc[d + 1, 0])
    if item + 1 == weight.shape[0]:
        return -np.inf
    return float(acc[d + 1, 0]) + (p - d - 1) * float(weight[item + 1])


def toy_problem(items: int, size: int, seed: int) -> branch_bound.Problem:
    rng = np.random.default_rng(seed)
    weight = np.sort(rng.integers(1, 30, items))[::-1].astype(np.int64)
    colour = rng.integers(0, 6, items).astype(np.int64)
    source = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    module = branch_bound.evaluator_module(
        "branch-and-bound toy",
        [f"# {__name__} sha256 {source}", f"from {__name__} import toy_extend as bb_extend"],
    )
    return branch_bound.Problem(
        module, items, size, np.zeros(2, np.uint64), (weight, colour), top=TOP
    )


def brute_force(problem: branch_bound.Problem) -> list[tuple[float, tuple]]:
    weight, colour = problem.tables
    found = []
    for chosen in itertools.combinations(range(problem.items), problem.size):
        if len({int(colour[i]) for i in chosen}) == problem.size:
            found.append((float(sum(int(weight[i]) for i in chosen)), chosen))
    return sorted(found, key=lambda item: (-item[0], item[1]))[:TOP]


@pytest.mark.parametrize(("items", "size", "seed"), [(12, 3, 1), (40, 3, 2), (30, 4, 3), (9, 2, 4)])
def test_the_best_sets_are_the_brute_force_best(items, size, seed):
    problem = toy_problem(items, size, seed)
    outcome = branch_bound.run(problem, RunContext(), "toy")
    assert outcome.best == brute_force(problem)


def test_pruning_expands_fewer_nodes_than_the_full_tree():
    problem = toy_problem(120, 4, 5)
    outcome = branch_bound.run(problem, RunContext(), "toy")
    full = sum(comb(problem.items, d) for d in range(1, problem.size + 1))
    assert outcome.nodes < full / 10


def test_threads_change_neither_the_sets_nor_the_node_count():
    problem = toy_problem(80, 3, 6)
    numba.set_num_threads(1)
    one = branch_bound.run(problem, RunContext(), "toy")
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    every = branch_bound.run(problem, RunContext(), "toy")
    assert (one.best, one.nodes) == (every.best, every.nodes)


def test_a_resumed_run_ends_like_an_uninterrupted_one(tmp_path, monkeypatch):
    problem = toy_problem(200, 3, 7)
    whole = branch_bound.run(problem, RunContext(), "toy")
    calls = {"n": 0}
    real = branch_bound.BranchBoundJob.work

    def stop_after_two(*args):
        calls["n"] += 1
        if calls["n"] == 4:  # the warm-up call, then two chunks
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(branch_bound.BranchBoundJob, "work", stop_after_two)
    monkeypatch.setattr(driver, "CHECKPOINT_SECONDS", -1.0)
    stopped = branch_bound.run(problem, RunContext(work_dir=tmp_path), "toy")
    assert stopped.report.stopped == "interrupted" and stopped.report.done == 2 * 64
    monkeypatch.setattr(branch_bound.BranchBoundJob, "work", real)
    resumed = branch_bound.run(problem, RunContext(work_dir=tmp_path, resume=True), "toy")
    assert (resumed.best, resumed.nodes) == (whole.best, whole.nodes)
