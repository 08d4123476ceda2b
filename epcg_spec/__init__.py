"""epcg-spec: procedural content generation from declarative spec files."""

__version__ = "0.1.0"

# numba's cache of the package's kernels follows the sources they inline (before any kernel)
from .compile import connector as _connector  # noqa: F401
