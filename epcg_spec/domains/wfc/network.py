"""A WfcRun as a propagation network: one variable per cell, grid edges, constraints as data."""

from __future__ import annotations

import numpy as np

from ...search.propagate import Model, Network
from .model import WfcRun


def grid_edges(columns: int, rows: int, periodic: bool) -> tuple[np.ndarray, ...]:
    """(u, v) pairs of cells with v right of u, then with v below u (wrapping if periodic)."""
    xs, ys = np.meshgrid(np.arange(columns), np.arange(rows))
    xs, ys = xs.ravel(), ys.ravel()
    cell = xs + ys * columns
    if periodic:
        right = (xs + 1) % columns + ys * columns
        down = xs + (ys + 1) % rows * columns
        return cell, right, cell, down
    has_right, has_down = xs + 1 < columns, ys + 1 < rows
    return (
        cell[has_right],
        cell[has_right] + 1,
        cell[has_down],
        cell[has_down] + columns,
    )


def build_network(run: WfcRun) -> Model:
    """The run's cells, adjacency, restrictions, counts and connectivity as a Model."""
    columns, rows = run.grid
    tables = run.tiled if run.tiled is not None else run.patterns
    net = Network(columns * rows, run.values, run.weights)
    right_u, right_v, down_u, down_v = grid_edges(columns, rows, run.periodic)
    right = net.relation(tables.right)
    down = net.relation(tables.down)
    net.edges(right_u, right_v, right)
    net.edges(down_u, down_v, down)
    for restriction in run.restrictions:
        net.restrict(restriction.cells, restriction.allowed)
    cells = np.arange(columns * rows)
    for count in run.counts:
        net.group(cells, count.values, count.lo, count.hi)
    if run.connection is not None:
        exits = run.connection.exits
        passes = None
        if exits is not None:
            passes = {
                right: exits["right"],
                net.transpose(right): exits["left"],
                down: exits["down"],
                net.transpose(down): exits["up"],
            }
        net.connected(run.connection.values, passes)
    return net.compile()
