"""JSON text for people: indented objects, short lists of scalars on one line."""

from __future__ import annotations

import json
from typing import Any

INLINE_WIDTH = 100
_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(v, ensure_ascii=False)


def dumps(value: Any, indent: int = 0) -> str:
    """Like json.dumps(indent=2), but lists of scalars that fit stay on one line."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [
            f"{inner}{_encode(k)}: "
            + (dumps(v, indent + 1) if isinstance(v, dict | list) else _encode(v))
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value):
            flat = _encode(value)
            if len(flat) + len(inner) <= INLINE_WIDTH:
                return flat
        if not value:
            return "[]"
        items = [
            inner + (dumps(v, indent + 1) if isinstance(v, dict | list) else _encode(v))
            for v in value
        ]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return _encode(value)
