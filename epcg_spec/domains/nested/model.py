"""The typed form of a `kind: nested` spec: element types, their children and names."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..tracery.compile import Rule

DEFAULT_DEPTH = 3


@dataclass(frozen=True)
class ChildRule:
    """Children of one kind: a type (or one picked from `types`), `lo`..`hi` of them,
    present at all with probability `chance`."""

    types: tuple[str, ...]
    lo: int = 1
    hi: int = 1
    chance: Fraction = Fraction(1)

    def outcomes(self) -> int:
        """How many different child lists this rule can give."""
        present = len(self.types) * (self.hi - self.lo + 1)
        return present + (1 if self.chance < 1 else 0)


@dataclass(frozen=True)
class ElementType:
    name: str
    children: tuple[ChildRule, ...]
    naming: str
    """A Tracery rule text whose expansions are this type's names."""


@dataclass(frozen=True)
class NestedSpec:
    name: str
    root: str
    types: dict[str, ElementType]
    symbols: dict[str, tuple[Rule, ...]]
    seed: int = 0
    depth: int = DEFAULT_DEPTH
    description: str = ""
