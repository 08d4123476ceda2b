"""One rule text of a grammar, compiled and ready to count, rank and sample."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...core.rng import SplitMix64
from ...search.expand import Derivation, Engine, Sampler
from .compile import Compiler, Rule
from .parse import unescape
from .semantics import TracerySemantics


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

    def text(self, derivation: Derivation) -> str:
        """The output of a derivation, escapes resolved."""
        return unescape(derivation.text, self.compat)

    def at(self, rank: int) -> str:
        return self.text(self.engine.unrank(rank))

    @cached_property
    def sampler(self) -> Sampler | None:
        """The fast sampler, where counting never looks at text."""
        return None if self.semantics.needs_text else Sampler(self.engine)

    def draw(self, seed: int, stream: int, ranked: bool = True) -> tuple[int | None, str]:
        """Derivation number `stream` of a uniform (weighted) draw: (rank or None, text)."""
        if self.sampler is None:
            return self.uniform(SplitMix64(seed, stream))
        derivation = self.sampler.draw(seed, stream)
        rank = self.engine.rank(derivation.choices) if ranked else None
        return rank, self.text(derivation)

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
