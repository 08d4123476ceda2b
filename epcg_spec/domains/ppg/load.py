"""A schema-valid `kind: ppg` document to a PpgSpec, with every semantic check located."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.errors import Diagnostic, SpecError, closest, did_you_mean, listed
from ...core.sizes import digits_value
from ...spec.document import Document
from ...spec.document import Path as DocPath
from .model import DEFAULT_LIMIT, ObjectSpec, PpgSpec, Rule, Side, Transition
from .universe import Universe, largest_universe, names


def load_ppg_spec(doc: Document, overrides: dict[str, Any]) -> PpgSpec:
    data = doc.data
    problems: list[Diagnostic] = []
    objects, broken = _objects(doc, problems)
    known = {o.name: o for o in objects}
    rules = tuple(
        Rule(item["type"], lh, rh, ("rules", i))
        for i, item in enumerate(data.get("rules") or [])
        if (lh := _side(doc, ("rules", i, "lh"), known, broken, problems))
        and (rh := _side(doc, ("rules", i, "rh"), known, broken, problems))
    )
    goal = _side(doc, ("goal",), known, broken, problems) if "goal" in data else None
    if problems:
        raise SpecError(problems)
    spec = PpgSpec(
        name=str(data.get("name") or Path(doc.source).stem),
        document=doc,
        objects=objects,
        rules=rules,
        goal=goal,
        num_nodes=data.get("num_nodes"),
        puzzles=data.get("puzzles", 1),
        density=data.get("density", 0.5),
        heuristic=data.get("heuristic", "entropy"),
        attempts=data.get("attempts", 10),
        mode=data.get("mode", "generate"),
        limit=data.get("limit", DEFAULT_LIMIT),
        symmetry=data.get("symmetry", "none"),
        description=data.get("description", ""),
    )
    _check_matches(doc, spec, problems)
    if problems:
        raise SpecError(problems)
    return spec


def _objects(doc: Document, problems: list[Diagnostic]) -> tuple[tuple[ObjectSpec, ...], set[str]]:
    """The valid objects, and the names of those already reported as wrong (so a rule naming
    one is not reported again as naming no object)."""
    out: list[ObjectSpec] = []
    broken: set[str] = set()
    for i, item in enumerate(doc.data["objects"]):
        path = ("objects", i)
        name = str(item["name"])
        if any(o.name == name for o in out):
            problems.append(
                doc.diag(
                    (*path, "name"),
                    f"two objects are named '{name}'",
                    "give each object its own name",
                )
            )
            continue
        obj = _object(doc, path, item, name, problems)
        if obj is None:
            broken.add(name)
        else:
            out.append(obj)
    return tuple(out), broken


def _object(doc: Document, path: DocPath, item: dict, name: str, problems) -> ObjectSpec | None:
    before = len(problems)
    states, initial = [], None
    for k, entry in enumerate(item["states"]):
        state = str(entry["name"] if isinstance(entry, dict) else entry)
        if state in states:
            problems.append(doc.diag((*path, "states", k), f"'{name}' has two states '{state}'"))
        states.append(state)
        if isinstance(entry, dict) and entry.get("default"):
            if initial is not None:
                problems.append(
                    doc.diag(
                        (*path, "states", k, "default"),
                        f"'{name}' has two default states",
                        "mark one initial state",
                    )
                )
            initial = state
    events: dict[str, bool] = {}
    for entry in item.get("events") or []:
        event = str(entry["name"] if isinstance(entry, dict) else entry)
        events[event] = bool(entry.get("reversible", True)) if isinstance(entry, dict) else True
    transitions = []
    for k, t in enumerate(item.get("transitions") or []):
        tpath = (*path, "transitions", k)
        event, source, target = str(t["event"]), str(t["from"]), str(t["to"])
        if item.get("events") is not None and event not in events:
            problems.append(_unknown(doc, (*tpath, "event"), "event", event, list(events), name))
        events.setdefault(event, True)
        for key, state in (("from", source), ("to", target)):
            if state not in states:
                problems.append(_unknown(doc, (*tpath, key), "state", state, states, name))
        transitions.append(Transition(event, source, target))
    copies = _copies(doc, path, item, name, problems)
    if len(problems) > before:
        return None
    return ObjectSpec(
        name,
        tuple(states),
        initial or states[0],
        tuple(events.items()),
        tuple(transitions),
        copies,
        path,
    )


def _copies(doc: Document, path: DocPath, item: dict, name: str, problems):
    numbers = [k for k in ("exact_number", "min_number", "max_number") if k in item]
    if not item.get("is_template"):
        if numbers:
            problems.append(
                doc.diag(
                    (*path, numbers[0]),
                    f"'{name}' is not a template",
                    "add 'is_template: true' or drop the number",
                )
            )
        return None
    if "exact_number" in item:
        if len(numbers) > 1:  # one of the two would be ignored without a word
            problems.append(
                doc.diag(
                    (*path, numbers[1]),
                    f"template '{name}' has exact_number and {numbers[1]}",
                    "give exact_number, or min_number and max_number, not both",
                )
            )
            return None
        return (item["exact_number"], item["exact_number"])
    if "min_number" not in item or "max_number" not in item:
        problems.append(
            doc.diag(
                path,
                f"template '{name}' needs its number of copies",
                "give exact_number, or min_number and max_number",
            )
        )
        return None
    lo, hi = item["min_number"], item["max_number"]
    if lo > hi or hi < 1:
        problems.append(
            doc.diag(
                (*path, "max_number"),
                f"template '{name}': {lo}..{hi} copies is empty",
                "max_number must be at least min_number and 1",
            )
        )
        return None
    return (lo, hi)


def _unknown(doc: Document, path: DocPath, what: str, name: str, known: list, owner: str):
    hint = did_you_mean(name, known, f"{what}s", enclosed=True)
    return doc.diag(path, f"'{owner}' has no {what} '{name}'", hint)


def _side(
    doc: Document, path: DocPath, known: dict[str, ObjectSpec], broken: set[str], problems
) -> Side | None:
    node = doc.get(path)
    name = str(node["name"])
    obj = _object_named(name, known)
    if obj is None:
        if name not in broken and name.rpartition("_T_")[0] not in broken:
            problems.append(_unknown_object(doc, (*path, "name"), name, known))
        return None
    state = None if node.get("state") is None else str(node["state"])
    if state is not None and state not in obj.states:
        problems.append(_unknown(doc, (*path, "state"), "state", state, list(obj.states), obj.name))
        return None
    return Side(name, state, path)


def _object_named(name: str, known: dict[str, ObjectSpec]) -> ObjectSpec | None:
    """The object a side's name stands for: an object, a template, or a copy `T_T_k`."""
    if name in known:
        return known[name]
    base, sep, index = name.rpartition("_T_")
    obj = known.get(base)
    copy = digits_value(index) if sep and obj is not None and obj.copies else None
    return obj if copy is not None and copy < obj.copies[1] else None


