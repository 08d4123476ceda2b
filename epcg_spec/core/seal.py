"""Seals: the SHA-256 of a JSON record's fields, kept beside them, so that a record edited
by hand, cut short or copied from another one is found before it is trusted."""

from __future__ import annotations

import hashlib
import json
from typing import Any

SEAL = "seal"  # the field that holds it


def seal(body: dict[str, Any]) -> str:
    """The checksum of `body`'s fields, whatever their order."""
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def sealed(body: dict[str, Any]) -> dict[str, Any]:
    """`body` with its seal."""
    return {**body, SEAL: seal(body)}


def unsealed(record: Any) -> dict[str, Any] | None:
    """`record` less its seal, if it is an object whose seal is there and matches; None if
    not (a damaged file may hold any JSON)."""
    if not isinstance(record, dict):
        return None
    body = {k: v for k, v in record.items() if k != SEAL}
    return body if record.get(SEAL) == seal(body) else None
