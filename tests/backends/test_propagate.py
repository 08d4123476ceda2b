"""The propagation network and its kernels: known counts, and brute force on random networks."""

from __future__ import annotations

from math import comb, factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from epcg_spec.search import backtrack
from epcg_spec.search.propagate import Network, clone_state
from tests.oracles.network_oracle import PlainNetwork


def colouring(n: int, k: int, cycle: bool) -> Network:
    net = Network(n, k)
    different = ~np.eye(k, dtype=bool)
    u = np.arange(n if cycle else n - 1)
    net.edges(u, (u + 1) % n, net.relation(different))
    return net


@pytest.mark.parametrize("n,k", [(3, 3), (5, 3), (6, 4), (7, 2)])
def test_proper_colourings_of_a_cycle(n, k):
    # chromatic polynomial of the cycle C_n: (k-1)^n + (-1)^n (k-1)
    assert backtrack.count(colouring(n, k, True).compile()) == (
        (k - 1) ** n + (-1) ** n * (k - 1),
        True,
    )


@pytest.mark.parametrize("n,k", [(4, 3), (6, 2)])
def test_proper_colourings_of_a_path(n, k):
    assert backtrack.count(colouring(n, k, False).compile())[0] == k * (k - 1) ** (n - 1)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_all_different_groups_count_permutations(n):
    net = Network(n, n)
    for value in range(n):
        net.group(range(n), [value], 0, 1)
    assert backtrack.count(net.compile()) == (factorial(n), True)


@pytest.mark.parametrize("order,known", [(2, 2), (3, 12), (4, 576)])
def test_latin_squares(order, known):
    # OEIS A002860: 1, 2, 12, 576, 161280
    net = Network(order * order, order)
    for i in range(order):
        for value in range(order):
            net.group([i * order + j for j in range(order)], [value], 1, 1)
            net.group([j * order + i for j in range(order)], [value], 1, 1)
    assert backtrack.count(net.compile()) == (known, True)


@pytest.mark.parametrize("n,k", [(6, 2), (7, 3), (8, 0)])
def test_a_cardinality_group_counts_binomials(n, k):
    net = Network(n, 2)
    net.group(range(n), [1], k, k)
    assert backtrack.count(net.compile())[0] == comb(n, k)


def test_counting_stops_at_the_limit():
    assert backtrack.count(colouring(8, 3, True).compile(), limit=5) == (5, False)


def test_contradictory_restrictions_are_infeasible():
    net = Network(2, 2)
    net.restrict([0, 1], [True, False])
    net.edges([0], [1], net.relation(~np.eye(2, dtype=bool)))
    assert backtrack.prepare(net.compile()) is None
    assert backtrack.solve(net.compile(), 0, backtrack.Policy()).status == "infeasible"


def test_a_cloned_state_is_an_equal_independent_copy_in_one_block():
    model = colouring(7, 3, True).compile()
    base = backtrack.prepare(model)
    copy = clone_state(base)
    for name, a, b in zip(base._fields, base, copy, strict=True):
        assert (a.dtype, a.shape) == (b.dtype, b.shape), name
        assert np.array_equal(a, b), name
        assert b.flags.c_contiguous and (b.size == 0 or b.ctypes.data % 64 == 0), name
    assert len({id(b.base) for b in copy}) == 1  # one allocation
    copy.dom[:] = 0
    assert base.dom.any()
    run = backtrack.Search(model, base, seed=3)
    assert run.run() == backtrack.SOLVED
    assert np.array_equal(base.dom, backtrack.prepare(model).dom)


def test_reverse_edges_pair_up():
    net = colouring(5, 3, True)
    model = net.compile()
    src = np.repeat(np.arange(model.n_vars), np.diff(model.edge_start))
    rev = model.edge_rev
    assert np.array_equal(rev[rev], np.arange(len(rev)))
    assert np.array_equal(src[rev], model.edge_dst)
    assert np.array_equal(model.edge_rel[rev], [net.transpose(r) for r in model.edge_rel])


def test_edges_are_sorted_by_source_target_relation_and_a_repeat_is_refused():
    net = Network(4, 2)
    near, far = net.relation(np.eye(2)), net.relation(~np.eye(2, dtype=bool))
    net.edges([2, 0, 0], [1, 3, 1], far)
    net.edges([0], [1], near)
    model = net.compile()
    src = np.repeat(np.arange(4), np.diff(model.edge_start))
    keys = list(zip(src.tolist(), model.edge_dst.tolist(), model.edge_rel.tolist(), strict=True))
    assert keys == sorted(keys) and len(keys) == 8
    net.edges([3], [0], net.transpose(far))  # 0 -> 3 of `far`, read from the other end
    with pytest.raises(ValueError, match="added twice"):
        net.compile()


