"""A schema-valid `kind: witness` document to a WitnessSpec, with every semantic check."""

from __future__ import annotations

from math import comb
from pathlib import Path
from typing import Any

from ...core.errors import Diagnostic, SpecError, did_you_mean
from ...spec.document import Document
from ...spec.document import Path as DocPath
from ...spec.params import integer_field, resolve_params
from .model import (
    CELL_KINDS,
    COLOUR_NAMES,
    MAX_SIDE,
    SLOT_KINDS,
    Grid,
    JointSpec,
    Panel,
    Placement,
    Symbol,
    WitnessSpec,
)
from .pieces import Piece, default_library, parse_rows

DEFAULT_TOP = 3
MAX_PER_BLOCK = 1 << 24  # value assignments of one choice of positions
MAX_LAYOUTS = 1 << 40
MAX_TILING_PIECES = 8  # placed and fixed pieces of a layout: the multisets that tile a region
DEFAULT_VALUES = {"square": ("white", "black"), "star": ("white", "black"), "triangle": (1, 2, 3)}


def check_despite(
    doc: Document, overrides: dict[str, Any], broken: set[DocPath]
) -> list[Diagnostic]:
    """The semantic problems of the parts of `doc` that its schema violations (at `broken`)
    leave sound, so that both are reported in one run; none where a violation makes the
    other checks meaningless (see `_separate`)."""
    if not all(map(_separate, broken)):
        return []
    try:
        load_witness_spec(doc, overrides, frozenset(broken))
    except SpecError as exc:
        return list(exc.diagnostics)
    return []


def _separate(path: DocPath) -> bool:
    """Whether a schema violation at `path` leaves the rest of the spec checkable: one
    symbol, one placement, the joint sets, the search, the objective, the name, a key the
    schema does not know; not the panel's size, start or goal, the pieces or the params,
    which the other checks read."""
    if not path or path[0] in ("kind", "pieces", "params"):
        return False
    return path[0] != "panel" or (len(path) > 1 and path[1] not in ("size", "start", "goal"))


def load_witness_spec(
    doc: Document, overrides: dict[str, Any], broken: frozenset[DocPath] = frozenset()
) -> WitnessSpec:
    """The typed spec, or SpecError with every semantic problem found; the parts at or
    under a `broken` path (schema violations: see check_despite) are left unchecked."""
    data = doc.data
    params = resolve_params(doc, overrides)
    problems: list[Diagnostic] = []
    grid = _grid(doc, params)
    pieces = _pieces(doc, problems)
    symbols = _symbols(doc, grid, pieces, params, problems, broken)
    placements = [
        p
        for i, item in _sound_items(doc, ("layout",), broken)
        if (p := _placement(doc, ("layout", i), item, grid, pieces, params, problems))
    ]
    has_layout = "layout" in data
    joint = None if _touches(("joint",), broken) else _joint(doc, params, has_layout, problems)
    search = _sound_keys(doc, ("search",), broken)
    sound = not (problems or _touches(("layout",), broken) or _touches(("panel",), broken))
    if placements and sound:  # every symbol and placement: how many layouts, pieces
        problems += _check_size(doc, grid, placements) + _check_pieces(doc, placements, symbols)
    if (joint is not None or "joint" not in data) and not _touches(("objective",), broken):
        problems += _check_backend(doc, search, joint)
        problems += _check_applies(doc, search, has_layout, joint)
    if problems:
        raise SpecError(sorted(problems, key=lambda d: (d.pos.line, d.pos.col)))
    return WitnessSpec(
        document=doc,
        name=data.get("name") or Path(doc.source).stem,
        description=data.get("description", ""),
        grid=grid,
        panel=Panel(grid, tuple(symbols)),
        pieces=pieces,
        placements=placements,
        joint=joint,
        objective="most" if data.get("objective") == "most-solutions" else "fewest",
        top=search.get("top", DEFAULT_TOP),
        limit=search.get("limit", 0),
    )


def _touches(path: DocPath, broken: frozenset[DocPath]) -> bool:
    """Whether a broken path is at, under or above `path`."""
    return _within_broken(path, broken) or any(b[: len(path)] == path for b in broken)


