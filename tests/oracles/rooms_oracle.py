"""Plain-Python reference for rooms maps: a checker of one map, and a brute-force counter.

A map is a list of rooms (x, y, width, height, parent index or -1) on a W x H grid, with
`margin` wall cells between rooms and `corridor` cells between a room and its parent.
A child's door is in the middle of the side facing its parent: on a left or right side at
row y + height // 2, on a top or bottom side at column x + width // 2.
"""

from __future__ import annotations

import itertools


def _separation(a, b) -> int:
    """Cells between two rectangles along the axis where they are farthest apart."""
    ax, ay, aw, ah = a[:4]
    bx, by, bw, bh = b[:4]
    return max(bx - (ax + aw), ax - (bx + bw), by - (ay + ah), ay - (by + bh))


def parent_side(child, parent, gap: int) -> str | None:
    """The side of `child` on which `parent` faces its door across `gap` cells, if any."""
    x, y, w, h = child[:4]
    px, py, pw, ph = parent[:4]
    row, col = y + h // 2, x + w // 2
    if py <= row < py + ph and px == x + w + gap:
        return "right"
    if py <= row < py + ph and px + pw == x - gap:
        return "left"
    if px <= col < px + pw and py == y + h + gap:
        return "down"
    if px <= col < px + pw and py + ph == y - gap:
        return "up"
    return None


def corridor_cells(child, parent, margin: int, corridor: int) -> list[tuple[int, int]]:
    """The corridor's cells: the gap cells on the door line that are not wall cells."""
    side = parent_side(child, parent, margin + corridor)
    x, y, w, h = child[:4]
    row, col = y + h // 2, x + w // 2
    if side == "right":
        return [(x + w + margin + k, row) for k in range(corridor)]
    if side == "left":
        return [(x - corridor + k, row) for k in range(corridor)]
    if side == "down":
        return [(col, y + h + margin + k) for k in range(corridor)]
    return [(col, y - corridor + k) for k in range(corridor)]


def map_problems(width, height, margin, corridor, rooms, rock=()) -> list[str]:
    """Every broken rule of a map; an empty list for a valid one."""
    problems = []
    rock = set(rock)
    for i, (x, y, w, h, parent) in enumerate(rooms):
        if x < 0 or y < 0 or x + w > width or y + h > height:
            problems.append(f"room {i} leaves the map")
        if any((cx, cy) in rock for cx in range(x, x + w) for cy in range(y, y + h)):
            problems.append(f"room {i} lies on rock")
        if parent >= 0:
            if parent_side(rooms[i], rooms[parent], margin + corridor) is None:
                problems.append(f"room {i} is not next to its parent {parent}")
            elif corridor:
                cells = corridor_cells(rooms[i], rooms[parent], margin, corridor)
                for j, other in enumerate(rooms):
                    if any(_separation(other, (cx, cy, 1, 1)) < 0 for cx, cy in cells):
                        problems.append(f"the corridor of room {i} runs through room {j}")
                if any(c in rock for c in cells):
                    problems.append(f"the corridor of room {i} runs through rock")
    for i, j in itertools.combinations(range(len(rooms)), 2):
        if _separation(rooms[i], rooms[j]) < margin:
            problems.append(f"rooms {i} and {j} are closer than {margin} cell(s)")
    return problems


def count_maps(width, height, margin, shapes, parents, rock=()) -> int:
    """Brute force: maps without corridors, each room taking one of its `shapes` anywhere."""
    choices = [
        [
            (x, y, w, h, parent)
            for w, h in room_shapes
            for y in range(height - h + 1)
            for x in range(width - w + 1)
        ]
        for room_shapes, parent in zip(shapes, parents, strict=True)
    ]
    return sum(
        not map_problems(width, height, margin, 0, list(rooms), rock)
        for rooms in itertools.product(*choices)
    )
