"""Plain-Python references for WFC on hex and cube grids, sharing nothing with the engine.

Hex neighbours come from geometry: every hex is placed by its centre in the plane (odd rows,
or odd columns, pushed half a hex over, as Tiled draws them) and the neighbour in direction d
is the hex whose centre lies one hex-width away at angle d * 60 degrees (plus 30 for flat-top
hexes), on a torus where an axis wraps. Cube neighbours are one step along x, y or z. A result
is checked pair by pair against the rule tables, and tiny maps are counted by trying every
assignment.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

ROOT3 = math.sqrt(3)


def _centres(layout: str, columns: int, rows: int) -> dict[tuple[int, int], tuple[float, float]]:
    """Hex centres (x right, y up) for circumradius 1."""
    out = {}
    for y in range(rows):
        for x in range(columns):
            if layout == "pointy":
                out[x, y] = (ROOT3 * (x + 0.5 * (y % 2)), -1.5 * y)
            else:
                out[x, y] = (1.5 * x, -ROOT3 * (y + 0.5 * (x % 2)))
    return out


def hex_neighbours(layout: str, columns: int, rows: int, periodic: tuple[bool, bool]):
    """{(cell, d): neighbour cell} for every hex cell and direction that has one."""
    centres = _centres(layout, columns, rows)
    period = (ROOT3 * columns, 1.5 * rows) if layout == "pointy" else (1.5 * columns, ROOT3 * rows)
    start = 0.0 if layout == "pointy" else 30.0
    found = {}
    for (x, y), (cx, cy) in centres.items():
        for d in range(6):
            angle = math.radians(start + 60 * d)
            tx, ty = cx + ROOT3 * math.cos(angle), cy + ROOT3 * math.sin(angle)
            for (ox, oy), (px, py) in centres.items():
                dx, dy = tx - px, ty - py
                if periodic[0]:
                    dx -= period[0] * round(dx / period[0])
                if periodic[1]:
                    dy -= period[1] * round(dy / period[1])
                if abs(dx) < 1e-6 and abs(dy) < 1e-6:
                    found[x + y * columns, d] = ox + oy * columns
    return found


def hex_mirror(layout: str, columns: int, rows: int) -> tuple[dict[int, int], list[int]]:
    """({cell: the cell its centre is reflected onto}, direction d -> its reflection) for the
    reflection across the map's middle line: horizontal for pointy-top hexes (top and bottom
    swap), vertical for flat-top ones. Cells whose reflection is no centre are left out."""
    centres = _centres(layout, columns, rows)
    axis = 1 if layout == "pointy" else 0
    along = [c[axis] for c in centres.values()]
    middle = (max(along) + min(along)) / 2
    partners = {}
    for (x, y), centre in centres.items():
        image = list(centre)
        image[axis] = 2 * middle - centre[axis]
        for (ox, oy), other in centres.items():
            if math.dist(image, other) < 1e-6:
                partners[x + y * columns] = ox + oy * columns
    start = 0.0 if layout == "pointy" else 30.0
    turned = []
    for d in range(6):
        angle = start + 60 * d
        image = -angle if layout == "pointy" else 180 - angle
        turned.append(next(e for e in range(6) if (start + 60 * e - image) % 360 < 1e-6))
    return partners, turned


def cube_neighbours(shape: tuple[int, int, int], periodic: tuple[bool, bool, bool]):
    """{(cell, d): neighbour} for east, north, west, south, up, down (z up, y north)."""
    steps = [(1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    found = {}
    for z, y, x in itertools.product(*(range(n) for n in reversed(shape))):
        for d, step in enumerate(steps):
            there = [x + step[0], y + step[1], z + step[2]]
            ok = True
            for axis in range(3):
                if periodic[axis]:
                    there[axis] %= shape[axis]
                elif not 0 <= there[axis] < shape[axis]:
                    ok = False
            if ok:
                found[x + y * shape[0] + z * shape[0] * shape[1], d] = (
                    there[0] + there[1] * shape[0] + there[2] * shape[0] * shape[1]
                )
    return found


def violations(values, neighbours, sides, inside=None) -> list[tuple[int, int, int]]:
    """(cell, d, neighbour) for every adjacent pair of map cells the rule tables forbid."""
    bad = []
    for (u, d), v in neighbours.items():
        if inside is not None and not (inside[u] and inside[v]):
            continue
        if not sides[d][values[u], values[v]]:
            bad.append((u, d, v))
    return bad


def brute_count(cells: int, values: int, neighbours, sides, inside=None, extra=None) -> int:
    """Assignments of the map cells (values per cell) that no rule forbids (and `extra`,
    given the whole grid, accepts)."""
    live = [c for c in range(cells) if inside is None or inside[c]]
    at = {c: i for i, c in enumerate(live)}  # a map cell's place in an assignment
    pairs = [(at[u], d, at[v]) for (u, d), v in neighbours.items() if u in at and v in at]
    allowed = [np.asarray(side, dtype=bool).tolist() for side in sides]  # lists: numpy is slow here
    total = 0
    grid = np.zeros(cells, dtype=np.int64)
    for choice in itertools.product(range(values), repeat=len(live)):
        if all(allowed[d][choice[i]][choice[j]] for i, d, j in pairs):
            grid[live] = choice
            total += extra is None or bool(extra(grid))
    return total


def square_neighbours(columns: int, rows: int):
    """{(cell, d): neighbour} for right, up, left, down on a bounded grid (y down)."""
    steps = [(1, 0), (0, -1), (-1, 0), (0, 1)]
    found = {}
    for y in range(rows):
        for x in range(columns):
            for d, (dx, dy) in enumerate(steps):
                if 0 <= x + dx < columns and 0 <= y + dy < rows:
                    found[x + y * columns, d] = x + dx + (y + dy) * columns
    return found


def far_enough(grid, neighbours, members, distance: int) -> bool:
    """No two cells holding a value of `members` fewer than `distance` steps apart."""
    held = [c for c in range(len(grid)) if members[grid[c]]]
    for start in held:
        ring, seen = {start}, {start}
        for _ in range(distance - 1):
            ring = {v for (u, _), v in neighbours.items() if u in ring} - seen
            seen |= ring
        if any(c != start and members[grid[c]] for c in seen):
            return False
    return True


def short_runs(grid, neighbours, members, most: int, d: int) -> bool:
    """No `most` + 1 cells in a row (stepping direction d) all holding `members`."""
    for start in range(len(grid)):
        cell, length = start, 0
        while cell is not None and members[grid[cell]] and length <= most:
            length += 1
            cell = neighbours.get((cell, d))
        if length > most:
            return False
    return True


def _joined(grid, neighbours, opens, opposite):
    """Edges (u, v) between neighbours both opening towards each other, each pair once."""
    edges = set()
    for (u, d), v in neighbours.items():
        if d in opens[grid[u]] and opposite[d] in opens[grid[v]]:
            edges.add((min(u, v), max(u, v)))
    return edges


def no_cycle(grid, neighbours, opens, opposite) -> bool:
    """The cells joined through open sides form a forest (edges = cells - components)."""
    edges = _joined(grid, neighbours, opens, opposite)
    cells = {c for e in edges for c in e}
    components, seen = 0, set()
    for start in cells:
        if start in seen:
            continue
        components += 1
        todo = [start]
        seen.add(start)
        while todo:
            c = todo.pop()
            for u, v in edges:
                for a, b in ((u, v), (v, u)):
                    if a == c and b not in seen:
                        seen.add(b)
                        todo.append(b)
    return len(edges) == len(cells) - components


def path_length(grid, neighbours, opens, opposite, start: int, end: int) -> int | None:
    """Steps of the shortest path from start to end through open sides (None: no path)."""
    edges = _joined(grid, neighbours, opens, opposite)
    steps, todo = {start: 0}, [start]
    while todo:
        c = todo.pop(0)
        for u, v in edges:
            for a, b in ((u, v), (v, u)):
                if a == c and b not in steps:
                    steps[b] = steps[c] + 1
                    todo.append(b)
    return steps.get(end)
