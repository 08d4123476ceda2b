"""The environment in which a test's subprocess runs this checkout's package and tests."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def checkout_env(**extra: str) -> dict[str, str]:
    """os.environ with this checkout first on PYTHONPATH and `extra` set; what PYTHONPATH
    held stays after it (the dependencies may be installed there)."""
    held = os.environ.get("PYTHONPATH")
    path = os.pathsep.join([str(ROOT), held] if held else [str(ROOT)])
    return {**os.environ, "PYTHONPATH": path, **extra}
