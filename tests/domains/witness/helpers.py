"""Shared helpers of the witness tests: random panels and their oracle form."""

from __future__ import annotations

import random

from epcg_spec.domains.witness.model import CELL_KINDS, COLOUR_NAMES, Grid, Panel, Symbol
from epcg_spec.domains.witness.pieces import Piece, default_library

LIBRARY = default_library()


def oracle_panel(panel: Panel, pieces: tuple[Piece, ...] = LIBRARY) -> dict:
    """The engine's panel in the oracle's terms (vertex tuples, edge sets, shapes)."""
    grid = panel.grid
    out: dict = {
        "width": grid.width,
        "height": grid.height,
        "start": grid.start,
        "goal": grid.goal,
        "must": set(),
        "cannot": set(),
        "cells": {},
    }
    for s in panel.symbols:
        if s.kind in CELL_KINDS:
            value = s.value
            if s.kind in ("square", "star"):
                value = COLOUR_NAMES[s.value]
            elif s.kind == "piece":
                value = frozenset(pieces[s.value].cells)
            out["cells"][grid.cell_xy(s.at)] = (s.kind, value)
        else:
            ends = grid.slot_ends(s.at)
            slot = ends[0] if len(ends) == 1 else frozenset(ends)
            out["must" if s.kind == "must_cross" else "cannot"].add(slot)
    return out


def random_panel(rng: random.Random, grid: Grid, symbols: int) -> Panel:
    """A panel with up to `symbols` random symbols (small pieces, two colours)."""
    cells = rng.sample(range(grid.cells), min(symbols, grid.cells))
    chosen = []
    for c in cells:
        kind = rng.choice(("square", "star", "triangle", "piece", "piece"))
        if kind == "triangle":
            value = rng.randint(1, 3)
        elif kind == "piece":
            value = rng.randrange(12)
        else:
            value = rng.randrange(2)
        chosen.append(Symbol(kind, c, value))
    for _ in range(rng.randint(0, 2)):
        slot = rng.randrange(grid.slots)
        if all(s.at != slot or s.kind in CELL_KINDS for s in chosen):
            chosen.append(Symbol(rng.choice(("must_cross", "cannot_cross")), slot))
    return Panel(grid, tuple(chosen))
