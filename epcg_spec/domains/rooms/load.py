"""A schema-valid `kind: rooms` document to a RoomsSpec, with located errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.errors import Diagnostic, SpecError
from ...spec.document import Document
from .model import RoomsSpec, SearchOptions
from .tree import given_tree, nested_tree


def load_rooms_spec(doc: Document, params: dict[str, Any]) -> RoomsSpec:
    data = doc.data
    if ("rooms" in data) == ("tree" in data):
        raise SpecError(
            doc.diag(
                ("tree",) if "tree" in data else (),
                "give the tree of rooms once: 'rooms' (a list) or 'tree' (from a nested spec)",
            )
        )
    rooms = given_tree(doc) if "rooms" in data else nested_tree(doc)
    width, height = data["map"]["width"], data["map"]["height"]
    blocked = _blocked(doc, width, height)
    search = data.get("search") or {}
    spec = RoomsSpec(
        name=data.get("name") or Path(doc.source).stem,
        width=width,
        height=height,
        rooms=rooms,
        margin=data.get("margin", 1),
        corridor=data.get("corridor", 0),
        rotate=data.get("rotate", False),
        blocked=blocked,
        search=SearchOptions(
            strategy=search.get("strategy", "stack"),
            attempts=search.get("attempts", SearchOptions.attempts),
            order=search.get("order", "tree"),
            undos=search.get("undos"),
        ),
        limit=data.get("limit", 0),
        description=data.get("description", ""),
    )
    too_large = [
        doc.diag(
            ("rooms", _spec_index(data, room.name), "size") if "rooms" in data else ("tree",),
            f"room {room.name!r} ({room.width} x {room.height}) is larger than the "
            f"{width} x {height} map",
            "enlarge 'map' or shrink the room",
        )
        for room in rooms
        if not spec.shapes(room)
    ]
    if too_large:
        raise SpecError(too_large)
    return spec


def _spec_index(data: dict, name: str) -> int:
    return next(i for i, entry in enumerate(data["rooms"]) if entry["name"] == name)


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
