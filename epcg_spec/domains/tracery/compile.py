"""Tracery rule text to the expand back end's program nodes, and which texts a start reaches.

A tag becomes: its actions, a choice among the symbol's rules (modifiers wrapped around
it), then pops undoing the tag's pushes. A push `[k:v1,v2]` becomes: begin, capture v1,
capture v2, push k. A function action `[#x#]` captures its text and throws it away.
A grammar is *tame* when every text it can show is plain once pushed (all markup
escaped, modifier parameters free of markup): then pushed values count as "n plain
values" whatever their text, and counting never has to look at text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...search.expand import Program
from .modifiers import MODIFIERS
from .parse import ACTION, TAG, TEXT, Action, is_clean, read_action, read_tag, scan

MARKUP_CHARS = "#[]\\"


@dataclass(frozen=True)
class Rule:
    text: str
    weight: int = 1


@dataclass
class Compiler:
    """Builds and caches the nodes of rule texts; records what it met on the way."""

    symbols: dict[str, tuple[Rule, ...]]
    compat: bool
    program: Program = field(default_factory=Program)
    unclean: list[str] = field(default_factory=list)
    _rules: dict[str, int] = field(default_factory=dict)

    def rule(self, text: str) -> int:
        """The node expanding rule `text` (compiled once)."""
        node = self._rules.get(text)
        if node is None:
            node = self._compile(text)
            self._rules[text] = node
        return node

    def errors(self, text: str) -> list[tuple[int, str]]:
        """Parse problems of `text`, including tags with several main sections."""
        sections, problems = scan(text, self.compat)
        for section in sections:
            if section.kind == TAG:
                error = read_tag(section.raw, self.compat).error
                if error:
                    problems.append((section.start, error))
        return problems

    def _compile(self, text: str) -> int:
        program = self.program
        sections, _ = scan(text, self.compat)
        nodes = []
        for section in sections:
            if section.kind == TEXT:
                nodes.append(self.text(section.raw))
            elif section.kind == ACTION:
                nodes.append(self._action(read_action(section.raw, self.compat)))
            else:
                nodes.append(self._tag(section.raw))
        return program.seq(nodes) if nodes else program.emit(("text", ""))

    def text(self, raw: str) -> int:
        """A node showing `raw`; noted if it could turn into markup once pushed."""
        if not self._clean(raw):
            self.unclean.append(raw)
        return self.program.emit(("text", raw))

    def _clean(self, raw: str) -> bool:
        return is_clean(raw) and not (self.compat and "\\" in raw)

    def _tag(self, raw: str) -> int:
        program = self.program
        tag = read_tag(raw, self.compat)
        if tag.error:
            return self.text(f"(({raw}))")
        actions = [read_action(a, self.compat) for a in tag.actions]
        self._check_marker(f"(({tag.symbol}))")
        core = program.pick(tag.symbol)
        if tag.modifiers:
            for name, params in tag.modifiers:
                self._check_modifier(name, params)
            core = program.wrap(core, ("mods", tag.modifiers))
        undo = [program.effect(("pop", a.target)) for a in actions if a.kind == "push"]
        return program.seq([*(self._action(a) for a in actions), core, *undo])

    def _action(self, action: Action) -> int:
        program = self.program
        if action.kind == "run":
            return program.capture(self.rule(action.target), ("discard",))
        if action.kind == "pop":
            return program.effect(("pop", action.target))
        values = [program.capture(self.rule(v), ("value",)) for v in action.values]
        return program.seq(
            [program.effect(("begin",)), *values, program.effect(("push", action.target))]
        )

    def _check_marker(self, marker: str) -> None:
        if not self._clean(marker):
            self.unclean.append(marker)

    def _check_modifier(self, name: str, params: tuple[str, ...] | None) -> None:
        if name not in MODIFIERS:
            self._check_marker(f"((.{name}))")
            return
        params = params or ()
        if any(c in MARKUP_CHARS or (self.compat and c == "$") for p in params for c in p):
            self.unclean.append(f"{name}{params}")
        if name == "replace" and (len(params) < 2 or params[1] == ""):
            self.unclean.append(f"{name}{params}")

    def reach(self, origin: str) -> set[str]:
        """Compile every text `origin` can reach; return the symbols its tags name."""
        seen_symbols: set[str] = set()
        queue = [origin]
        done: set[str] = set()
        while queue:
            text = queue.pop()
            if text in done:
                continue
            done.add(text)
            self.rule(text)
            queue.extend(_nested_texts(text, self.compat))
            for symbol in _tag_symbols(text, self.compat):
                if symbol not in seen_symbols:
                    seen_symbols.add(symbol)
                    queue.extend(r.text for r in self.symbols.get(symbol, ()))
        return seen_symbols

    @property
    def tame(self) -> bool:
        """True if no reachable text can turn into markup when pushed and shown again."""
        return not self.unclean


def _tag_symbols(text: str, compat: bool) -> set[str]:
    sections, _ = scan(text, compat)
    return {read_tag(s.raw, compat).symbol for s in sections if s.kind == TAG}


def _nested_texts(text: str, compat: bool) -> list[str]:
    """The rule texts inside the actions of `text` (its own and its tags')."""
    sections, _ = scan(text, compat)
    raws = [s.raw for s in sections if s.kind == ACTION]
    for section in sections:
        if section.kind == TAG:
            raws.extend(read_tag(section.raw, compat).actions)
    out = []
    for raw in raws:
        action = read_action(raw, compat)
        if action.kind == "run":
            out.append(action.target)
        elif action.kind == "push":
            out.extend(action.values)
    return out
