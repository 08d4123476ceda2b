"""Elements made lazily and deterministically: each from (seed, its path) alone.

The element at `universe/galaxy[2]/star_system[5]` is made by drawing its name and
its children from a random stream seeded by the spec's seed and that path, so a
user can visit it without making its siblings, and gets the same answer every time.
`galaxy[2]` is the third galaxy among its parent's children (counting from 0).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...core.errors import BuildError, UsageError, listed, shortened
from ...core.rng import SplitMix64
from ...core.sizes import digits_value
from ..tracery.expansion import Expansion
from .model import ChildRule, NestedSpec

_SEGMENT = re.compile(r"^(?P<type>[^/\[\]]+?)(?:\[(?P<index>\d+)\])?$")


@dataclass(frozen=True)
class Element:
    type: str
    path: str
    name: str
    children: tuple[tuple[str, int], ...]

    def child_path(self, type_name: str, index: int) -> str:
        return f"{self.path}/{type_name}[{index}]"


class Universe:
    """The element tree of a spec under one seed; nothing is made before it is asked for."""

    def __init__(self, spec: NestedSpec, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self.made = 0

    @cached_property
    def names(self) -> dict[str, Expansion]:
        return {t.name: Expansion(self.spec.symbols, t.naming) for t in self.spec.types.values()}

    def root(self) -> Element:
        return self.make(self.spec.root, self.spec.root)

    def make(self, type_name: str, path: str) -> Element:
        """The element of type `type_name` at `path`."""
        digest = hashlib.blake2b(path.encode("utf-8"), digest_size=8).digest()
        rng = SplitMix64(self.seed, int.from_bytes(digest, "big"))
        _, name = self._names_of(type_name).uniform(rng)
        counters: dict[str, int] = {}
        children = []
        for rule in self.spec.types[type_name].children:
            for child in _draw(rule, rng):
                children.append((child, counters.get(child, 0)))
                counters[child] = counters.get(child, 0) + 1
        self.made += 1
        return Element(type_name, path, name, tuple(children))

    def _names_of(self, type_name: str) -> Expansion:
        """The names of a type; an error (located at its `name`) where there are none."""
        names = self.names[type_name]
        if not names.total:
            raise BuildError(
                f"the names of type '{type_name}' have no derivation within {names.depth} "
                "nested expansions: give each recursive symbol they use a rule that ends "
                "sooner",
                at=(("types", type_name, "name"),),
            )
        return names

    def at(self, path: str) -> Element:
        """The element a path names, e.g. `universe/galaxy[2]/star_system[5]`."""
        segments = [s for s in path.strip("/").split("/") if s]
        if not segments:
            raise UsageError(f"--at {shortened(path)!r}: give a path such as {self.spec.root}/...")
        first = _SEGMENT.match(segments[0])
        if not first or first["type"] != self.spec.root or (first["index"] or "0") != "0":
            raise UsageError(
                f"--at {shortened(path)!r}: a path starts at the root, '{self.spec.root}'"
            )
        element = self.root()
        for segment in segments[1:]:
            match = _SEGMENT.match(segment)
            wanted = (match["type"], digits_value(match["index"] or "0")) if match else None
            if wanted not in element.children:
                listing = listed([f"{t}[{i}]" for t, i in element.children])
                raise UsageError(
                    f"--at {shortened(path)!r}: {element.path} has no child "
                    f"'{shortened(segment)}' (its children: {listing})"
                )
            element = self.make(wanted[0], element.child_path(*wanted))
        return element

    def tree(self, element: Element, depth: int, limit: int | None = None) -> dict[str, Any]:
        """The element and its descendants `depth` levels down, as plain data; ValueError
        once it would hold more than `limit` elements."""
        made = 0

        def walk(element: Element, depth: int) -> dict[str, Any]:
            nonlocal made
            made += 1
            if limit is not None and made > limit:
                raise ValueError(f"the tree holds more than {limit:,} elements")
            out: dict[str, Any] = {
                "type": element.type,
                "path": element.path,
                "name": element.name,
            }
            if depth > 0:
                out["children"] = [
                    walk(self.make(t, element.child_path(t, i)), depth - 1)
                    for t, i in element.children
                ]
            else:
                out["more"] = len(element.children)
            return out

        return walk(element, depth)


def _draw(rule: ChildRule, rng: SplitMix64) -> list[str]:
    """The children one rule gives: present by chance, one type picked, lo..hi of it."""
    if rule.chance < 1 and rng.below(rule.chance.denominator) >= rule.chance.numerator:
        return []
    type_name = rule.types[rng.below(len(rule.types))] if len(rule.types) > 1 else rule.types[0]
    return [type_name] * (rule.lo + rng.below(rule.hi - rule.lo + 1))


def outline(tree: dict[str, Any], level: int = 0) -> list[str]:
    """An indented outline of a tree from Universe.tree."""
    label = tree["path"].rsplit("/", 1)[-1]
    more = f"  (+{tree['more']} more)" if tree.get("more") else ""
    lines = [f"{'  ' * level}{label}: {tree['name']}{more}"]
    for child in tree.get("children", []):
        lines += outline(child, level + 1)
    return lines