def _unknown_object(doc: Document, path: DocPath, name: str, known: dict[str, ObjectSpec]):
    close = closest(name, list(known))
    hint = f"did you mean '{close}'? " if close else ""
    return doc.diag(
        path,
        f"no object '{name}'",
        hint + f"(objects: {listed(list(known))}; a template's copies are NAME_T_0, ...)",
    )


MAX_NODES = 4096
"""Most nodes a puzzle may have: every count and estimate of its orders is made of
2^(nodes^2) and nodes^3 (a spec of thousands of templates had hundreds of thousands)."""


def _check_matches(doc: Document, spec: PpgSpec, problems: list[Diagnostic]) -> None:
    """Every rule side and the goal must name at least one node (the goal exactly one)."""
    universe = largest_universe(spec)
    if len(universe.nodes) > MAX_NODES:
        problems.append(
            doc.diag(
                ("objects",),
                f"the largest puzzle has {len(universe.nodes):,} nodes (each object, and each "
                f"copy of a template, in each state it can reach); at most {MAX_NODES:,}",
                "use fewer objects, copies or states (an order of 4,096 nodes is already "
                "3 TiB of network)",
            )
        )
        return
    if not universe.nodes:
        problems.append(
            doc.diag(
                ("objects",),
                "no object can leave its initial state",
                "add transitions: a node is an object reaching a goal state",
            )
        )
        return
    for rule in spec.rules:
        for side in (rule.lh, rule.rh):
            if not universe.matching(side):
                problems.append(
                    doc.diag(
                        side.path,
                        f"{rule.type}: '{side.text()}' matches no node",
                        _no_node(
                            universe, side, "its state must be reachable and not the initial one"
                        ),
                    )
                )
    if spec.goal is not None:
        found = universe.matching(spec.goal)
        if len(found) != 1:
            problems.append(
                doc.diag(
                    spec.goal.path,
                    f"the goal '{spec.goal.text()}' matches {len(found)} nodes",
                    _no_node(
                        universe, spec.goal, "name one object (or one copy) and one reachable state"
                    )
                    if not found
                    else "name one object (or one copy) and one reachable state",
                )
            )


def _no_node(universe: Universe, side: Side, otherwise: str) -> str:
    """Why a side naming an object matches no node: its state is where the object starts,
    or one it never reaches (with the states it does reach), else `otherwise`."""
    for thing in universe.things:
        obj = thing.spec
        if side.state is None or not names(side, thing):
            continue
        reached = ", ".join(obj.goal_states()) or "none"
        if side.state == obj.initial:
            return (
                f"'{side.state}' is where {obj.name} starts, and a node is a state it reaches: "
                f"{reached}"
            )
        if side.state in obj.states:
            return (
                f"{obj.name} never reaches '{side.state}' from '{obj.initial}'; it reaches: "
                f"{reached}"
            )
    return otherwise
