"""JSON text for people: indented objects, short lists of scalars on one line."""

from __future__ import annotations

import json
from typing import Any

INLINE_WIDTH = 100
_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(v, ensure_ascii=False)
_NESTED = (dict, list)


def dumps(value: Any, indent: int = 0) -> str:
    """Like json.dumps(indent=2), but lists of scalars that fit stay on one line."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = "  " * (indent + 1)
        items = [
            f"{inner}{_encode(k)}: {dumps(v, indent + 1) if isinstance(v, _NESTED) else _encode(v)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = "  " * (indent + 1)
        if not any(isinstance(v, _NESTED) for v in value):
            flat = _encode(value)
            if len(flat) + len(inner) <= INLINE_WIDTH:
                return flat
            items = flat[1:-1].split(", ")  # one piece a scalar, unless a string holds ", "
            if len(items) != len(value):
                items = [_encode(v) for v in value]
            return "[\n" + inner + (",\n" + inner).join(items) + "\n" + "  " * indent + "]"
        items = [
            inner + (dumps(v, indent + 1) if isinstance(v, _NESTED) else _encode(v)) for v in value
        ]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return _encode(value)