def grid_adjacency(width: int, height: int) -> list[tuple[int, int]]:
    pairs = [(y * width + x, y * width + x + 1) for y in range(height) for x in range(width - 1)]
    return pairs + [
        (y * width + x, (y + 1) * width + x) for y in range(height - 1) for x in range(width)
    ]


@pytest.mark.parametrize("width,height", [(2, 2), (3, 3), (4, 2)])
def test_connected_cells_on_a_grid(width, height):
    net = Network(width * height, 2)
    anything = np.ones((2, 2), dtype=bool)
    pairs = grid_adjacency(width, height)
    r = net.relation(anything)
    net.edges([p[0] for p in pairs], [p[1] for p in pairs], r)
    net.connected([1])
    plain = PlainNetwork(width * height, 2, path={1}, adjacency=pairs)
    assert backtrack.count(net.compile()) == (sum(1 for _ in plain.solutions()), True)


@st.composite
def random_networks(draw):
    n = draw(st.integers(2, 5))
    k = draw(st.integers(2, 3))
    edges = draw(
        st.lists(
            st.tuples(
                st.integers(0, n - 1),
                st.integers(0, n - 1),
                st.sets(st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)), min_size=1),
            ).filter(lambda e: e[0] != e[1]),
            max_size=4,
            unique_by=lambda e: (min(e[0], e[1]), max(e[0], e[1])),
        )
    )
    groups = draw(
        st.lists(
            st.tuples(
                st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True),
                st.sets(st.integers(0, k - 1), min_size=1),
                st.integers(0, 2),
                st.integers(0, 3),
            ).filter(lambda g: g[2] <= g[3]),
            max_size=3,
        )
    )
    domains = draw(st.lists(st.sets(st.integers(0, k - 1), min_size=1), min_size=n, max_size=n))
    return PlainNetwork(n, k, domains, edges, groups)


@settings(max_examples=60, deadline=None)
@given(random_networks(), st.sampled_from(["entropy", "mrv", "scanline"]))
def test_counting_agrees_with_brute_force(plain, heuristic):
    net = Network(plain.n_vars, plain.n_values)
    for v, domain in enumerate(plain.domains):
        net.restrict([v], [a in domain for a in range(plain.n_values)])
    for u, v, allowed in plain.edges:
        table = np.zeros((plain.n_values, plain.n_values), dtype=bool)
        for a, b in allowed:
            table[a, b] = True
        net.edges([u], [v], net.relation(table))
    for members, chosen, lo, hi in plain.groups:
        net.group(members, sorted(chosen), lo, hi)
    expected = sum(1 for _ in plain.solutions())
    assert backtrack.count(net.compile(), heuristic=heuristic) == (expected, True)


@pytest.mark.parametrize("k,dtype", [(256, np.uint8), (257, np.uint16)])
def test_support_counts_fit_the_largest_support_list(k, dtype):
    # "different" on k values: every value has k - 1 supports; k * (k - 1) ordered pairs
    net = Network(2, k)
    net.edges([0], [1], net.relation(~np.eye(k, dtype=bool)))
    net.group([0, 1], [0], 0, 2)  # vacuous: the general loop, which counts supports
    model = net.compile()
    assert model.compat0.dtype == dtype
    assert model.compat0.shape == (2, k) and len(model.supports) == 0
    assert backtrack.count(model) == (k * (k - 1), True)


def test_supports_only_and_general_propagation_agree():
    # a vacuous group (0..n members) never acts, but sends propagation down the general loop
    def grid(vacuous: bool) -> Network:
        side, k = 16, 6
        rng = np.random.default_rng(0)  # random rules that make some guesses fail
        right, down = rng.random((k, k)) < 0.35, rng.random((k, k)) < 0.35
        net = Network(side * side, k, weights=rng.random(k) + 0.2)
        cells = np.arange(side * side).reshape(side, side)
        net.edges(cells[:, :-1], cells[:, 1:], net.relation(right))
        net.edges(cells[:-1, :], cells[1:, :], net.relation(down))
        if vacuous:
            net.group(cells.ravel(), [0], 0, side * side)
        return net

    policy = backtrack.Policy(max_backtracks=-1, attempts=1)
    for seed in (0, 2):
        plain = backtrack.solve(grid(False).compile(), seed, policy)
        general = backtrack.solve(grid(True).compile(), seed, policy)
        assert plain.status == general.status == "solved"
        assert plain.backtracks > 0
        assert np.array_equal(plain.values, general.values)
        assert (plain.decisions, plain.backtracks) == (general.decisions, general.backtracks)
    model = grid(False).compile()  # support bit sets, no counts
    assert model.supports.shape == (4 * 6, 1) and model.compat0.shape == (0, 6)
