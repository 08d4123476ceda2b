"""A schema-valid `kind: nested` document to a NestedSpec, with every semantic check."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

from ...core.errors import Diagnostic, SpecError, did_you_mean
from ...spec.document import Document
from ..tracery.compile import Rule
from ..tracery.load import rule_problems
from . import notation
from .model import DEFAULT_DEPTH, ChildRule, ElementType, NestedSpec

MAX_CHILD_RULES = 1_000_000
"""Most child rules of all types together, inherited ones included: each type holds its own
copy of those it inherits (27 in all in specs/nested-universe.yaml; a million take 8 MB)."""


def load_nested_spec(doc: Document, params: dict[str, Any]) -> NestedSpec:
    data = doc.data
    symbols = {
        name: tuple(Rule(r) for r in (rules if isinstance(rules, list) else [rules]))
        for name, rules in (data.get("grammar") or {}).items()
    }
    problems: list[Diagnostic] = []
    own: dict[str, tuple[list[ChildRule], list[str]]] = {}
    named_at: dict[str, dict[str, tuple]] = {}
    namings: dict[str, str] = {}
    for type_name, node in data["types"].items():
        path = ("types", type_name)
        *own[type_name], named_at[type_name], wrong = _children(node)
        problems += [doc.diag((*path, *where), message) for where, message in wrong]
        namings[type_name] = _naming(type_name, node, symbols)
    _check_names(doc, own, named_at, problems)
    problems += rule_problems(list(_rule_texts(doc)), symbols, compat=False)
    if data["root"] not in own:
        problems.append(_unknown(doc, ("root",), data["root"], own))
    order, circles = _inheritance(own)
    problems += [
        doc.diag(("types", c[0]), f"inheritance goes round in a circle: {' -> '.join([*c, c[0]])}")
        for c in circles
    ]
    if problems:
        raise SpecError(sorted(problems, key=lambda d: d.pos))
    children = _flattened(doc, own, order)
    types = {name: ElementType(name, children[name], namings[name]) for name in own}
    return NestedSpec(
        name=data.get("name") or Path(doc.source).stem,
        root=data["root"],
        types=types,
        symbols=symbols,
        seed=data.get("seed", 0),
        depth=data.get("depth", DEFAULT_DEPTH),
        description=data.get("description", ""),
    )


def _children(
    node: Any,
) -> tuple[list[ChildRule], list[str], dict[str, tuple], list[tuple[tuple, str]]]:
    """A type's own children, the types it inherits from, where each type is named, and
    the problems of its entries (where inside the type, message): a wrong entry is left
    out and the others are still read."""
    if isinstance(node, str):
        rules, inherited, problems = notation.compact(node)
        return rules, inherited, {}, [((), message) for message in problems]
    rules: list[ChildRule] = []
    inherited = list(node.get("inherit") or [])
    named_at = {name: ("inherit", i) for i, name in enumerate(inherited)}
    wrong: list[tuple[tuple, str]] = []
    entries = [("children", i, e) for i, e in enumerate(node.get("children") or [])]
    entries += [(k, i, e) for k in notation.KINDS for i, e in enumerate(node.get(k) or [])]
    for kind, i, entry in entries:
        try:
            found = _entry(entry, kind)
        except ValueError as exc:
            wrong.append(((kind, i), str(exc)))
            continue
        if isinstance(found, str):
            inherited.append(found)
        else:
            rules.append(found)
        for name in [found] if isinstance(found, str) else found.types:
            named_at.setdefault(name, (kind, i))
    return rules, inherited, named_at, wrong


def _entry(entry: Any, kind: str) -> ChildRule | str:
    """One entry of `children` (Orteil's notation, or a list to pick from) or of a kind."""
    if kind == "children":
        return ChildRule(tuple(entry)) if isinstance(entry, list) else notation.orteil(entry)
    if isinstance(entry, str):
        return notation.item(entry, kind)
    lo, hi, chance = notation.amount(str(entry.get("count", "")), kind)
    if "chance" in entry:
        _, _, chance = notation.amount(str(entry["chance"]), "rare")
    elif kind == "rare" and "count" not in entry:
        chance = notation.DEFAULT_RARE
    types = tuple(entry["pick"]) if "pick" in entry else (entry["type"],)
    return ChildRule(types, lo, hi, Fraction(chance))


def _naming(type_name: str, node: Any, symbols: dict) -> str:
    """The Tracery rule text naming elements of this type; list names become symbols."""
    names = node.get("name") if isinstance(node, dict) else None
    if names is None:
        return type_name
    if isinstance(names, str):
        return names
    if all(isinstance(n, str) for n in names):
        symbols[f"__{type_name}"] = tuple(Rule(n) for n in names)
        return f"#__{type_name}#"
    parts = []
    for i, part in enumerate(names):
        symbol = f"__{type_name}_{i}"
        symbols[symbol] = tuple(Rule(n) for n in (part if isinstance(part, list) else [part]))
        parts.append(f"#{symbol}#")
    return "".join(parts)


def _rule_texts(doc: Document) -> Iterator[tuple[Document, tuple, str]]:
    """Every Tracery rule text with where it is written: the grammar's rules, then names
    (an unknown symbol or modifier renders as ((x)) in a name: an error here)."""
    for symbol, rules in (doc.data.get("grammar") or {}).items():
        if isinstance(rules, str):
            yield doc, ("grammar", symbol), rules
        else:
            yield from ((doc, ("grammar", symbol, i), rule) for i, rule in enumerate(rules))
    for type_name, node in doc.data["types"].items():
        names = node.get("name") if isinstance(node, dict) else None
        path = ("types", type_name, "name")
        if isinstance(names, str):
            yield doc, path, names
            continue
        for i, part in enumerate(names or ()):
            if isinstance(part, str):
                yield doc, (*path, i), part
            else:
                yield from ((doc, (*path, i, j), name) for j, name in enumerate(part))


def _check_names(doc: Document, own: dict, named_at: dict, problems: list[Diagnostic]) -> None:
    for type_name, (rules, inherited) in own.items():
        path = ("types", type_name)
        for name in [t for r in rules for t in r.types] + inherited:
            if name not in own:
                where = named_at[type_name].get(name, ())
                problems.append(_unknown(doc, (*path, *where), name, own))


def _unknown(doc: Document, path: tuple, name: str, known: dict) -> Diagnostic:
    hint = did_you_mean(name, list(known), "types", enclosed=True)
    return doc.diag(path, f"unknown element type '{name}'", hint)


def _inheritance(own: dict) -> tuple[list[str], list[list[str]]]:
    """The known types, each after the types it inherits from, and the circles of
    inheritance among them (one that would start from a type of a circle already found is
    left out). A loop, not recursion: a chain of types may be long."""
    order: dict[str, None] = {}  # the types whose ancestors are all done, in that order
    circles: list[list[str]] = []
    in_circle: set[str] = set()
    for start in own:
        if start in order:
            continue
        path, stack = {start: 0}, [iter(own[start][1])]  # path: type -> its place on it
        while stack:
            parent = next(stack[-1], None)
            if parent is None:
                order[path.popitem()[0]] = None
                stack.pop()
            elif parent in path:
                if parent not in in_circle:
                    circles.append(list(path)[path[parent] :])
                    in_circle.update(circles[-1])
            elif parent in own and parent not in order:
                path[parent] = len(path)
                stack.append(iter(own[parent][1]))
    return list(order), circles


def _flattened(doc: Document, own: dict, order: list[str]) -> dict[str, tuple[ChildRule, ...]]:
    """Each type's children followed by those of the types it inherits from, once their
    number is known to be bounded (a type inherited twice, at each of 40 links of a chain,
    would give 2^40)."""
    sizes: dict[str, int] = {}
    for name in order:
        rules, inherited = own[name]
        sizes[name] = len(rules) + sum(sizes[parent] for parent in inherited)
    total = sum(sizes.values())
    if total > MAX_CHILD_RULES:
        most = max(sizes, key=sizes.__getitem__)
        raise SpecError(
            doc.diag(
                ("types", most),
                f"the types have {total:,} child rules in all, counting those each inherits "
                f"('{most}' alone {sizes[most]:,}), more than {MAX_CHILD_RULES:,}",
                "inherit fewer types, or each one once (a type inherited twice, or through "
                "two others, adds its children each time)",
            )
        )
    flat: dict[str, tuple[ChildRule, ...]] = {}
    for name in order:
        rules, inherited = own[name]
        flat[name] = (*rules, *(rule for parent in inherited for rule in flat[parent]))
    return flat
