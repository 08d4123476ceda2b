"""The explicit registries: spec kind -> domain module. Adding a kind is one line here."""

from __future__ import annotations

import importlib
from functools import cache

from .options import OPTIONS
from .protocols import CliOption, Domain, Format

DOMAINS: dict[str, str] = {
    "nested": "epcg_spec.domains.nested",
    "ppg": "epcg_spec.domains.ppg",
    "space": "epcg_spec.domains.space",
    "fling": "epcg_spec.domains.fling",
    "witness": "epcg_spec.domains.witness",
    "sudoku": "epcg_spec.domains.sudoku",
    "tracery": "epcg_spec.domains.tracery",
    "wfc": "epcg_spec.domains.wfc",
    "rooms": "epcg_spec.domains.rooms",
}


def kinds() -> list[str]:
    """Every registered spec kind, sorted."""
    return sorted(DOMAINS)


@cache
def domain(kind: str) -> Domain:
    """The domain object of `kind` (its module's DOMAIN); KeyError if unknown."""
    return importlib.import_module(DOMAINS[kind]).DOMAIN


def formats() -> list[Format]:
    """Every reader of an existing file format, over all domains."""
    return [fmt for kind in kinds() for fmt in domain(kind).formats]


def cli_options() -> dict[str, tuple[CliOption, list[str]]]:
    """Every domain option by name, with the kinds that take it (no kind imported)."""
    out: dict[str, tuple[CliOption, list[str]]] = {}
    for kind in kinds():
        for option in OPTIONS.get(kind, ()):
            out.setdefault(option.name, (option, []))[1].append(kind)
    return out
