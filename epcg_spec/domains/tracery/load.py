"""A schema-valid `kind: tracery` document (or Tracery JSON file) to a TracerySpec."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from ...core.errors import Diagnostic, SpecError, closest, did_you_mean
from ...core.files import slug, unopenable
from ...spec.document import Document
from ...spec.grammar import MAX_NESTING
from ...spec.load import read_text
from .compile import Compiler, Rule
from .formats import grammar_document, is_grammar
from .model import DEFAULT_COUNT, DEFAULT_DEPTH, DEFAULT_LIMIT, DEFAULT_ORIGIN, TracerySpec
from .modifiers import MODIFIERS
from .parse import (
    ACTION,
    MISSING_SYMBOL,
    TAG,
    action_offsets,
    name_offsets,
    read_action,
    read_tag,
    scan,
    too_deep,
    value_offsets,
)

NESTED_TOO_DEEP = (
    f"actions nested more than {MAX_NESTING} deep ('[' inside '['); a grammar never needs this"
)


def load_tracery_spec(doc: Document, params: dict[str, Any]) -> TracerySpec:
    data = doc.data
    grammar_doc = _grammar_source(doc)
    symbols, paths = _symbols(grammar_doc)
    compat = data.get("compat") == "tracery2"
    origin = _origin(doc, symbols)
    no_repeat = _no_repeat(doc, symbols)
    generate = data.get("generate") or {}
    return TracerySpec(
        name=data.get("name") or slug(Path(doc.source).stem),
        description=data.get("description", ""),
        symbols=symbols,
        origin=origin,
        compat=compat,
        no_repeat=no_repeat,
        depth=data.get("depth", DEFAULT_DEPTH),
        mode=generate.get("mode", "uniform"),
        count=generate.get("count", DEFAULT_COUNT),
        limit=generate.get("limit", DEFAULT_LIMIT),
        warnings=tuple(
            replace(problem, message=f"warning: {problem.message}")
            for problem in rule_problems(
                list(_rule_texts(doc, grammar_doc, symbols, paths)), symbols, compat
            )
        ),
    )


def _grammar_source(doc: Document) -> Document:
    """The document holding the grammar: this one, or the JSON file it names."""
    name = doc.data.get("grammar_file")
    if name is None:
        return doc
    path = Path(doc.source).parent / name
    if why := unopenable(path):
        raise SpecError(doc.diag(("grammar_file",), why, "give a path relative to the spec"))
    if not path.is_file():
        raise SpecError(
            doc.diag(
                ("grammar_file",),
                f"no such grammar file: {path}",
                "give a path relative to the spec",
            )
        )
    grammar = grammar_document(path, read_text(path))
    if not is_grammar(grammar.data["grammar"]):
        raise SpecError(
            grammar.diag(
                ("grammar",),
                "not a Tracery grammar",
                "write an object mapping each symbol to a rule or a list of rules",
            )
        )
    return grammar


def _symbols(doc: Document) -> tuple[dict[str, tuple[Rule, ...]], dict]:
    """Each symbol's rules, and the document path of each rule text."""
    symbols: dict[str, tuple[Rule, ...]] = {}
    paths: dict[tuple[str, int], tuple] = {}
    for symbol, value in doc.data["grammar"].items():
        if isinstance(value, str):
            symbols[symbol] = (Rule(value),)
            paths[(symbol, 0)] = ("grammar", symbol)
            continue
        rules = []
        for i, item in enumerate(value):
            if isinstance(item, str):
                rules.append(Rule(item))
                paths[(symbol, i)] = ("grammar", symbol, i)
            else:
                rules.append(Rule(item["rule"], item.get("weight", 1)))
                paths[(symbol, i)] = ("grammar", symbol, i, "rule")
        symbols[symbol] = tuple(rules)
    return symbols, paths


def _origin(doc: Document, symbols: dict) -> str:
    data = doc.data
    if "origin" in data and "start" in data:
        raise SpecError(
            doc.diag(("start",), "give either 'origin' (rule text) or 'start' (a symbol), not both")
        )
    if "start" in data:
        _known(doc, ("start",), data["start"], symbols)
        return f"#{data['start']}#"
    return data.get("origin", DEFAULT_ORIGIN)


def _no_repeat(doc: Document, symbols: dict) -> frozenset[str]:
    value = doc.data.get("no_repeat", False)
    if value is True:
        return frozenset(symbols)
    if value is False:
        return frozenset()
    for i, name in enumerate(value):
        _known(doc, ("no_repeat", i), name, symbols)
    return frozenset(value)


def _known(doc: Document, path: tuple, name: str, symbols: dict) -> None:
    if name not in symbols:
        hint = did_you_mean(name, list(symbols), "symbols", enclosed=True)
        raise SpecError(doc.diag(path, f"unknown symbol '{name}'", hint))


def _rule_texts(doc: Document, grammar_doc: Document, symbols: dict, paths: dict):
    """Every rule text with where it is written: the spec's `origin`, then the grammar's rules."""
    if isinstance(doc.data.get("origin"), str):
        yield doc, ("origin",), doc.data["origin"]
    for symbol, rules in symbols.items():
        for i, rule in enumerate(rules):
            yield grammar_doc, paths[(symbol, i)], rule.text


