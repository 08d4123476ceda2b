"""The tree of rooms: given in the spec, or made from the elements of a `kind: nested` spec."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.errors import Diagnostic, SpecError, UsageError, did_you_mean
from ...core.files import unopenable
from ...spec.document import Document
from ...spec.load import check_document, load_document
from .model import Room

DEFAULT_DEPTH = 2
DEFAULT_SIZE = (2, 2)
MAX_TREE = 1000
"""Most elements a generated tree may give rooms for (far past what a map can place)."""


def size_of(node: Any, default: tuple[int, int] = (1, 1)) -> tuple[int, int]:
    """A schema-valid size (`3` or `[w, h]`) as (width, height)."""
    if node is None:
        return default
    if isinstance(node, int):
        return node, node
    return int(node[0]), int(node[1])


def given_tree(doc: Document) -> tuple[Room, ...]:
    """The spec's `rooms` list, parents first (depth-first, siblings in the spec's order)."""
    entries = doc.data["rooms"]
    problems: list[Diagnostic] = []
    index: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if entry["name"] in index:
            problems.append(
                doc.diag(
                    ("rooms", i, "name"),
                    f"a second room named {entry['name']!r}",
                    "give every room its own name",
                )
            )
        index.setdefault(entry["name"], i)
    parents = [-1] * len(entries)
    for i, entry in enumerate(entries):
        if "parent" not in entry:
            continue
        name = entry["parent"]
        if name not in index:
            problems.append(
                doc.diag(
                    ("rooms", i, "parent"),
                    f"no room is named {name!r}",
                    did_you_mean(name, list(index), "rooms", enclosed=True),
                )
            )
        elif index[name] == i:
            problems.append(doc.diag(("rooms", i, "parent"), "a room cannot be its own parent"))
        else:
            parents[i] = index[name]
    if problems:
        raise SpecError(problems)
    roots = [i for i, p in enumerate(parents) if p < 0]
    if len(roots) != 1:
        where = ("rooms", roots[1]) if roots else ("rooms",)
        names = ", ".join(entries[i]["name"] for i in roots)
        raise SpecError(
            doc.diag(
                where,
                f"the rooms form a tree with one root; found {len(roots)} ({names})"
                if roots
                else "every room has a parent, so the rooms go round in a circle",
                "give every room but one a 'parent'",
            )
        )
    order = _preorder(roots[0], parents)
    if len(order) < len(entries):
        lost = next(i for i in range(len(entries)) if i not in set(order))
        raise SpecError(
            doc.diag(
                ("rooms", lost, "parent"),
                "the parents go round in a circle here",
                "every room's parents must lead to the root",
            )
        )
    return _rooms(order, parents, [(e["name"], size_of(e.get("size")), "") for e in entries])


def nested_tree(doc: Document) -> tuple[Room, ...]:
    """Rooms from a nested spec's elements: the element at `at` and `depth` levels below it."""
    options = doc.data["tree"]
    path = Path(doc.source).parent / options["nested"]
    if why := unopenable(path):
        raise SpecError(doc.diag(("tree", "nested"), why))
    if not path.exists():
        raise SpecError(doc.diag(("tree", "nested"), f"no such file: {path}"))
    try:
        named = load_document(path)
    except UsageError as exc:
        raise SpecError(doc.diag(("tree", "nested"), str(exc))) from None
    kind = named.data.get("kind") if isinstance(named.data, dict) else None
    if kind != "nested":  # checked first: a rooms spec naming itself would load forever
        what = f"a {kind} spec" if isinstance(kind, str) else "a spec of no kind"
        raise SpecError(doc.diag(("tree", "nested"), f"{path} is {what}, not nested"))
    nested = check_document(named, {}).spec
    sizes = options.get("sizes") or {}
    unknown = [t for t in sizes if t != "default" and t not in nested.types]
    if unknown:
        raise SpecError(
            doc.diag(
                ("tree", "sizes", unknown[0]),
                f"{path.name} has no element type {unknown[0]!r}",
                f"types: {', '.join(nested.types)}, or 'default'",
            )
        )
    from ..nested.generate import Universe  # its numba kernels: only for a tree of nested's

    universe = Universe(nested, options.get("seed", nested.seed))
    try:
        element = universe.at(options["at"]) if "at" in options else universe.root()
    except UsageError as exc:
        raise SpecError(doc.diag(("tree", "at"), str(exc).removeprefix("--at "))) from None
    try:
        tree = universe.tree(element, options.get("depth", DEFAULT_DEPTH), MAX_TREE)
    except ValueError as exc:
        raise SpecError(
            doc.diag(
                ("tree", "nested"),
                f"{exc} down to depth {options.get('depth', DEFAULT_DEPTH)}, more rooms than "
                f"a map can hold",
                "lower tree.depth, or start lower with tree.at",
            )
        ) from None
    default = size_of(sizes.get("default"), DEFAULT_SIZE)
    flat: list[tuple[str, tuple[int, int], str]] = []
    parents: list[int] = []
    _flatten(tree, -1, flat, parents, {t: size_of(s) for t, s in sizes.items()}, default)
    return _rooms(list(range(len(flat))), parents, flat)


def _flatten(tree: dict, parent: int, flat: list, parents: list, sizes: dict, default) -> None:
    flat.append((tree["path"], sizes.get(tree["type"], default), tree["type"]))
    parents.append(parent)
    here = len(flat) - 1
    for child in tree.get("children", []):
        _flatten(child, here, flat, parents, sizes, default)


def _preorder(root: int, parents: list[int]) -> list[int]:
    children: dict[int, list[int]] = {}
    for i, p in enumerate(parents):
        children.setdefault(p, []).append(i)
    order, stack = [], [root]
    while stack:
        i = stack.pop()
        order.append(i)
        stack += reversed(children.get(i, []))
    return order


def _rooms(order: list[int], parents: list[int], rooms: list) -> tuple[Room, ...]:
    """Rooms listed in `order`, their parent indices renumbered to match."""
    position = {old: new for new, old in enumerate(order)}
    return tuple(
        Room(
            rooms[i][0], *rooms[i][1], position[parents[i]] if parents[i] >= 0 else -1, rooms[i][2]
        )
        for i in order
    )
