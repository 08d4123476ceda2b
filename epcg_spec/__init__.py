"""epcg-spec: procedural content generation from declarative spec files.

    import epcg_spec
    result = epcg_spec.load("specs/n-queens.yaml", params={"n": 10}).build(out="out/q")

See docs/api.md for the whole API.
"""

from typing import TYPE_CHECKING, Any

from .core.errors import (
    BuildError,
    Diagnostic,
    EpcgError,
    Interrupted,
    Pos,
    SpecError,
    UsageError,
)
from .core.version import __version__

if TYPE_CHECKING:
    from .api import Result, Spec, load, loads, merge


def __getattr__(name: str) -> Any:
    """The API's names, imported on first use: `epcg-spec --version`, `validate` and the
    other commands that compile nothing then start without numba."""
    if name in {"Result", "Spec", "load", "loads", "merge"}:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BuildError",
    "Diagnostic",
    "EpcgError",
    "Interrupted",
    "Pos",
    "Result",
    "Spec",
    "SpecError",
    "UsageError",
    "__version__",
    "load",
    "loads",
    "merge",
]
