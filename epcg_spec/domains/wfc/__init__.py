"""`kind: wfc`: Wave Function Collapse, tiled and overlapping models, with constraints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...spec.document import Document
from .formats import FORMATS
from .load import load_wfc_spec
from .model import WfcSpec

if TYPE_CHECKING:  # the kernels are imported only when a spec is compiled
    from .problem import WfcProblem


class WfcDomain:
    kind = "wfc"
    schema = "wfc.schema.json"
    summary = "tile maps and images by Wave Function Collapse (tiled and overlapping models)"
    formats = FORMATS
    supports: ClassVar[dict[str, frozenset[str]]] = {
        "build": frozenset(
            {"--seed", "--shard", "--resume", "--fresh", "--time-limit", "--force"}
            | {"--scheduler"}
        ),
        "count": frozenset({"--limit", "--time-limit"}),
    }
    options = ()
    # the build that gives its content, where `sample` is refused (see `epcg-spec kinds`)
    sample_instead = ("--seed N", "makes its outputs afresh for each seed N")

    def load(self, doc: Document, params: dict[str, Any]) -> WfcSpec:
        return load_wfc_spec(doc, params)

    def compile(self, spec: WfcSpec, options: dict[str, Any] | None = None) -> WfcProblem:
        from .problem import WfcProblem

        return WfcProblem(spec)


DOMAIN = WfcDomain()
