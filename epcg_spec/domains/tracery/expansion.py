"""One rule text of a grammar, compiled and ready to count, rank and sample."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ...core.rng import SplitMix64
from ...search.expand import Derivation, Engine, Sampler
from .compile import Compiler, Rule
from .parse import unescape
from .semantics import TracerySemantics
from .walk_tables import Uncompiled, build_tables
from .walks import CompiledWalks

BLOCK = 256
"""Draws a picker makes in one batch."""
COMPILED_FROM = 2_000
"""Outputs from which a build draws by the compiled walks: below, compiling them on a
cold cache (seconds) or loading them (about half a second) would cost more than the
Python walks save."""


@dataclass
class Expansion:
    """The derivations of `origin` under a grammar."""

    symbols: dict[str, tuple[Rule, ...]]
    origin: str
    compat: bool = False
    no_repeat: frozenset[str] = frozenset()
    depth: int = 12

    @cached_property
    def compiler(self) -> Compiler:
        compiler = Compiler(self.symbols, self.compat)
        compiler.reach(self.origin)
        return compiler

    @cached_property
    def semantics(self) -> TracerySemantics:
        return TracerySemantics(self.compiler, self.no_repeat)

    @cached_property
    def engine(self) -> Engine:
        root = self.compiler.rule(self.origin)
        return Engine(
            self.compiler.program, self.semantics, root, self.semantics.start(), self.depth
        )

    @cached_property
    def total(self) -> int:
        """Derivations (up to the depth bound when recursive)."""
        return self.engine.total()

    @cached_property
    def weighted_total(self) -> int:
        return self.engine.total(weighted=True)

    @property
    def weighted(self) -> bool:
        return any(r.weight != 1 for rules in self.symbols.values() for r in rules)

    @property
    def finite(self) -> bool:
        """True if the depth bound cut nothing: `total` is every derivation there is."""
        self.total  # noqa: B018 - counting sets the flag
        return not self.engine.recursion.cut

    @property
    def recursive_symbols(self) -> list[str]:
        self.total  # noqa: B018 - counting records them
        return [str(site) for site in self.engine.recursion.sites]

    def text(self, derivation: Derivation | str) -> str:
        """The output of a derivation (or its raw text), escapes resolved."""
        raw = derivation if isinstance(derivation, str) else derivation.text
        return unescape(raw, self.compat)

    def at(self, rank: int) -> str:
        return self.text(self.engine.unrank(rank))

    @cached_property
    def sampler(self) -> Sampler | None:
        """The fast sampler, where counting never looks at text."""
        return None if self.semantics.needs_text else Sampler(self.engine)

    @cached_property
    def walks(self) -> CompiledWalks | None:
        """The compiled walks, where the kernels can stand in for the Python ones."""
        if self.sampler is None:
            return None
        try:
            tables = build_tables(self.engine, self.semantics, self.sampler)
        except Uncompiled:
            return None
        return CompiledWalks(tables, self.semantics, self.compiler.program)

    def draw(self, seed: int, stream: int, ranked: bool = True) -> tuple[int | None, str]:
        """Derivation number `stream` of a uniform (weighted) draw: (rank or None, text)."""
        if self.sampler is None:
            return self.uniform(SplitMix64(seed, stream))
        derivation = self.sampler.draw(seed, stream)
        rank = self.engine.rank(derivation.choices) if ranked else None
        return rank, self.text(derivation)

    def draws(
        self, seed: int, streams: Sequence[int], ranked: bool = True
    ) -> list[tuple[int | None, str]]:
        """`draw(seed, s)` for each stream s: one batch of the compiled walk where it can."""
        found = self.walks.uniform(seed, streams) if self.walks is not None else None
        if found is None:
            return [self.draw(seed, s, ranked) for s in streams]
        return [(rank if ranked else None, self.text(raw)) for rank, raw in found]

    def uniform(self, rng: SplitMix64) -> tuple[int, str]:
        """A derivation drawn uniformly by exact unranking (each rule `weight` times)."""
        if self.weighted:
            derivation = self.engine.unrank(rng.below(self.weighted_total), weighted=True)
            return self.engine.rank(derivation.choices), self.text(derivation)
        rank = rng.below(self.total)
        return rank, self.at(rank)

    def local(self, rng: SplitMix64) -> tuple[int, str]:
        """A derivation drawn as Tracery draws it, choice by choice: (rank, text)."""
        derivation = self.engine.sample_local(rng)
        return self.engine.rank(derivation.choices), self.text(derivation)

    def locals(self, seed: int, streams: Sequence[int]) -> list[tuple[int, str]]:
        """`local(SplitMix64(seed, s))` for each stream s: one compiled batch where it can."""
        found = None
        if self.walks is not None:
            states = np.array([SplitMix64(seed, s).state for s in streams], np.uint64)
            found = self.walks.tracery(states)
        if found is None:
            return [self.local(SplitMix64(seed, s)) for s in streams]
        return [(rank, self.text(raw)) for rank, raw in found]

    def picker(self, seed: int, tracery: bool, units: int) -> Callable[[int], tuple[int, str]]:
        """Output i of `units` drawn uniformly or Tracery's way: BLOCK at a time by the
        compiled walks if there are COMPILED_FROM or more, else by the Python walks."""
        one, batch = (self.local, self.locals) if tracery else (self.draw, self.draws)
        if units < COMPILED_FROM:
            return (lambda i: one(SplitMix64(seed, i))) if tracery else (lambda i: one(seed, i))
        block: dict[int, list[tuple[int, str]]] = {}

        def pick(i: int) -> tuple[int, str]:
            first = i - i % BLOCK
            if first not in block:
                block.clear()
                block[first] = batch(seed, range(first, first + BLOCK))
            return block[first][i - first]

        return pick
