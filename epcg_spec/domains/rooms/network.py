"""Rooms as a propagation network: one variable per room, one value per placement.

A placement is (shape, x, y, side): the room's top-left floor cell, its size, and the side on
which its parent lies (NONE for the root). The door is in the middle of that side; the parent
must face it across `gap` = margin + corridor cells. Non-overlap is `exclusive` over resource
cells: a room uses its floor and `margin` cells to its right and below (so two rooms keep
`margin` wall cells between them), a corridor uses its cells and `margin` cells beside them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...search.propagate import Model, Network
from .model import RoomsSpec

NONE, LEFT, RIGHT, UP, DOWN = range(5)
CHILD_SIDES = (LEFT, RIGHT, UP, DOWN)


@dataclass(frozen=True)
class Placements:
    """Every placement of every shape: flat per-value arrays, and a lookup table."""

    shapes: tuple[tuple[int, int], ...]
    shape: np.ndarray  # per value: index into shapes
    side: np.ndarray
    x: np.ndarray
    y: np.ndarray
    index: np.ndarray  # [shape, side, y, x] -> value, -1 where none

    def door(self, value: int) -> tuple[int, int, int, int]:
        """(first cell x, y, step dx, dy) of the gap cells between a room and its parent."""
        w, h = self.shapes[self.shape[value]]
        x, y, side = int(self.x[value]), int(self.y[value]), int(self.side[value])
        if side == LEFT:
            return x - 1, y + h // 2, -1, 0
        if side == RIGHT:
            return x + w, y + h // 2, 1, 0
        if side == UP:
            return x + w // 2, y - 1, 0, -1
        return x + w // 2, y + h, 0, 1


def placements(spec: RoomsSpec) -> Placements:
    """Placements of every shape any room may take, with room for the parent beyond the door."""
    shapes = tuple(sorted({s for room in spec.rooms for s in spec.shapes(room)}))
    W, H, g = spec.width, spec.height, spec.gap
    index = -np.ones((len(shapes), 5, H, W), dtype=np.int64)
    parts = []
    for s, (w, h) in enumerate(shapes):
        ys, xs = np.mgrid[0 : H - h + 1, 0 : W - w + 1]
        xs, ys = xs.ravel(), ys.ravel()
        for side in range(5):
            keep = np.ones(len(xs), dtype=bool)
            if side == LEFT:
                keep = xs - g - 1 >= 0
            elif side == RIGHT:
                keep = xs + w + g < W
            elif side == UP:
                keep = ys - g - 1 >= 0
            elif side == DOWN:
                keep = ys + h + g < H
            parts.append((s, side, xs[keep], ys[keep]))
    start = 0
    for s, side, xs, ys in parts:
        index[s, side, ys, xs] = np.arange(start, start + len(xs))
        start += len(xs)
    return Placements(
        shapes=shapes,
        shape=np.concatenate([np.full(len(p[2]), p[0]) for p in parts]),
        side=np.concatenate([np.full(len(p[2]), p[1]) for p in parts]),
        x=np.concatenate([p[2] for p in parts]),
        y=np.concatenate([p[3] for p in parts]),
        index=index,
    )


def allowed_values(spec: RoomsSpec, places: Placements, room_index: int) -> np.ndarray:
    """Bool mask of the placements a room may take: its shapes, a parent side unless root,
    and no floor or corridor on rock."""
    room = spec.rooms[room_index]
    shapes = [places.shapes.index(s) for s in spec.shapes(room)]
    sides = [NONE] if room.parent < 0 else list(CHILD_SIDES)
    return np.isin(places.shape, shapes) & np.isin(places.side, sides) & ~on_rock(spec, places)


def allowed_counts(spec: RoomsSpec, places: Placements) -> list[int]:
    """Per room, how many placements `allowed_values` gives it, counted by size and side
    once for all the rooms (not a pass over every placement per room)."""
    free = np.bincount(
        places.shape * 5 + places.side,
        weights=~on_rock(spec, places),
        minlength=len(places.shapes) * 5,
    )
    counts = []
    for room in spec.rooms:
        sides = [NONE] if room.parent < 0 else list(CHILD_SIDES)
        shapes = [places.shapes.index(s) for s in spec.shapes(room)]
        counts.append(sum(int(free[s * 5 + side]) for s in shapes for side in sides))
    return counts


def on_rock(spec: RoomsSpec, places: Placements) -> np.ndarray:
    """Per value: does the room's floor or its corridor cover a rock cell?"""
    hit = np.zeros(len(places.x), dtype=bool)
    if not spec.blocked:
        return hit
    stride = spec.width + spec.margin
    rock = np.zeros((spec.height + spec.margin) * stride, dtype=bool)
    for x, y in spec.blocked:
        rock[x + y * stride] = True
    base = places.x + places.y * stride
    for s, (w, h) in enumerate(places.shapes):
        for side in range(5):
            group = np.flatnonzero((places.shape == s) & (places.side == side))
            cells = resource_offsets(spec, w, h, side, walls=False)
            hit[group] = rock[base[group, None] + cells[None, :]].any(axis=1)
    return hit