UNKNOWN_SYMBOL = "no rule defines or pushes '{0}', so it renders (({0}))"
UNKNOWN_MODIFIER = "unknown modifier '{0}', so it renders ((.{0})) after the unmodified text"


def rule_problems(texts: list, symbols: dict, compat: bool) -> list[Diagnostic]:
    """Parse problems of rule texts (document, path, text), symbols no rule defines and no
    action pushes, and modifiers Tracery has not (each most likely misspelt), located at
    their character, in file order: Tracery renders on, and `kind: tracery` warns of them.
    A SpecError for texts whose actions nest too deep to read at all."""
    deep = [
        Diagnostic(doc.text_pos(path, offset), NESTED_TOO_DEEP)
        for doc, path, text in texts
        if (offset := too_deep(text, MAX_NESTING)) is not None
    ]
    if deep:
        raise SpecError(deep)
    compiler = Compiler(symbols, compat)
    problems = [
        Diagnostic(doc.text_pos(path, offset), message)
        for doc, path, text in texts
        for offset, message in compiler.errors(text)
    ]
    uses = _Uses(compat)
    for doc, path, text in texts:
        uses.read(doc, path, text, 0)
    known = [*symbols, *uses.pushed]
    for doc, path, offset, name in _unknown_symbols(uses, symbols):
        close = closest(name, known)
        hint = f"did you mean '{close}'?" if close else ""
        problems.append(Diagnostic(doc.text_pos(path, offset), UNKNOWN_SYMBOL.format(name), hint))
    for doc, path, offset, name in _unknown_modifiers(uses):
        hint = did_you_mean(name, list(MODIFIERS), "modifiers")
        problems.append(Diagnostic(doc.text_pos(path, offset), UNKNOWN_MODIFIER.format(name), hint))
    return sorted(problems, key=lambda d: (d.pos.path, d.pos.line, d.pos.col))


def origin_problem(origin: str, symbols: dict, compat: bool) -> str | None:
    """What is wrong with `origin`, rule text given in place of the spec's (`--origin`), or
    None: its first parse problem, a symbol no rule defines and nothing it runs pushes, or a
    modifier Tracery has not, with the names there are (the closest first)."""
    compiler = Compiler(symbols, compat)
    errors = compiler.errors(origin)
    if errors:
        return errors[0][1]
    uses = _Uses(compat)
    for symbol in compiler.reach(origin):  # what the rules it runs push
        for rule in symbols.get(symbol, ()):
            uses.read(None, (), rule.text, 0)
    uses.tags.clear()
    uses.modifiers.clear()
    uses.read(None, (), origin, 0)  # and its own actions
    for *_, name in _unknown_symbols(uses, symbols):
        known = did_you_mean(name, [*symbols, *sorted(uses.pushed - set(symbols))], "symbols")
        unknown = f"'{name}' is no symbol of the grammar, nor pushed by an action it runs"
        return f"{unknown}, so it renders (({name})); {known}"
    for *_, name in _unknown_modifiers(uses):
        return (
            f"{UNKNOWN_MODIFIER.format(name)}; {did_you_mean(name, list(MODIFIERS), 'modifiers')}"
        )
    return None


def _unknown_symbols(uses: _Uses, symbols: dict) -> list[tuple[Document, tuple, int, str]]:
    """The tags among `uses` of a symbol no rule defines and no action pushes."""
    return [u for u in uses.tags if u[3] not in symbols and u[3] not in uses.pushed]


def _unknown_modifiers(uses: _Uses) -> list[tuple[Document, tuple, int, str]]:
    """The modifiers among `uses` that Tracery has not."""
    return [u for u in uses.modifiers if u[3] not in MODIFIERS]


class _Uses:
    """The symbols the tags of rule texts read and the modifiers they apply (with where),
    and the symbols their actions push, through the rules pushed."""

    def __init__(self, compat: bool) -> None:
        self.compat = compat
        self.tags: list[tuple[Document, tuple, int, str]] = []
        self.modifiers: list[tuple[Document, tuple, int, str]] = []
        self.pushed: set[str] = set()

    def read(self, doc: Document, path: tuple, text: str, offset: int) -> None:
        """Read `text`, which starts at character `offset` of the string at `path`."""
        sections, _ = scan(text, self.compat)
        for section in sections:
            at = offset + section.start
            if section.kind == ACTION:
                self._action(doc, path, section.raw, at)
            elif section.kind == TAG:
                self._tag(doc, path, section.raw, at)

    def _tag(self, doc: Document, path: tuple, raw: str, at: int) -> None:
        tag = read_tag(raw, self.compat)
        if not tag.error and tag.symbol != MISSING_SYMBOL:
            symbol_at, *modifiers_at = name_offsets(raw, self.compat)
            self.tags.append((doc, path, at + symbol_at, tag.symbol))
            for (name, _), offset in zip(tag.modifiers, modifiers_at, strict=True):
                self.modifiers.append((doc, path, at + offset, name))
        for action, offset in zip(tag.actions, action_offsets(raw, self.compat), strict=True):
            self._action(doc, path, action, at + offset)

    def _action(self, doc: Document, path: tuple, raw: str, at: int) -> None:
        action = read_action(raw, self.compat)
        if action.kind == "push":
            self.pushed.add(action.target)
            for value, offset in zip(action.values, value_offsets(action), strict=True):
                self.read(doc, path, value, at + offset)
