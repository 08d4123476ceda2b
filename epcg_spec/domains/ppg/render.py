"""A puzzle graph as JSON data, Graphviz DOT text, an SVG picture and a walkthrough."""

from __future__ import annotations

from html import escape

import numpy as np

from .simulate import Playthrough, hasse_edges
from .universe import Universe

MIN_BOX_W, CHAR_W, BOX_H, GAP_X, GAP_Y, MARGIN = 150, 7, 36, 30, 60, 20


def graph_data(universe: Universe, order: np.ndarray) -> dict:
    """Nodes (object, state), direct edges, and the whole order as pairs."""
    nodes = [
        {"id": i, "object": universe.things[n.thing].name, "state": n.state}
        for i, n in enumerate(universe.nodes)
    ]
    return {
        "nodes": nodes,
        "edges": [list(e) for e in hasse_edges(order)],
        "order": [[int(i), int(j)] for i, j in zip(*np.nonzero(order), strict=True)],
    }


def dot_text(universe: Universe, order: np.ndarray, name: str) -> str:
    """Graphviz DOT of the direct edges (a before b drawn as a -> b)."""
    lines = [f"digraph {_dot_id(name)} {{", "  rankdir=TB;", "  node [shape=box];"]
    lines += [f"  n{i} [label={_dot_id(universe.label(i))}];" for i in range(len(universe.nodes))]
    lines += [f"  n{a} -> n{b};" for a, b in hasse_edges(order)]
    return "\n".join([*lines, "}"]) + "\n"


def _dot_id(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def layers(order: np.ndarray) -> list[int]:
    """Each node's layer: the length of the longest chain of nodes before it."""
    n = len(order)
    depth = [0] * n
    for j in sorted(range(n), key=lambda k: int(order[:, k].sum())):
        before = np.flatnonzero(order[:, j])
        depth[j] = max((depth[i] + 1 for i in before), default=0)
    return depth


def svg_text(universe: Universe, order: np.ndarray) -> str:
    """A layered drawing: one row per layer, arrows along the direct edges."""
    depth = layers(order)
    labels = [universe.label(i) for i in range(len(universe.nodes))]
    box_w = max([MIN_BOX_W, *(CHAR_W * len(t) + 20 for t in labels)])
    rows: dict[int, list[int]] = {}
    for i, d in enumerate(depth):
        rows.setdefault(d, []).append(i)
    widest = max((len(r) for r in rows.values()), default=1)
    width = 2 * MARGIN + widest * box_w + (widest - 1) * GAP_X
    height = 2 * MARGIN + len(rows) * BOX_H + max(len(rows) - 1, 0) * GAP_Y
    where = {}
    for d, members in rows.items():
        span = len(members) * box_w + (len(members) - 1) * GAP_X
        left = (width - span) / 2
        for k, i in enumerate(members):
            where[i] = (left + k * (box_w + GAP_X), MARGIN + d * (BOX_H + GAP_Y))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="12">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" '
        'markerHeight="8" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
    ]
    for a, b in hasse_edges(order):
        (xa, ya), (xb, yb) = where[a], where[b]
        out.append(
            f'<line x1="{xa + box_w / 2:.1f}" y1="{ya + BOX_H:.1f}" '
            f'x2="{xb + box_w / 2:.1f}" y2="{yb:.1f}" stroke="black" '
            f'marker-end="url(#arrow)"/>'
        )
    for i, (x, y) in sorted(where.items()):
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{box_w}" height="{BOX_H}" rx="6" '
            f'fill="#e8f0fe" stroke="#3367d6"/>'
        )
        out.append(
            f'<text x="{x + box_w / 2:.1f}" y="{y + BOX_H / 2 + 4:.1f}" '
            f'text-anchor="middle">{escape(labels[i])}</text>'
        )
    return "\n".join([*out, "</svg>"]) + "\n"


def walkthrough_text(universe: Universe, play: Playthrough) -> str:
    """One solution step by step: each node completed and the events that complete it."""
    lines = []
    for k, step in enumerate(play.steps, 1):
        thing = universe.things[universe.nodes[step.node].thing].name
        events = ", ".join(f"{e} -> {s}" for e, s in step.events) or "already there"
        lines.append(f"{k}. {universe.label(step.node)}  ({thing}: {events})")
    lines.append("puzzle complete" if play.ok else f"stuck: {play.problem}")
    return "\n".join(lines) + "\n"
