"""Where the tool keeps what it can make again: kernels, logs, stores."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """Where generated modules (and numba's cache of them) live."""
    root = os.environ.get("EPCG_CACHE_DIR")
    if root:
        return Path(root)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "epcg-spec"