def _within_broken(path: DocPath, broken: frozenset[DocPath]) -> bool:
    """Whether a broken path is at or above `path`."""
    return any(path[: len(b)] == b for b in broken)


def _sound_items(doc: Document, path: DocPath, broken: frozenset[DocPath]) -> list:
    """(index, item) of the list at `path`, but those a broken path touches (none if the
    list itself is broken)."""
    if _within_broken(path, broken):
        return []
    return [(i, x) for i, x in enumerate(doc.get(path) or []) if not _touches((*path, i), broken)]


def _sound_keys(doc: Document, path: DocPath, broken: frozenset[DocPath]) -> dict:
    """The mapping at `path` without the keys a broken path touches (empty if it is
    itself broken)."""
    node = doc.get(path) or {}
    if _within_broken(path, broken) or not isinstance(node, dict):
        return {}
    return {k: v for k, v in node.items() if not _touches((*path, k), broken)}


def _grid(doc: Document, params: dict[str, int]) -> Grid:
    size = [integer_field(doc, ("panel", "size", i), params) for i in range(2)]
    for i, side in enumerate(size):
        if not 1 <= side <= MAX_SIDE:
            raise SpecError(
                doc.diag(
                    ("panel", "size", i),
                    f"a panel side must be 1..{MAX_SIDE} cells, not {side}",
                    "a region must fit a 64-bit board",
                )
            )
    width, height = size
    panel = doc.data["panel"]
    start = _vertex(doc, ("panel", "start"), params, width, height) if "start" in panel else (0, 0)
    goal = (
        _vertex(doc, ("panel", "goal"), params, width, height)
        if "goal" in panel
        else (width, height)
    )
    if start == goal:
        raise SpecError(doc.diag(("panel", "goal"), "the goal is the start vertex"))
    return Grid(width, height, start, goal)


def _vertex(doc, path: DocPath, params, width: int, height: int) -> tuple[int, int]:
    x, y = (integer_field(doc, (*path, i), params) for i in range(2))
    if not (0 <= x <= width and 0 <= y <= height):
        raise SpecError(
            doc.diag(
                path,
                f"vertex [{x}, {y}] is off the panel",
                f"vertices are [x, y] with 0 <= x <= {width}, 0 <= y <= {height}",
            )
        )
    return x, y


def _pieces(doc: Document, problems: list[Diagnostic]) -> tuple[Piece, ...]:
    drawn = doc.data.get("pieces")
    if drawn is None:
        return default_library()
    pieces: list[Piece] = []
    for name, rows in drawn.items():
        cells = parse_rows(rows)
        if isinstance(cells, str):
            problems.append(doc.diag(("pieces", name), f"piece {name!r}: {cells}"))
            continue
        twin = next((p for p in pieces if p.cells == cells), None)
        if twin is not None:
            problems.append(
                doc.diag(
                    ("pieces", name),
                    f"piece {name!r} has the same shape as {twin.name!r}",
                    "keep one of them",
                    key=True,
                )
            )
            continue
        pieces.append(Piece(name, cells))
    return tuple(pieces)


def _symbols(doc, grid: Grid, pieces, params, problems, broken) -> list[Symbol]:
    symbols: list[Symbol] = []
    taken: dict[tuple[bool, int], tuple[DocPath, str]] = {}
    for i, item in _sound_items(doc, ("panel", "constraints"), broken):
        path = ("panel", "constraints", i)
        try:
            symbol = _symbol(doc, path, item, grid, pieces, params)
        except SpecError as exc:
            problems.extend(exc.diagnostics)
            continue
        key = (symbol.kind in SLOT_KINDS, symbol.at)
        if key in taken:
            problems.append(_clash(doc, grid, path, symbol, *taken[key]))
            continue
        taken[key] = (path, symbol.kind)
        symbols.append(symbol)
    return symbols


def _clash(doc, grid: Grid, path: DocPath, symbol: Symbol, first: DocPath, kind: str) -> Diagnostic:
    """The symbol at `path` placed where the `kind` symbol at `first` already is."""
    at = doc.pos(first)
    if symbol.kind in CELL_KINDS:
        return doc.diag(path, f"this cell already holds a symbol (at {at.line}:{at.col})")
    ends = [list(v) for v in grid.slot_ends(symbol.at)]
    where = f"vertex {ends[0]}" if len(ends) == 1 else f"edge {ends}"
    if kind == symbol.kind:
        return doc.diag(path, f"{where} is {kind} twice (first at {at.line}:{at.col})", "drop one")
    return doc.diag(
        path,
        f"{where} is both {kind} (at {at.line}:{at.col}) and {symbol.kind} (here)",
        "the line cannot both use it and avoid it: drop one",
    )


