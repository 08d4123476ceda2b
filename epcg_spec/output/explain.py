"""`epcg-spec explain --json`: the explain rows as a JSON document whose numbers are numbers.

A kind's `explain()` gives rows (label, text) for people. As JSON: a row whose text is a plain
number (`6`, `1,540`, `0.5`) becomes that number; a row indented under another (a label
starting with spaces) goes into an object under it, beside the parent's own text as `value`;
`space size` is added with the problem's exact size. Integers beyond 2**53 are written as
decimal strings: JSON readers that hold numbers as doubles (JavaScript) would round them.
"""

from __future__ import annotations

import re
from typing import Any

SAFE_INTEGER = 2**53
NUMBER = re.compile(r"-?\d{1,3}(,\d{3})+|-?\d+(\.\d+)?")


def json_number(value: int | float) -> int | float | str:
    """A number for JSON: as it is, or an integer past 2**53 as its decimal string."""
    if isinstance(value, int) and abs(value) > SAFE_INTEGER:
        return str(value)
    return value


def scalar(text: str) -> int | float | str:
    """The row's text as a number where it is one, else the text."""
    if not NUMBER.fullmatch(text):
        return text
    plain = text.replace(",", "")
    return json_number(float(plain) if "." in plain else int(plain))


def explain_document(rows: list[tuple[str, str]], space_size: int | None) -> dict[str, Any]:
    """The rows of `explain()` as one JSON object (see the module docstring)."""
    out: dict[str, Any] = {}
    parent: str | None = None
    for label, text in rows:
        value = scalar(text)
        if label.startswith(" ") and parent is not None:
            node = out[parent]
            if not isinstance(node, dict):
                node = out[parent] = {"value": node}
            node[_unique(node, label.strip())] = value
        else:
            parent = _unique(out, label)
            out[parent] = value
    if space_size is not None:
        out[_unique(out, "space size")] = json_number(space_size)
    return out


def _unique(mapping: dict[str, Any], label: str) -> str:
    """`label`, or `label 2`, `label 3`... where the mapping has it already."""
    key, n = label, 1
    while key in mapping:
        n += 1
        key = f"{label} {n}"
    return key
