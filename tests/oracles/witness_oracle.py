"""Plain-Python reference of The Witness rules, written from the rules, not from the kernels.

A panel here is a dict: width, height, start, goal (vertex tuples), must and cannot (sets of
slots: a vertex (x, y) or an edge frozenset({v1, v2})), and cells {(x, y): (kind, value)}
with kind square/star (value a colour name), triangle (a count) or piece (a set of cells).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import cache


def lines(width: int, height: int, start=(0, 0), goal=None) -> list[list[tuple[int, int]]]:
    """Every self-avoiding walk from start to goal over the (width+1) x (height+1) vertices,
    ending the first time it reaches the goal."""
    goal = (width, height) if goal is None else goal
    found: list[list[tuple[int, int]]] = []
    path = [start]

    def walk() -> None:
        x, y = path[-1]
        if (x, y) == goal:
            found.append(list(path))
            return
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nxt[0] <= width and 0 <= nxt[1] <= height and nxt not in path:
                path.append(nxt)
                walk()
                path.pop()

    walk()
    return found


def edges_of(path) -> set[frozenset]:
    return {frozenset(pair) for pair in itertools.pairwise(path)}


def regions(width: int, height: int, path) -> list[set[tuple[int, int]]]:
    """The cells split by the line: neighbours join unless the edge between them is used."""
    used = edges_of(path)
    left = {(x, y) for x in range(width) for y in range(height)}
    out = []
    while left:
        seed = min(left)
        region, todo = {seed}, [seed]
        while todo:
            x, y = todo.pop()
            walls = {
                (x + 1, y): frozenset({(x + 1, y), (x + 1, y + 1)}),
                (x - 1, y): frozenset({(x, y), (x, y + 1)}),
                (x, y + 1): frozenset({(x, y + 1), (x + 1, y + 1)}),
                (x, y - 1): frozenset({(x, y), (x + 1, y)}),
            }
            for cell, wall in walls.items():
                if cell in left and cell not in region and wall not in used:
                    region.add(cell)
                    todo.append(cell)
        left -= region
        out.append(region)
    return out


def shape(rows: list[str]) -> frozenset:
    """A piece drawn as rows of text (top first) as a set of cells, lowest corner at 0."""
    cells = {
        (x, len(rows) - 1 - r) for r, row in enumerate(rows) for x, c in enumerate(row) if c == "#"
    }
    lx, ly = min(x for x, _ in cells), min(y for _, y in cells)
    return frozenset((x - lx, y - ly) for x, y in cells)


def tiles(region: set, shapes: list[frozenset]) -> bool:
    """Whether the shapes, translated only, cover the region exactly without overlap."""
    if not shapes:
        return not region
    if sum(len(s) for s in shapes) != len(region):
        return False
    first, rest = shapes[0], shapes[1:]
    for ax, ay in region:
        for px, py in first:
            placed = {(ax + x - px, ay + y - py) for x, y in first}
            if placed <= region and tiles(region - placed, rest):
                return True
    return False


@cache
def _split(width: int, height: int, path: tuple) -> tuple[frozenset, tuple[frozenset, ...]]:
    """A line's edges and regions, made once: an oracle run checks each line against
    thousands of layouts."""
    return frozenset(edges_of(path)), tuple(map(frozenset, regions(width, height, path)))


def solves(panel: dict, path) -> bool:
    used_edges, split = _split(panel["width"], panel["height"], tuple(path))
    used = set(path) | used_edges
    if not panel.get("must", set()) <= used or panel.get("cannot", set()) & used:
        return False
    cells = panel.get("cells", {})
    for (x, y), (kind, value) in cells.items():
        if kind == "triangle":
            sides = [
                frozenset({(x, y), (x + 1, y)}),
                frozenset({(x, y + 1), (x + 1, y + 1)}),
                frozenset({(x, y), (x, y + 1)}),
                frozenset({(x + 1, y), (x + 1, y + 1)}),
            ]
            if sum(side in used_edges for side in sides) != value:
                return False
    for region in split:
        inside = [cells[c] for c in sorted(region) if c in cells]
        squares = {value for kind, value in inside if kind == "square"}
        if len(squares) > 1:
            return False
        for kind, value in inside:
            if kind == "star":
                same = sum(1 for k, v in inside if k in ("square", "star") and v == value)
                if same != 2:
                    return False
        shapes = [value for kind, value in inside if kind == "piece"]
        if shapes and not tiles(set(region), shapes):
            return False
    return True


def solutions(panel: dict, all_lines=None) -> list[list[tuple[int, int]]]:
    every = all_lines or lines(
        panel["width"], panel["height"], panel.get("start", (0, 0)), panel.get("goal")
    )
    return [path for path in every if solves(panel, path)]


def slots(width: int, height: int, domain: str) -> list:
    """The slots of a domain in the engine's documented numbering: horizontal edges row by
    row, then vertical edges row by row, then vertices row by row."""
    h = [frozenset({(x, y), (x + 1, y)}) for y in range(height + 1) for x in range(width)]
    v = [frozenset({(x, y), (x, y + 1)}) for y in range(height) for x in range(width + 1)]
    vertices = [(x, y) for y in range(height + 1) for x in range(width + 1)]
    return {"edges": h + v, "vertices": vertices, "slots": h + v + vertices}[domain]


def layouts(width: int, height: int, placements: list[tuple]) -> Iterator[dict | None]:
    """Every layout in rank order: placements are (kind, count, values, domain); positions
    of every placement first (combinations, in order), then the values (last fastest).
    A layout putting two symbols in one place is None."""
    cells = [(x, y) for y in range(height) for x in range(width)]
    choices = [
        itertools.combinations(range(len(cells if d == "cells" else slots(width, height, d))), k)
        for _, k, _, d in placements
    ]
    values = [itertools.product(range(len(v)), repeat=k) for _, k, v, _ in placements]
    value_lists = [list(v) for v in values]
    for where in itertools.product(*[list(c) for c in choices]):
        for what in itertools.product(*value_lists):
            panel: dict = {"width": width, "height": height, "must": set(), "cannot": set()}
            panel["cells"] = {}
            taken: set = set()
            clash = False
            for (kind, _, vals, domain), at, digits in zip(placements, where, what, strict=True):
                spots = cells if domain == "cells" else slots(width, height, domain)
                for a, d in zip(at, digits, strict=True):
                    spot = spots[a]
                    key = (domain == "cells", spot)  # a cell and a vertex may share (x, y)
                    clash |= key in taken
                    taken.add(key)
                    if kind in ("must_cross", "cannot_cross"):
                        panel["must" if kind == "must_cross" else "cannot"].add(spot)
                    else:
                        panel["cells"][spot] = (kind, vals[d])
            yield None if clash else panel
