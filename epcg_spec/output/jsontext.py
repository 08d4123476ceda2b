"""JSON text for people: indented objects, short lists of scalars on one line."""

from __future__ import annotations

import json
from typing import Any

INLINE_WIDTH = 100


def dumps(value: Any, indent: int = 0) -> str:
    """Like json.dumps(indent=2), but lists of scalars that fit stay on one line."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        flat = json.dumps(value, ensure_ascii=False)
        scalars = all(not isinstance(v, dict | list) for v in value)
        if scalars and len(flat) + len(inner) <= INLINE_WIDTH:
            return flat
        if not value:
            return "[]"
        items = [inner + dumps(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)
