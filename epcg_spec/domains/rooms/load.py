"""A schema-valid `kind: rooms` document to a RoomsSpec, with located errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ...core.errors import Diagnostic, SpecError
from ...spec.document import Document
from .model import Room, RoomsSpec, SearchOptions
from .tree import given_tree, nested_tree, size_of

T = TypeVar("T")
MAX_PLACEMENTS = 1 << 22
"""Most entries (sizes x 5 sides x cells) of the table of placements, made before any
estimate (8 bytes an entry, 32 a placement: `explain` then peaks near 350 MiB)."""


def load_rooms_spec(doc: Document, params: dict[str, Any]) -> RoomsSpec:
    data = doc.data
    problems: list[Diagnostic] = []  # the tree, the rock and the sizes are checked apart
    rooms = _checked(problems, _tree, doc)
    width, height = data["map"]["width"], data["map"]["height"]
    blocked = _checked(problems, _blocked, doc, width, height)
    search = data.get("search") or {}
    spec = RoomsSpec(
        name=data.get("name") or Path(doc.source).stem,
        width=width,
        height=height,
        rooms=rooms or (),
        margin=data.get("margin", 1),
        corridor=data.get("corridor", 0),
        rotate=data.get("rotate", False),
        blocked=blocked or (),
        search=SearchOptions(
            strategy=search.get("strategy", "stack"),
            attempts=search.get("attempts", SearchOptions.attempts),
            order=search.get("order", "tree"),
            undos=search.get("undos"),
        ),
        limit=data.get("limit", 0),
        description=data.get("description", ""),
    )
    problems += _too_large(doc, spec, rooms)
    if not problems:
        problems += _too_many_shapes(doc, spec)
    if problems:
        raise SpecError(sorted(problems, key=lambda d: d.pos))
    return spec


def _checked(problems: list[Diagnostic], check: Callable[..., T], *args: Any) -> T | None:
    """What `check(*args)` gives, or None with its problems added to `problems`."""
    try:
        return check(*args)
    except SpecError as exc:
        problems += exc.diagnostics
        return None


def _tree(doc: Document) -> tuple[Room, ...]:
    """The rooms, from the spec's list or from a nested spec."""
    if ("rooms" in doc.data) == ("tree" in doc.data):
        raise SpecError(
            doc.diag(
                ("tree",) if "tree" in doc.data else (),
                "give the tree of rooms once: 'rooms' (a list) or 'tree' (from a nested spec)",
            )
        )
    return given_tree(doc) if "rooms" in doc.data else nested_tree(doc)


def _too_large(doc: Document, spec: RoomsSpec, rooms: tuple[Room, ...] | None) -> list[Diagnostic]:
    """A room the map cannot hold, turned or not: each room of the spec's list (its size
    is known whatever its parent), or of the tree made from a nested spec."""
    if "rooms" in doc.data and "tree" not in doc.data:
        sized = [
            (("rooms", i, "size"), Room(entry["name"], *size_of(entry.get("size")), -1))
            for i, entry in enumerate(doc.data["rooms"])
        ]
    else:
        sized = [(("tree",), room) for room in rooms or ()]
    return [
        doc.diag(
            path,
            f"room {room.name!r} ({room.width} x {room.height}) is larger than the "
            f"{spec.width} x {spec.height} map",
            "enlarge 'map' or shrink the room",
        )
        for path, room in sized
        if not spec.shapes(room)
    ]


def _too_many_shapes(doc: Document, spec: RoomsSpec) -> list[Diagnostic]:
    """The table of every placement (each room size, turned or not, at each cell, by each
    side of its parent) is made before any estimate: refused past MAX_PLACEMENTS entries."""
    shapes = len({s for room in spec.rooms for s in spec.shapes(room)})
    entries = shapes * 5 * spec.width * spec.height
    if entries <= MAX_PLACEMENTS:
        return []
    most = MAX_PLACEMENTS // (5 * spec.width * spec.height)
    return [
        doc.diag(
            ("rooms",) if "rooms" in doc.data else ("tree",),
            f"the rooms come in {shapes:,} sizes (turns included): their placements on the "
            f"{spec.width} x {spec.height} map ({entries:,}) pass the {MAX_PLACEMENTS:,} "
            "tabled before a build",
            f"give the rooms at most {most:,} sizes, or a smaller map",
        )
    ]


def _blocked(doc: Document, width: int, height: int) -> tuple[tuple[int, int], ...]:
    """The rock cells of `map.blocked`: '#' rock, '.' free, one string per row."""
    rows = doc.data["map"].get("blocked")
    if rows is None:
        return ()
    problems = []
    if len(rows) != height:
        problems.append(doc.diag(("map", "blocked"), f"{len(rows)} rows; the map is {height} high"))
    for y, row in enumerate(rows):
        if len(row) != width:
            problems.append(
                doc.diag(("map", "blocked", y), f"{len(row)} cells; the map is {width} wide")
            )
        for x, char in enumerate(row):
            if char not in "#.":
                problems.append(
                    Diagnostic(
                        doc.text_pos(("map", "blocked", y), x),
                        f"{char!r} is not a map cell",
                        "'#' rock, '.' free",
                    )
                )
    if problems:
        raise SpecError(problems)
    return tuple((x, y) for y, row in enumerate(rows) for x, char in enumerate(row) if char == "#")
