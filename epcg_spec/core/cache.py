"""Where the tool keeps what it can make again: kernels, logs, stores."""

from __future__ import annotations

import os
from pathlib import Path

LAYERS = "retrograde"
"""The cache's folder of Fling's retrograde layers (a data store, not compiled code)."""
LINES = "witness"
"""The cache's folder of the Witness's candidate lines (a data store, not compiled code)."""
DATA_STORES = (LAYERS, LINES)


def cache_dir() -> Path:
    """Where generated modules (and numba's cache of them) live."""
    root = os.environ.get("EPCG_CACHE_DIR")
    if root:
        return Path(root)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "epcg-spec"
