"""The typed form of a `kind: space` spec."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...spaces import RankedSpace
from ...spec.document import Document
from ...spec.document import Path as DocPath
from ...spec.expr.analysis import Analyzer, DistinctFamily, TermFamily
from ...spec.expr.ast import Expr
from ...spec.expr.check import ArraySymbol, Symbol


@dataclass(frozen=True)
class UserFunction:
    """A Python function named by `module:function`, compiled by numba on the state array."""

    module: str
    function: str
    folder: Path


@dataclass(frozen=True)
class Condition:
    """A constraint, or the objective: an expression, or a user function."""

    name: str
    path: DocPath
    text: str | None = None
    expr: Expr | None = None
    user: UserFunction | None = None


@dataclass
class Pruning:
    """How the constraints split into terms checked on prefixes (see expr/analysis.py)."""

    terms: list[TermFamily] = field(default_factory=list)
    distincts: list[DistinctFamily] = field(default_factory=list)
    usable: list[str] = field(default_factory=list)  # one line per constraint, in order


@dataclass
class SpaceSpec:
    document: Document
    name: str
    description: str
    params: dict[str, int]
    space: RankedSpace
    arrays: list[ArraySymbol]
    symbols: dict[str, Symbol]
    constraints: list[Condition]
    objective: Condition | None
    sense: str
    prune: bool
    top: int
    analyzer: Analyzer
    pruning: Pruning
