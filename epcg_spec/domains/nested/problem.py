"""A compiled Nested spec: browse, write and count its lazily made element tree."""

from __future__ import annotations

import json
import time
from typing import Any

from ...compile.budget import Estimate, bounded
from ...core.context import RunContext, RunOutput
from ...core.errors import UsageError
from ...core.result import base_result
from ...core.sizes import counted
from .generate import Universe, outline
from .model import NestedSpec

# Lower bounds per element for build estimates: the tree is held whole, then written as
# outline.txt, tree.json, result.json and the gallery page. Measured (tracemalloc's peak
# over a second build, bytes written) on nameless one-letter types, the smallest elements
# there are: 10,051 in two levels 1.6 KiB and 440 bytes each, 32,767 in a chain of 14
# levels 3.5 KiB and 1.4 KiB (nested-universe.yaml --depth 7: 881 elements, 0.9 MB written).
MIN_MEMORY_PER_ELEMENT = 1_200
MIN_DISK_PER_ELEMENT = 300
MAX_ELEMENTS_PER_SECOND = 100_000


class NestedProblem:
    kind = "nested"
    backend = "expand"

    def __init__(self, spec: NestedSpec) -> None:
        self.spec = spec
        self.name = spec.name

    def space_size(self) -> None:
        return None

    def explain(self) -> list[tuple[str, str]]:
        spec = self.spec
        rows = [
            ("spec", f"{spec.name} (kind: nested)"),
            ("root", spec.root),
            ("types", str(len(spec.types))),
            ("seed", str(spec.seed)),
            ("build writes", f"the tree {spec.depth} levels below the root (or --at PATH)"),
            ("back end", "expand (names); every element made from (seed, its path)"),
        ]
        for element_type in spec.types.values():
            children = ", ".join(
                f"{'|'.join(r.types)} {r.lo}-{r.hi}"
                + (f" at {float(r.chance):.0%}" if r.chance < 1 else "")
                for r in element_type.children
            )
            rows.append((f"  {element_type.name}", children or "no children"))
        return rows

    def estimate(self, ctx: RunContext) -> Estimate:
        """The expected number of elements `build` makes (and holds, as one tree), times
        lower bounds per element."""
        at = ctx.options.get("at")
        start = Universe(self.spec, ctx.seed).at(at).type if at is not None else self.spec.root
        elements = bounded(expected_elements(self.spec, start, self._depth(ctx)))
        return Estimate(
            memory=elements * MIN_MEMORY_PER_ELEMENT,
            disk=elements * MIN_DISK_PER_ELEMENT,
            seconds=elements / MAX_ELEMENTS_PER_SECOND,
            lower_bound=True,
        )

    def _depth(self, ctx: RunContext) -> int:
        given = ctx.options.get("depth")
        return self.spec.depth if given is None else given

    def _browse(self, ctx: RunContext) -> tuple[Universe, dict[str, Any]]:
        universe = Universe(self.spec, ctx.seed)
        at = ctx.options.get("at")
        element = universe.at(at) if at is not None else universe.root()  # '': refused
        return universe, universe.tree(element, self._depth(ctx))

    def _result(self, ctx: RunContext, universe: Universe, tree: dict, began: float) -> dict:
        result = base_result(self.name, self.kind, self.backend, ctx)
        result.update(
            space_size=None,
            evaluated=universe.made,
            count=universe.made,
            best=[{"rank": None, "score": None, "state": tree}],
            path=tree["path"],
            seconds=round(time.perf_counter() - began, 3),
        )
        return result

    def run(self, ctx: RunContext) -> RunOutput:
        began = time.perf_counter()
        universe, tree = self._browse(ctx)
        lines = outline(tree)
        result = self._result(ctx, universe, tree, began)
        artifacts = {
            "outline.txt": "\n".join(lines) + "\n",
            "tree.json": json.dumps(tree, ensure_ascii=False, indent=1) + "\n",
        }
        summary = [f"{self.name}: {universe.made:,} elements from {tree['path']}", *lines]
        return RunOutput(result=result, artifacts=artifacts, summary=summary)

    def sample(self, ctx: RunContext, ranks: list[int] | None, n: int, distinct: bool) -> RunOutput:
        if ranks is not None or distinct or n != 1:
            raise UsageError(
                "nested elements are browsed with --at PATH (and --depth), not by rank"
            )
        began = time.perf_counter()
        universe, tree = self._browse(ctx)
        result = self._result(ctx, universe, tree, began)
        return RunOutput(result=result, summary=outline(tree))

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput:
        began = time.perf_counter()
        universe = Universe(self.spec, ctx.seed)
        result = base_result(self.name, self.kind, self.backend, ctx)
        per_type = {}
        levels, recursion = tree_levels(self.spec)
        shape = (
            f"unbounded (recursion through {recursion})"
            if recursion
            else f"finite, at most {counted(levels, 'level')} below the root"
        )
        summary = [f"{self.name}: the tree is {shape}; per element type:"]
        for name, element_type in self.spec.types.items():
            names = universe.names[name]
            layouts = 1
            for rule in element_type.children:
                layouts *= rule.outcomes()
            per_type[name] = {"names": names.total, "names_exact": names.finite, "layouts": layouts}
            summary.append(
                f"  {name}: {counted(names.total, 'name')}, {counted(layouts, 'child layout')}"
            )
        result.update(  # no count, finite tree or not: children are drawn (api.md: count None)
            space_size=None,
            types=per_type,
            best=[],
            seconds=round(time.perf_counter() - began, 3),
        )
        return RunOutput(result=result, summary=summary)


