"""Nogoods, exclusive groups, sparse relations and `solutions`, against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from epcg_spec.search import backtrack
from epcg_spec.search.propagate import Network

SEEDS = range(40)


def random_network(seed: int):
    """A small random network with every extra propagator, and a plain checker of it."""
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(2, 6)), int(rng.integers(2, 4))
    net = Network(n, k)
    checks = []
    if rng.random() < 0.7:  # one sparse relation on a few edges
        a, b = rng.integers(0, k, size=(2, int(rng.integers(1, k * k + 1))))
        r = net.relation(pairs=(a, b))
        allowed = set(zip(a.tolist(), b.tolist(), strict=True))
        u = rng.choice(n, size=2, replace=False)
        net.edges([u[0]], [u[1]], r)
        checks.append(lambda x, u=u, ok=allowed: (x[u[0]], x[u[1]]) in ok)
    for _ in range(int(rng.integers(0, 4))):  # nogoods with value literals
        width = int(rng.integers(1, min(n, 3) + 1))
        vs = rng.choice(n, size=width, replace=False)
        vals = rng.integers(0, k, size=width)
        net.nogoods(vs[None, :], vals[None, :])
        checks.append(
            lambda x, vs=vs, vals=vals: not all(x[v] == a for v, a in zip(vs, vals, strict=True))
        )
    if rng.random() < 0.5:  # a nogood over value sets
        vs = rng.choice(n, size=2, replace=False)
        sets = rng.random((2, k)) < 0.5
        net.nogoods(vs[None, :], sets=sets[None, :, :])
        checks.append(lambda x, vs=vs, sets=sets: not (sets[0, x[vs[0]]] and sets[1, x[vs[1]]]))
    if rng.random() < 0.6:  # an exclusive group over a few resources
        members = rng.choice(n, size=int(rng.integers(2, n + 1)), replace=False)
        uses = [rng.choice(4, size=int(rng.integers(0, 3)), replace=False) for _ in range(k)]
        net.exclusive(members, uses)

        def apart(x, members=members, uses=uses):
            held = [set(uses[x[m]].tolist()) for m in members]
            return all(not (p & q) for p, q in itertools.combinations(held, 2))

        checks.append(apart)
    if rng.random() < 0.4:
        var = int(rng.integers(0, n))
        mask = rng.random(k) < 0.7
        net.restrict([var], mask)
        checks.append(lambda x, var=var, mask=mask: bool(mask[x[var]]))
    return net, n, k, checks


def brute_force(n: int, k: int, checks) -> set[tuple[int, ...]]:
    return {x for x in itertools.product(range(k), repeat=n) if all(c(x) for c in checks)}


@pytest.mark.parametrize("seed", SEEDS)
def test_count_and_solutions_match_brute_force(seed):
    net, n, k, checks = random_network(seed)
    model = net.compile()
    expected = brute_force(n, k, checks)
    assert backtrack.count(model) == (len(expected), True)
    listed = [tuple(int(v) for v in x) for x in backtrack.solutions(model)]
    assert len(listed) == len(set(listed))
    assert set(listed) == expected


@pytest.mark.parametrize("seed", SEEDS)
def test_solve_finds_a_valid_assignment_or_proves_none(seed):
    net, n, k, checks = random_network(seed)
    expected = brute_force(n, k, checks)
    outcome = backtrack.solve(net.compile(), seed, backtrack.Policy(attempts=1))
    if expected:
        assert outcome.status == "solved"
        assert tuple(int(v) for v in outcome.values) in expected
    else:
        assert outcome.status == "infeasible"


def strict_orders(n: int) -> Network:
    """0/1 variable per ordered pair; antisymmetry and transitivity as nogoods."""
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    index = {p: v for v, p in enumerate(pairs)}
    net = Network(len(pairs), 2)
    rows, vals = [], []
    for i, j in pairs:
        if i < j:
            rows.append([index[i, j], index[j, i], index[i, j]])
            vals.append([1, 1, 1])
        for m in range(n):
            if m not in (i, j):
                rows.append([index[i, j], index[j, m], index[i, m]])
                vals.append([1, 1, 0])
    net.nogoods(np.array(rows), np.array(vals))
    return net


@pytest.mark.parametrize("n,expected", [(2, 3), (3, 19), (4, 219), (5, 4231)])
def test_transitivity_nogoods_count_labelled_posets(n, expected):
    # OEIS A001035: labelled partial orders on n points
    assert backtrack.count(strict_orders(n).compile()) == (expected, True)


def test_exclusive_places_non_overlapping_dominoes():
    # dominoes on a 1 x 5 strip: value = left cell 0..3, each uses cells (a, a + 1)
    uses = [np.array([a, a + 1]) for a in range(4)]
    net = Network(2, 4)
    net.exclusive([0, 1], uses)
    # ordered pairs of non-overlapping placements: |a - b| >= 2
    assert backtrack.count(net.compile())[0] == sum(
        abs(a - b) >= 2 for a in range(4) for b in range(4)
    )


def test_sparse_relation_equals_dense_table():
    rng = np.random.default_rng(3)
    table = rng.random((5, 5)) < 0.4
    dense, sparse = Network(4, 5), Network(4, 5)
    u, v = np.arange(3), np.arange(1, 4)
    dense.edges(u, v, dense.relation(table))
    sparse.edges(u, v, sparse.relation(pairs=np.nonzero(table)))
    assert backtrack.count(dense.compile()) == backtrack.count(sparse.compile())


def test_bad_pairs_are_refused():
    net = Network(2, 3)
    with pytest.raises(ValueError):
        net.relation(pairs=([0, 1], [3, 0]))
    with pytest.raises(ValueError):
        net.nogoods([[0, 5]], [[0, 0]])
    with pytest.raises(ValueError):
        net.exclusive([0, 1], [[0]])