def _symbol(doc, path, item: dict, grid: Grid, pieces, params) -> Symbol:
    kinds = [k for k in item if k != "at"]
    if len(kinds) != 1:
        raise SpecError(
            doc.diag(
                path,
                "a symbol is one of " + ", ".join(SLOT_KINDS + CELL_KINDS),
                "e.g. {piece: L3-sw, at: [0, 2]} or {must_cross: [1, 2]}",
            )
        )
    kind = kinds[0]
    if kind in SLOT_KINDS:
        if "at" in item:
            raise SpecError(
                doc.diag(
                    (*path, "at"),
                    f"a {kind} symbol is placed by its own value",
                    f"write {{{kind}: [x, y]}} for a vertex or {{{kind}: [[x1, y1], [x2, y2]]}} "
                    "for an edge",
                    key=True,
                )
            )
        return Symbol(kind, _slot(doc, (*path, kind), grid, params))
    if "at" not in item:
        raise SpecError(doc.diag(path, f"a {kind} needs its cell", "add at: [x, y]"))
    x, y = (integer_field(doc, (*path, "at", k), params) for k in range(2))
    if not (0 <= x < grid.width and 0 <= y < grid.height):
        raise SpecError(
            doc.diag(
                (*path, "at"),
                f"cell [{x}, {y}] is off the panel",
                f"cells are [x, y] with 0 <= x < {grid.width}, 0 <= y < {grid.height}",
            )
        )
    value = _value(doc, (*path, kind), kind, item[kind], pieces)
    return Symbol(kind, grid.cell(x, y), value)


def _slot(doc, path: DocPath, grid: Grid, params) -> int:
    node = doc.get(path)
    if isinstance(node[0], list):
        a, b = (_vertex(doc, (*path, k), params, grid.width, grid.height) for k in range(2))
        slot = grid.edge(a, b)
        if slot is None:
            raise SpecError(
                doc.diag(path, f"{list(a)} and {list(b)} are not neighbours, so not an edge")
            )
        return slot
    x, y = _vertex(doc, path, params, grid.width, grid.height)
    return grid.vertex(x, y)


def _value(doc, path: DocPath, kind: str, value: Any, pieces) -> int:
    """The index of a colour or piece name, or a triangle count."""
    if kind == "triangle":
        if not (isinstance(value, int) and 1 <= value <= 3):
            raise SpecError(doc.diag(path, f"a triangle count is 1, 2 or 3, not {value!r}"))
        return value
    names = COLOUR_NAMES if kind in ("square", "star") else tuple(p.name for p in pieces)
    what = "colour" if kind in ("square", "star") else "piece"
    if value not in names:
        hint = did_you_mean(str(value), names, f"{what}s", enclosed=True)
        raise SpecError(doc.diag(path, f"unknown {what} {value!r}", hint))
    return names.index(value)


def _placement(doc, path, item: dict, grid: Grid, pieces, params, problems) -> Placement | None:
    kind = item["place"]
    domain = item.get("within", "slots" if kind in SLOT_KINDS else "cells")
    if (domain == "cells") != (kind in CELL_KINDS):
        allowed = "cells" if kind in CELL_KINDS else "edges, vertices or slots"
        problems.append(doc.diag((*path, "within"), f"a {kind} goes on {allowed}, not on {domain}"))
        return None
    _, size = grid.domain(domain)
    count = integer_field(doc, (*path, "count"), params)
    if not 1 <= count <= size:
        problems.append(
            doc.diag(
                (*path, "count"),
                f"count must be 1..{size} (the {domain} of a {grid.width}x{grid.height} panel), "
                f"not {count}",
            )
        )
        return None
    if kind in SLOT_KINDS:
        if "values" in item:
            problems.append(doc.diag((*path, "values"), f"a {kind} symbol has no values", key=True))
            return None
        return Placement(kind, count, (0,), domain, path)
    given = item.get("values")
    if given is None:
        given = DEFAULT_VALUES.get(kind) or tuple(p.name for p in pieces)
    values: list[int] = []
    for k, value in enumerate(given):
        try:
            index = _value(doc, (*path, "values", k), kind, value, pieces)
        except SpecError as exc:
            problems.extend(exc.diagnostics)
            return None
        if index in values:
            problems.append(doc.diag((*path, "values", k), f"{value!r} is listed twice"))
            return None
        values.append(index)
    return Placement(kind, count, tuple(values), domain, path)


