"""epcg-spec: procedural content generation from declarative spec files.

    import epcg_spec
    result = epcg_spec.load("specs/n-queens.yaml", params={"n": 10}).build(out="out/q")

See docs/api.md for the whole API.
"""

__version__ = "0.1.0"

# numba's cache of the package's kernels follows the sources they inline (before any kernel)
from .api import Result, Spec, load, loads
from .compile import connector as _connector  # noqa: F401
from .errors import (
    BuildError,
    Diagnostic,
    EpcgError,
    Interrupted,
    Pos,
    SpecError,
    UsageError,
)

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
]
