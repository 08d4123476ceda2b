"""Play a puzzle: replay events in a topological order of its nodes until it is complete.

A node becomes ACTIVE when all its predecessors are completed, and COMPLETED (for good) when
its object reaches the goal state. The walkthrough completes, at each step, the lowest-numbered
active node by the shortest list of its object's events. It fails, with the reason, on a cycle,
a node whose goal state cannot be reached from where its object is, or two unordered
predecessors of one node that need one object in different states.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .universe import Universe


@dataclass
class Step:
    """One node completed: which, and the events played for it (event, state after it)."""

    node: int
    events: list[tuple[str, str]]


@dataclass
class Playthrough:
    ok: bool
    steps: list[Step] = field(default_factory=list)
    problem: str = ""


def hasse_edges(order: np.ndarray) -> list[tuple[int, int]]:
    """The direct edges of a strict order: i before j with nothing in between."""
    n = len(order)
    between = (order.astype(np.int64) @ order.astype(np.int64)) > 0
    return [(i, j) for i in range(n) for j in range(n) if order[i, j] and not between[i, j]]


def simulate(universe: Universe, order: np.ndarray) -> Playthrough:
    """Replay the puzzle whose order matrix is `order[i, j]` (i completed before j)."""
    n = len(universe.nodes)
    problem = _parallel_predecessors(universe, order)
    if problem:
        return Playthrough(False, problem=problem)
    state = {k: t.spec.initial for k, t in enumerate(universe.things)}
    done = np.zeros(n, dtype=bool)
    steps: list[Step] = []
    while not done.all():
        active = [j for j in range(n) if not done[j] and done[order[:, j]].all()]
        if not active:
            return Playthrough(False, steps, "a cycle: no node can become active")
        j = active[0]
        node = universe.nodes[j]
        thing = universe.things[node.thing]
        route = thing.spec.route(state[node.thing], node.state)
        if route is None:
            return Playthrough(
                False,
                steps,
                f"'{universe.label(j)}' is unreachable from '{thing.name}: {state[node.thing]}'",
            )
        if route:
            state[node.thing] = route[-1][1]
        done[j] = True
        steps.append(Step(j, route))
    return Playthrough(True, steps)


def _parallel_predecessors(universe: Universe, order: np.ndarray) -> str:
    """The first node with two unordered predecessors needing one object in two states."""
    nodes = universe.nodes
    for m in range(len(nodes)):
        before = np.flatnonzero(order[:, m])
        for a in before:
            for b in before:
                if a < b and nodes[a].thing == nodes[b].thing and not order[a, b] | order[b, a]:
                    return (
                        f"'{universe.label(a)}' and '{universe.label(b)}' both come before "
                        f"'{universe.label(m)}' in parallel"
                    )
    return ""
