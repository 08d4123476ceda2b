"""A checkpoint's state read back field by field: each value of the type its job wrote, or
NotResumable. A sealed checkpoint may still be forged (core/seal.py): a count that was
text, taken as it stood, made the run fail at its first addition."""

from __future__ import annotations

import math
import reprlib
from typing import Any


class NotResumable(Exception):
    """A checkpoint's state is not one its job saves (`restore` says why): the driver
    refuses the checkpoint in one line."""


def _refused(value: Any, what: str) -> NotResumable:
    return NotResumable(f"its state holds {reprlib.repr(value)} where {what} goes")


def count(value: Any) -> int:
    """A whole number of at least 0."""
    if type(value) is not int or value < 0:
        raise _refused(value, "a count")
    return value


def integers(value: Any) -> list[int]:
    """A list of whole numbers (a state's values)."""
    if type(value) is not list or any(type(x) is not int for x in value):
        raise _refused(value, "a list of integers")
    return value


def number(value: Any) -> float:
    """A finite number, as a float."""
    if type(value) not in (int, float) or not math.isfinite(value):
        raise _refused(value, "a number")
    return float(value)


def text(value: Any) -> str:
    if type(value) is not str:
        raise _refused(value, "text")
    return value


def rows(value: Any, width: int) -> list[list[Any]]:
    """A list of lists of `width` entries each (best lists)."""
    if type(value) is not list or any(type(r) is not list or len(r) != width for r in value):
        raise _refused(value, f"a list of {width}-entry lists")
    return value


def mapping(value: Any) -> dict[str, Any]:
    if type(value) is not dict:
        raise _refused(value, "an object")
    return value


def flag(value: Any) -> bool:
    if type(value) is not bool:
        raise _refused(value, "true or false")
    return value