def parent_pairs(spec: RoomsSpec, places: Placements, parent: int, child: int):
    """(parent values, child values) such that the child's door faces the parent across the gap."""
    g = spec.gap
    child_values = np.flatnonzero(allowed_values(spec, places, child))
    parent_room = spec.rooms[parent]
    parent_sides = [NONE] if parent_room.parent < 0 else list(CHILD_SIDES)
    size = np.array(places.shapes)[places.shape[child_values]]
    cw, ch = size[:, 0], size[:, 1]
    cx, cy, side = places.x[child_values], places.y[child_values], places.side[child_values]
    horizontal = (side == LEFT) | (side == RIGHT)
    H, W = places.index.shape[2:]
    found_a, found_b = [], []
    for pw, ph in spec.shapes(parent_room):
        ps = places.shapes.index((pw, ph))
        for k in range(max(pw, ph)):  # the door's offset along the parent's facing side
            px = np.select(
                [side == RIGHT, side == LEFT], [cx + cw + g, cx - g - pw], cx + cw // 2 - k
            )
            py = np.select([side == DOWN, side == UP], [cy + ch + g, cy - g - ph], cy + ch // 2 - k)
            ok = np.where(horizontal, k < ph, k < pw) & (px >= 0) & (py >= 0) & (px < W) & (py < H)
            for pside in parent_sides:
                a = np.full(len(child_values), -1)
                a[ok] = places.index[ps, pside, py[ok], px[ok]]
                hit = a >= 0
                found_a.append(a[hit])
                found_b.append(child_values[hit])
    return np.concatenate(found_a), np.concatenate(found_b)


def resource_offsets(spec: RoomsSpec, w: int, h: int, side: int, walls: bool = True) -> np.ndarray:
    """Cells a placement of shape (w, h) at (0, 0) uses, on the resource grid (W + margin wide);
    with `walls` False, only its floor and corridor cells."""
    m = spec.margin if walls else 0
    stride = spec.width + spec.margin
    ys, xs = np.mgrid[0 : h + m, 0 : w + m]
    cells = [xs.ravel() + ys.ravel() * stride]
    if side != NONE and spec.corridor:
        # corridor cells: the gap cells on the door line beyond the wall cells; each with
        # `margin` cells beside it (below a horizontal corridor, right of a vertical one)
        if side in (LEFT, RIGHT):
            row = h // 2
            first = w + spec.margin if side == RIGHT else -spec.gap + spec.margin
            run = np.arange(first, first + spec.corridor)
            for extra in range(m + 1):
                cells.append(run + (row + extra) * stride)
        else:
            col = w // 2
            first = h + spec.margin if side == DOWN else -spec.gap + spec.margin
            run = np.arange(first, first + spec.corridor)
            for extra in range(m + 1):
                cells.append(col + extra + run * stride)
    return np.concatenate(cells)


def exclusive_bytes(spec: RoomsSpec, places: Placements) -> int:
    """Bytes of the cells every placement uses (8 each), as build_network lists them."""
    groups = np.bincount(places.shape * 5 + places.side, minlength=len(places.shapes) * 5)
    return sum(
        8 * int(groups[s * 5 + side]) * len(resource_offsets(spec, w, h, side))
        for s, (w, h) in enumerate(places.shapes)
        for side in range(5)
    )


def build_network(spec: RoomsSpec, places: Placements) -> Model:
    """One variable per room; parent-next-to-child relations; exclusive use of cells."""
    n = len(spec.rooms)
    net = Network(n, len(places.x))
    for r in range(n):
        net.restrict([r], allowed_values(spec, places, r))
    for child, room in enumerate(spec.rooms):
        if room.parent >= 0:
            relation = net.relation(pairs=parent_pairs(spec, places, room.parent, child))
            net.edges([room.parent], [child], relation)
    stride = spec.width + spec.margin
    offsets = {
        (s, side): resource_offsets(spec, w, h, side)
        for s, (w, h) in enumerate(places.shapes)
        for side in range(5)
    }
    base = places.x + places.y * stride
    uses = [base[v] + offsets[places.shape[v], places.side[v]] for v in range(len(base))]
    if n > 1:
        net.exclusive(np.arange(n), uses)
    return net.compile()
