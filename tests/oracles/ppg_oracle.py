"""Plain-Python reference for PPG orders: brute force over every relation of a small universe.

A relation is a set of ordered pairs (i before j). It is a valid puzzle order when it is a
strict partial order (irreflexive, antisymmetric, transitive), every rule holds (read from its
definition, direct edges found by their definition), the goal comes after every other node,
no node has two unordered predecessors on one object, and every order in which a player can
complete the nodes (every linear extension) plays through: each node's goal state reachable
from the state the previous node of its object left.
"""

from __future__ import annotations

import itertools

import numpy as np


def is_strict_order(order: np.ndarray) -> bool:
    n = len(order)
    if any(order[i, i] for i in range(n)):
        return False
    for i, j in itertools.permutations(range(n), 2):
        if order[i, j] and order[j, i]:
            return False
    for i, j, k in itertools.permutations(range(n), 3):
        if order[i, j] and order[j, k] and not order[i, k]:
            return False
    return True


def direct(order: np.ndarray, i: int, j: int) -> bool:
    """i before j with no node in between."""
    return bool(order[i, j]) and not any(order[i, k] and order[k, j] for k in range(len(order)))


def rule_holds(order: np.ndarray, kind: str, lh, rh) -> bool:
    n = len(order)
    if kind in ("BEFORE", "STRICT_BEFORE") and any(order[y, x] for x in lh for y in rh):
        return False
    if kind in ("AFTER", "STRICT_AFTER") and any(order[x, y] for x in lh for y in rh):
        return False
    if kind == "STRICT_BEFORE":
        return all(j in rh for x in lh for j in range(n) if direct(order, x, j))
    if kind == "STRICT_AFTER":
        return all(j in rh for x in lh for j in range(n) if direct(order, j, x))
    return True


def plays_through(universe, order: np.ndarray) -> bool:
    nodes = universe.nodes
    n = len(nodes)
    for m in range(n):
        for a, b in itertools.combinations(range(n), 2):
            same = nodes[a].thing == nodes[b].thing
            if same and order[a, m] and order[b, m] and not (order[a, b] or order[b, a]):
                return False
    for sequence in itertools.permutations(range(n)):
        position = {v: k for k, v in enumerate(sequence)}
        if any(order[i, j] and position[i] > position[j] for i in range(n) for j in range(n)):
            continue
        state = {k: t.spec.initial for k, t in enumerate(universe.things)}
        for v in sequence:
            thing = universe.things[nodes[v].thing]
            if nodes[v].state not in thing.spec.reachable(state[nodes[v].thing]):
                return False
            state[nodes[v].thing] = nodes[v].state
    return True


def valid_orders(universe, rules: list[tuple[str, list[int], list[int]]]) -> list[np.ndarray]:
    """Every valid order of the universe's nodes under `rules` (type, lh nodes, rh nodes)."""
    n = len(universe.nodes)
    pairs = list(itertools.permutations(range(n), 2))
    goal = universe.goal_node()
    out = []
    for bits in itertools.product((False, True), repeat=len(pairs)):
        order = np.zeros((n, n), dtype=bool)
        for (i, j), bit in zip(pairs, bits, strict=True):
            order[i, j] = bit
        if not is_strict_order(order):
            continue
        if goal is not None and not all(order[i, goal] for i in range(n) if i != goal):
            continue
        if all(rule_holds(order, *r) for r in rules) and plays_through(universe, order):
            out.append(order)
    return out


def count_up_to_relabelling(orders: list[np.ndarray], perms: list[np.ndarray]) -> int:
    """Orbits of the orders under the node permutations (a group): counted by Burnside-free
    brute force, each orbit's members marked as seen."""
    seen: set[bytes] = set()
    orbits = 0
    for order in orders:
        if order.tobytes() in seen:
            continue
        orbits += 1
        for perm in perms:
            image = np.zeros_like(order)
            image[np.ix_(perm, perm)] = order
            seen.add(image.tobytes())
    return orbits
