"""A universe made concrete: template copies, the candidate nodes, and which nodes rules name.

A node is (thing, goal state): a thing is a plain object or one copy of a template
(`Lever_T_0`, `Lever_T_1`, ... as ppg-yaml names them). A rule side names an object, a
template (every copy) or one copy, with a state or without (any state).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...core.rng import numpy_stream
from .model import ObjectSpec, PpgSpec, Rule, Side


@dataclass(frozen=True)
class Thing:
    """A concrete object of one puzzle: a plain object or a template's copy."""

    name: str
    spec: ObjectSpec
    copy: int | None  # which copy of a template; None for a plain object


@dataclass(frozen=True)
class Node:
    thing: int
    state: str


@dataclass
class Universe:
    """The things and nodes of one puzzle, and the node sets every rule side matches."""

    things: list[Thing]
    nodes: list[Node]
    rules: tuple[Rule, ...]
    goal: Side | None

    def label(self, i: int) -> str:
        node = self.nodes[i]
        return f"{self.things[node.thing].name}: {node.state}"

    def matching(self, side: Side) -> list[int]:
        """Nodes whose thing the side names and whose state it allows."""
        named = self._named.get(side.name, ())
        return [i for i in named if side.state in (None, self.nodes[i].state)]

    @cached_property
    def _named(self) -> dict[str, list[int]]:
        """The nodes each name stands for (see `names`), in order: found by name, not by a
        pass over every node per rule side (thousands of each took minutes)."""
        out: dict[str, list[int]] = {}
        for i, node in enumerate(self.nodes):
            thing = self.things[node.thing]
            for name in dict.fromkeys((thing.name, thing.spec.name)):
                out.setdefault(name, []).append(i)
        return out

    def rule_sets(self) -> list[tuple[list[int], list[int]]]:
        return [(self.matching(r.lh), self.matching(r.rh)) for r in self.rules]

    def goal_node(self) -> int | None:
        if self.goal is None:
            return None
        found = self.matching(self.goal)
        return found[0] if len(found) == 1 else None

    def template_orbits(self) -> list[list[list[int]]]:
        """Per template with several copies: the node lists of its copies, state by state."""
        out = []
        copies_of: dict[str, list[int]] = {}
        for k, thing in enumerate(self.things):
            if thing.copy is not None:
                copies_of.setdefault(thing.spec.name, []).append(k)
        for copies in copies_of.values():
            if len(copies) < 2:
                continue
            spec = self.things[copies[0]].spec
            per_copy = [
                [i for i in self._named[self.things[k].name] if self.nodes[i].thing == k]
                for k in copies
            ]
            alike = len({tuple(self.nodes[i].state for i in c) for c in per_copy}) == 1
            if alike and not self._names_a_copy_of(spec):
                out.append(per_copy)
        return out

    def _names_a_copy_of(self, spec: ObjectSpec) -> bool:
        """Does a rule or the goal single out one copy of this template?"""
        sides = [s for r in self.rules for s in (r.lh, r.rh)] + [self.goal] * (
            self.goal is not None
        )
        copies = {t.name for t in self.things if t.spec is spec}
        return any(s.name in copies for s in sides)


def names(side: Side, thing: Thing) -> bool:
    """Does the side's name stand for this thing (its object, its template, or itself)?"""
    return side.name in (thing.name, thing.spec.name)


def things_of(spec: PpgSpec, copies: dict[str, int]) -> list[Thing]:
    """Every concrete object, templates expanded to `copies[name]` copies."""
    out = []
    for obj in spec.objects:
        if obj.copies is None:
            out.append(Thing(obj.name, obj, None))
        else:
            out += [Thing(f"{obj.name}_T_{k}", obj, k) for k in range(copies[obj.name])]
    return out


def candidate_nodes(things: list[Thing]) -> list[Node]:
    return [Node(k, s) for k, t in enumerate(things) for s in t.spec.goal_states()]


def largest_universe(spec: PpgSpec) -> Universe:
    """Every template at its most copies and every candidate node (for load-time checks)."""
    things = things_of(spec, {o.name: o.copies[1] for o in spec.objects if o.copies})
    return Universe(things, candidate_nodes(things), spec.rules, spec.goal)


def draws_at_random(spec: PpgSpec) -> bool:
    """Whether a puzzle's universe depends on its seed: copies drawn in a range, or fewer
    nodes drawn than there are candidates."""
    ranged = any(o.copies and o.copies[0] != o.copies[1] for o in spec.objects)
    return ranged or (
        spec.num_nodes is not None and spec.num_nodes < len(largest_universe(spec).nodes)
    )


def draw_universe(spec: PpgSpec, seed: int) -> Universe:
    """The universe of the puzzle seeded `seed`: copies drawn in their ranges, then
    `num_nodes` nodes drawn among the candidates (all of them when there are not more)."""
    rng = numpy_stream(seed)
    copies = {
        o.name: int(rng.integers(o.copies[0], o.copies[1] + 1)) for o in spec.objects if o.copies
    }
    things = things_of(spec, copies)
    universe = Universe(things, candidate_nodes(things), spec.rules, spec.goal)
    if spec.num_nodes is None or spec.num_nodes >= len(universe.nodes):
        return universe
    goal = universe.goal_node()
    others = [i for i in range(len(universe.nodes)) if i != goal]
    wanted = spec.num_nodes - (goal is not None)
    keep = [*rng.choice(others, size=wanted, replace=False), *([goal] if goal is not None else [])]
    universe.nodes = [universe.nodes[i] for i in sorted(keep)]
    return universe
