"""The short notations for children: Orteil's (`x`, `x,3`, `x,1-4`, `x,20%`, `.x`) and ours.

Ours is one clause per kind of child, in one string:
`always arm, black_hole; possible star_system 10-30; rare wormhole 5%`.
Each function but `compact` returns a ChildRule, or raises ValueError with a message for the
user; `compact` returns every problem of its string.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ...core.errors import shortened
from .model import ChildRule

_NAME = r"[A-Za-z_][A-Za-z0-9_ ]*?"
_AMOUNT = re.compile(r"^(?P<lo>\d+)(?:-(?P<hi>\d+))?$|^(?P<pct>\d+(?:\.\d+)?)%$")
KINDS = ("always", "possible", "rare")
MAX_COUNT = 1000
"""Most children of one rule (a count or the top of a range)."""
DEFAULT_RARE = Fraction(5, 100)
MAX_AMOUNT = 24
"""Most characters of a count, a range or a chance (`1000-1000` takes 9): the numbers read
stay short (Python reads no integer of over 4,300 digits)."""


def amount(text: str, kind: str) -> tuple[int, int, Fraction]:
    """`3`, `1-4` or `20%` as (lo, hi, chance); the default when `text` is empty."""
    text = text.strip()
    if not text:
        return {
            "always": (1, 1, Fraction(1)),
            "possible": (0, 1, Fraction(1)),
            "rare": (1, 1, DEFAULT_RARE),
        }[kind]
    if len(text) > MAX_AMOUNT:
        raise ValueError(
            f"'{shortened(text, 40)}' is longer than any count (3), range (1-4) or chance (20%)"
        )
    match = _AMOUNT.match(text)
    if not match:
        raise ValueError(f"'{text}' is not a count (3), a range (1-4) or a chance (20%)")
    if match["pct"]:
        chance = Fraction(match["pct"]) / 100
        if not 0 < chance <= 1:
            raise ValueError(f"the chance {text} must be above 0% and at most 100%")
        return 1, 1, chance
    lo = int(match["lo"])
    hi = int(match["hi"]) if match["hi"] else lo
    if hi < lo:
        raise ValueError(f"the range {text} ends before it starts; write {hi}-{lo}")
    if hi > MAX_COUNT:
        raise ValueError(f"the count {text} is more than {MAX_COUNT:,} children")
    return lo, hi, Fraction(1)


def orteil(item: str) -> ChildRule | str:
    """One of Orteil's entries: a ChildRule, or the name of a type to inherit from (`.x`)."""
    if item.startswith("."):
        return item[1:]
    name, _, count = item.partition(",")
    lo, hi, chance = amount(count, "always")
    return ChildRule((name.strip(),), lo, hi, chance)


def item(text: str, kind: str) -> ChildRule:
    """`name`, `name 1-3`, `name 5%` or Orteil's `name,1-3` under always/possible/rare."""
    if "," in text:
        name, _, count = text.partition(",")
    else:
        parts = text.strip().rsplit(" ", 1)
        if len(parts) == 2 and _AMOUNT.match(parts[1]):
            name, count = parts
        else:
            name, count = text, ""
    lo, hi, chance = amount(count, kind)
    return ChildRule((name.strip(),), lo, hi, chance)


def compact(text: str) -> tuple[list[ChildRule], list[str], list[str]]:
    """Our one-string form: (children, types inherited with `inherit x`, problems); an
    entry or clause with a problem is left out, and the others are still read."""
    rules: list[ChildRule] = []
    inherited: list[str] = []
    problems: list[str] = []
    for clause in filter(None, (c.strip() for c in text.split(";"))):
        kind, _, rest = clause.partition(" ")
        if kind == "inherit":
            inherited += [n.strip() for n in rest.split(",") if n.strip()]
            continue
        if kind not in KINDS:
            problems.append(
                f"a clause starts with '{kind}'; start each with always, possible, rare or inherit"
            )
            continue
        for entry in filter(str.strip, rest.split(",")):
            try:
                rules.append(item(entry, kind))
            except ValueError as exc:
                problems.append(str(exc))
    return rules, inherited, problems