def tree_levels(spec: NestedSpec) -> tuple[int, str | None]:
    """How many levels the tree has below its root at most, and None; or, where a type the
    root reaches can hold itself (so the tree is unbounded), 0 and that type."""
    below = {
        name: {child for rule in kind.children for child in rule.types}
        for name, kind in spec.types.items()
    }
    reached, todo = {spec.root}, [spec.root]
    while todo:
        new = below[todo.pop()] - reached
        reached |= new
        todo.extend(new)
    levels = _levels({name: below[name] for name in reached})
    if spec.root in levels:
        return levels[spec.root], None
    seen, name = set(), spec.root  # every type left leads to a circle: follow one round
    while name not in seen:
        seen.add(name)
        name = min(below[name] - levels.keys())
    return 0, name


def _levels(below: dict[str, set[str]]) -> dict[str, int]:
    """How many levels lie below each type that reaches no circle, leaves first: each type
    once, when its last child is done (not a pass over every type per level: a chain of
    20,000 types took minutes)."""
    above: dict[str, list[str]] = {name: [] for name in below}
    for name, children in below.items():
        for child in children:
            above[child].append(name)
    waiting = {name: len(children) for name, children in below.items()}
    ready = [name for name, count in waiting.items() if count == 0]
    levels: dict[str, int] = {}
    while ready:
        name = ready.pop()
        levels[name] = max((levels[child] + 1 for child in below[name]), default=0)
        for parent in above[name]:
            waiting[parent] -= 1
            if waiting[parent] == 0:
                ready.append(parent)
    return levels


def expected_elements(spec: NestedSpec, start: str, depth: int) -> float:
    """The expected size of the tree `depth` levels below an element of type `start`."""
    level = {start: 1.0}
    total = 1.0
    for _ in range(depth):
        below: dict[str, float] = {}
        for type_name, count in level.items():
            for rule in spec.types[type_name].children:
                each = count * float(rule.chance) * (rule.lo + rule.hi) / 2 / len(rule.types)
                for child in rule.types:
                    below[child] = below.get(child, 0.0) + each
        level = below
        total += sum(level.values())
        if total > 1e300:
            return float("inf")
    return total
