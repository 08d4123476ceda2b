"""What Tracery's program nodes do to a state: rule stacks, pushes being built, used rules.

A state is an immutable value. Each symbol has a stack of rule sets: BASE (the
grammar's own rules) or a tuple of pushed values, frozen when they were pushed.
Counting sees a state through `key`: in a tame grammar a pushed value is plain text,
so a pushed rule set counts only by its length.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache

from .compile import Compiler
from .modifiers import apply_modifiers
from .parse import TEXT, scan

BASE = None


class TState:
    """Rule stacks that differ from the start, pushes in progress, rules used (no_repeat)."""

    __slots__ = ("_key", "pending", "stacks", "used")

    def __init__(self, stacks: dict, pending: tuple, used: dict) -> None:
        self.stacks = stacks
        self.pending = pending
        self.used = used
        self._key = None


class TracerySemantics:
    """The expand back end's view of a Tracery grammar."""

    def __init__(self, compiler: Compiler, no_repeat: frozenset[str]) -> None:
        self.compiler = compiler
        self.symbols = compiler.symbols
        self.compat = compiler.compat
        self.no_repeat = no_repeat
        self.needs_text = not compiler.tame
        self._base_options: dict[tuple[str, int], list[tuple[int, int]]] = {}
        self._value_options: dict[tuple[str, int], list[tuple[int, int]]] = {}
        self._ids: dict[Hashable, int] = {}
        self._derived: dict[tuple, int] = {}
        self.shown = lru_cache(maxsize=1 << 16)(self._expand_plain)

    def start(self) -> TState:
        return TState({}, (), {})

    def stack(self, state: TState, symbol: str) -> tuple:
        found = state.stacks.get(symbol)
        if found is not None:
            return found
        return (BASE,) if symbol in self.symbols else ()

    def key(self, state: TState) -> int:
        """A small integer naming the state's class (structures interned once)."""
        if state._key is None:
            state._key = self._ids.setdefault(self._structure(state), len(self._ids))
        return state._key

    def _after(self, parent: TState, signature: tuple, child: TState) -> TState:
        """`child`, its class remembered from its parent's and the change (tame grammars)."""
        if not self.needs_text:
            memo = (self.key(parent), signature)
            found = self._derived.get(memo)
            if found is None:
                found = self._derived[memo] = self.key(child)
            child._key = found
        return child

    def _structure(self, state: TState) -> Hashable:
        """What counting may see of a state: texts only where they may matter."""
        if self.needs_text:
            stacks = tuple(sorted(state.stacks.items()))
            pending = state.pending
        else:
            stacks = tuple(
                sorted(
                    (s, tuple(r if r is BASE else len(r) for r in stack))
                    for s, stack in state.stacks.items()
                )
            )
            pending = tuple(len(p) for p in state.pending)
        return stacks, pending, tuple(sorted(state.used.items()))

    # ---- choices ----

    def options(self, symbol: str, state: TState) -> list[tuple[int, int]]:
        program, compiler = self.compiler.program, self.compiler
        stack = self.stack(state, symbol)
        if not stack:
            return [(program.emit(("text", f"(({symbol}))")), 1)]
        top = stack[-1]
        if top is BASE:
            return self._base(symbol, state.used.get(symbol, 0))
        if self.needs_text:
            return [(compiler.rule(value), 1) for value in top]
        found = self._value_options.get((symbol, len(top)))
        if found is None:
            found = [(program.emit(("value", symbol, j)), 1) for j in range(len(top))]
            self._value_options[(symbol, len(top))] = found
        return found

    def _base(self, symbol: str, used: int) -> list[tuple[int, int]]:
        found = self._base_options.get((symbol, used))
        if found is None:
            program, rules = self.compiler.program, self.symbols[symbol]
            if symbol in self.no_repeat:
                found = [
                    (
                        program.seq(
                            [program.effect(("mark", symbol, i)), self.compiler.rule(r.text)]
                        ),
                        r.weight,
                    )
                    for i, r in enumerate(rules)
                    if not used >> i & 1
                ]
            else:
                found = [(self.compiler.rule(r.text), r.weight) for r in rules]
            self._base_options[(symbol, used)] = found
        return found

    # ---- state changes ----

    def effect(self, op: tuple, state: TState) -> TState:
        name = op[0]
        if name == "begin":
            return self._after(state, op, TState(state.stacks, (*state.pending, ()), state.used))
        if name == "push":
            values, pending = state.pending[-1], state.pending[:-1]
            stacks = {**state.stacks, op[1]: (*self.stack(state, op[1]), values)}
            return self._after(state, (op, len(values)), TState(stacks, pending, state.used))
        if name == "pop":
            stack = self.stack(state, op[1])
            if not stack:
                return state
            child = TState({**state.stacks, op[1]: stack[:-1]}, state.pending, state.used)
            return self._after(state, op, child)
        symbol, index = op[1], op[2]
        used = state.used.get(symbol, 0) | 1 << index
        if used == (1 << len(self.symbols[symbol])) - 1:
            used = 0
        return self._after(
            state, op, TState(state.stacks, state.pending, {**state.used, symbol: used})
        )

    def capture(self, op: tuple, state: TState, text: str) -> TState:
        if op[0] == "discard":
            return state
        pending = (*state.pending[:-1], (*state.pending[-1], text))
        return self._after(state, op, TState(state.stacks, pending, state.used))

    # ---- text ----

    def wrap(self, op: tuple, text: str) -> str:
        return apply_modifiers(text, op[1], self.compat)

    def emit(self, payload: tuple, state: TState) -> str:
        if payload[0] == "text":
            return payload[1]
        return self.shown(self.stack(state, payload[1])[-1][payload[2]])

    def _expand_plain(self, value: str) -> str:
        """What a pushed plain value shows when chosen: its text read back as a rule."""
        sections, _ = scan(value, self.compat)
        return "".join(s.raw for s in sections if s.kind == TEXT)
