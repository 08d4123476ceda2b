"""epcg-spec: procedural content generation from declarative spec files.

    import epcg_spec
    result = epcg_spec.load("specs/n-queens.yaml", params={"n": 10}).build(out="out/q")

See docs/api.md for the whole API.
"""

# isort: skip_file
# numba's cache of the package's kernels follows the sources they inline, so the connector
# that registers its cache locator is imported before any module that defines a kernel
from .compile import connector as _connector  # noqa: F401
from .core.version import __version__
from .api import Result, Spec, load, loads
from .core.errors import (
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