def _check_size(doc: Document, grid: Grid, placements: list[Placement]) -> list[Diagnostic]:
    per_block, blocks = 1, 1
    for p in placements:
        per_block *= len(p.values) ** p.count
        blocks *= comb(grid.domain(p.domain)[1], p.count)
    if per_block > MAX_PER_BLOCK or per_block * blocks > MAX_LAYOUTS:
        return [
            doc.diag(
                ("layout",),
                f"the layouts number {per_block * blocks:,} ({blocks:,} choices of positions x "
                f"{per_block:,} value assignments); at most {MAX_LAYOUTS:,} layouts and "
                f"{MAX_PER_BLOCK:,} assignments per choice of positions are enumerated",
                "place fewer symbols or allow fewer values",
            )
        ]
    return []


def _check_pieces(
    doc: Document, placements: list[Placement], symbols: list[Symbol]
) -> list[Diagnostic]:
    placed = sum(p.count for p in placements if p.kind == "piece")
    fixed = sum(1 for s in symbols if s.kind == "piece")
    if placed and placed + fixed > MAX_TILING_PIECES:
        return [
            doc.diag(
                ("layout",),
                f"a layout with {placed} placed and {fixed} fixed pieces; at most "
                f"{MAX_TILING_PIECES} pieces in all can share the regions of a layout",
                "place fewer pieces",
            )
        ]
    return []


def _check_applies(doc: Document, search: dict, has_layout: bool, joint) -> list[Diagnostic]:
    """Keys that only some modes read are refused where they would be ignored."""
    problems = []
    if "limit" in search and has_layout:
        problems.append(
            doc.diag(
                ("search", "limit"),
                "limit stops counting the solutions of a single panel",
                "layouts count every solution; remove it",
                key=True,
            )
        )
    if "objective" in doc.data and (not has_layout or joint is not None):
        problems.append(
            doc.diag(
                ("objective",),
                "objective ranks the panels of a layout search",
                "remove it (a panel alone, or joint sets, have their own order)",
                key=True,
            )
        )
    return problems


def _joint(doc, params, has_layout: bool, problems) -> JointSpec | None:
    node = doc.data.get("joint")
    if node is None:
        return None
    panels = integer_field(doc, ("joint", "panels"), params)
    if panels < 2:
        problems.append(
            doc.diag(("joint", "panels"), f"a joint set needs 2 or more panels, not {panels}")
        )
        return None
    if not has_layout:
        problems.append(
            doc.diag(
                ("joint",),
                "joint sets choose among the panels of a layout",
                "add a 'layout' (e.g. [{place: piece, count: 3}])",
                key=True,
            )
        )
        return None
    low = node.get("min_solutions", 1)
    high = node.get("max_solutions")
    if high is not None and high < low:
        problems.append(
            doc.diag(
                ("joint", "max_solutions"), f"max_solutions {high} is below min_solutions {low}"
            )
        )
        return None
    return JointSpec(panels, low, high)


def _check_backend(doc: Document, search: dict, joint: JointSpec | None) -> list[Diagnostic]:
    backend = search.get("backend")
    if backend == "branch_and_bound" and joint is None:
        return [
            doc.diag(
                ("search", "backend"),
                "branch_and_bound chooses joint sets of panels",
                "add 'joint: {panels: 3}' and a 'layout', or use exhaustive",
            )
        ]
    if backend == "exhaustive" and joint is not None:
        return [
            doc.diag(
                ("search", "backend"),
                "joint sets are found by branch_and_bound",
                "write backend: branch_and_bound, or leave it out",
            )
        ]
    return []
