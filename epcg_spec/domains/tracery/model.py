"""The typed form of a `kind: tracery` spec."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.errors import Diagnostic
from .compile import Rule

DEFAULT_ORIGIN = "#origin#"
DEFAULT_DEPTH = 12
MAX_DEPTH = 64
"""The schema's largest depth bound."""
DEFAULT_COUNT = 10
DEFAULT_LIMIT = 1_000_000


@dataclass(frozen=True)
class TracerySpec:
    name: str
    symbols: dict[str, tuple[Rule, ...]]
    origin: str = DEFAULT_ORIGIN
    compat: bool = False
    no_repeat: frozenset[str] = frozenset()
    depth: int = DEFAULT_DEPTH
    mode: str = "uniform"
    count: int = DEFAULT_COUNT
    limit: int = DEFAULT_LIMIT
    description: str = ""
    warnings: tuple[Diagnostic, ...] = field(default=())
