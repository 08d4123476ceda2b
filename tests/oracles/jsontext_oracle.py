"""result.json's text format spelled out plainly: the reference for output/jsontext.py."""

from __future__ import annotations

import json
from typing import Any


def pretty(value: Any, depth: int = 0) -> str:
    """Objects and arrays one member a line, indented two spaces a level; an array of
    scalars on one line where it fits in 100 columns with its members' indentation."""
    text = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or not value:
        return text
    pad = "  " * (depth + 1)
    if isinstance(value, list):
        if not any(isinstance(v, dict | list) for v in value) and len(pad) + len(text) <= 100:
            return text
        members = [pretty(v, depth + 1) for v in value]
        ends = "[]"
    else:
        members = [
            json.dumps(k, ensure_ascii=False) + ": " + pretty(v, depth + 1)
            for k, v in value.items()
        ]
        ends = "{}"
    return ends[0] + "\n" + ",\n".join(pad + m for m in members) + "\n" + "  " * depth + ends[1]
