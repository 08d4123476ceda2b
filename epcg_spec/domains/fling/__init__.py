"""`kind: fling`: Fling! boards, uniquely solvable puzzles and an expert's evaluation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...compile.options import OPTIONS
from ...spec.document import Document
from .load import load_fling_spec
from .model import FlingSpec

if TYPE_CHECKING:  # the kernels are imported only when a spec is compiled
    from .problem import FlingAnalysis, FlingPuzzle


class FlingDomain:
    kind = "fling"
    schema = "fling.schema.json"
    summary = "Fling! boards: solvable and uniquely solvable counts per piece count (retrograde)"
    formats = ()
    supports: ClassVar[dict[str, frozenset[str]]] = {
        "build": frozenset({"--seed", "--threads", "--force", "--scheduler", "--device"}),
        "count": frozenset({"--constrained", "--threads", "--scheduler", "--device"}),
        "sample": frozenset({"--rank", "-n", "--distinct", "--seed"}),
    }
    options = OPTIONS["fling"]

    def load(self, doc: Document, params: dict[str, Any]) -> FlingSpec:
        return load_fling_spec(doc, params)

    def compile(
        self, spec: FlingSpec, options: dict[str, Any] | None = None
    ) -> FlingAnalysis | FlingPuzzle:
        from .problem import FlingAnalysis, FlingPuzzle

        if spec.layers is None:
            return FlingPuzzle(spec)
        return FlingAnalysis(spec, (options or {}).get("layers_dir"))


DOMAIN = FlingDomain()
