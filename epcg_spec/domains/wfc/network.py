"""A WfcRun as a propagation network: one variable per map cell, the topology's edges,
constraints as data."""

from __future__ import annotations

import numpy as np

from ...search.propagate import Model, Network
from .model import WfcRun


def side_tables(run: WfcRun) -> dict[int, np.ndarray]:
    """allowed[a, b] for b in direction d of a, for each forward direction d of the grid."""
    if run.tiled is not None:
        return {d: run.tiled.sides[d] for d in run.topology.forward}
    if run.topology.grid != "square":
        return {d: run.patterns.sides[d] for d in run.topology.forward}
    return {0: run.patterns.right, 3: run.patterns.down}


def build_network(run: WfcRun) -> Model:
    """The run's cells, adjacency, restrictions, counts and connectivity as a Model."""
    topology = run.topology
    variables = topology.variables()
    net = Network(int((variables >= 0).sum()), run.values, run.weights)
    relations = {d: net.relation(table) for d, table in side_tables(run).items()}
    for d, r in relations.items():
        u, v = topology.links(d)
        net.edges(variables[u], variables[v], r)
    for restriction in run.restrictions:
        inside = variables[restriction.cells]
        net.restrict(inside[inside >= 0], restriction.allowed)
    for nogoods in run.nogoods:
        rows = variables[nogoods.cells]
        keep = (rows >= 0).all(axis=1)
        if keep.any():
            net.nogoods(rows[keep], sets=nogoods.sets[keep])
    cells = np.arange(net.n_vars)
    for count in run.counts:
        net.group(cells, count.values, count.lo, count.hi)
    if run.connection is not None:
        exits = run.connection.exits
        passes = None
        if exits is not None:
            passes = {}
            for d, r in relations.items():
                passes[r] = exits[d]
                passes[net.transpose(r)] = exits[topology.opposite(d)]
        net.connected(run.connection.values, passes)
    return net.compile()
