"""The simulation check fails on every kind of broken order, and the layout and graph agree."""

from __future__ import annotations

import numpy as np

from epcg_spec.domains.ppg.render import layers
from epcg_spec.domains.ppg.simulate import hasse_edges, simulate
from epcg_spec.domains.ppg.universe import largest_universe

from .helpers import chain_object, spec_of


def universe_of(*objects):
    return largest_universe(spec_of({"objects": list(objects)}))


def order_of(n: int, pairs) -> np.ndarray:
    order = np.zeros((n, n), dtype=bool)
    for a, b in pairs:
        order[a, b] = True
    return order


def test_a_chain_plays_in_order():
    universe = universe_of(chain_object("A", 2), chain_object("B", 2), chain_object("C", 2))
    play = simulate(universe, order_of(3, [(2, 1), (1, 0), (2, 0)]))
    assert play.ok and [s.node for s in play.steps] == [2, 1, 0]
    assert play.steps[0].events == [("e1", "s1")]


def test_a_cycle_is_caught():
    universe = universe_of(chain_object("A", 2), chain_object("B", 2))
    play = simulate(universe, order_of(2, [(0, 1), (1, 0)]))
    assert not play.ok and "cycle" in play.problem


def test_an_unreachable_goal_is_caught():
    # one-way chain s0 -> s1 -> s2: s1 cannot follow s2
    universe = universe_of(chain_object("A", 3, reversible=False))
    play = simulate(universe, order_of(2, [(1, 0)]))
    assert not play.ok and "'A: s1' is unreachable from 'A: s2'" in play.problem
    assert simulate(universe, order_of(2, [(0, 1)])).ok


def test_parallel_predecessors_on_one_object_are_caught():
    universe = universe_of(chain_object("A", 3), chain_object("B", 2))
    play = simulate(universe, order_of(3, [(0, 2), (1, 2)]))
    assert not play.ok and "in parallel" in play.problem
    assert simulate(universe, order_of(3, [(0, 1), (0, 2), (1, 2)])).ok


def test_direct_edges_and_layers_of_a_diamond():
    order = order_of(4, [(0, 1), (0, 2), (1, 3), (2, 3), (0, 3)])
    assert hasse_edges(order) == [(0, 1), (0, 2), (1, 3), (2, 3)]
    assert layers(order) == [0, 1, 1, 2]
