"""`kind: witness`: line puzzles of The Witness; panels, exhaustive layouts, joint sets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...spec.document import Document
from .load import check_despite, load_witness_spec
from .model import WitnessSpec

if TYPE_CHECKING:  # the kernels are imported only when a spec is compiled
    from .problem import WitnessProblem


class WitnessDomain:
    kind = "witness"
    schema = "witness.schema.json"
    summary = "The Witness line puzzles: solve panels, count layouts, find joint panels"
    formats = ()
    supports: ClassVar[dict[str, frozenset[str]]] = {
        "build": frozenset(
            {"--shard", "--resume", "--fresh", "--time-limit", "--threads", "--scheduler"}
            | {"--force"}
        ),
        "count": frozenset({"--constrained", "--time-limit", "--threads", "--scheduler"}),
        "sample": frozenset({"--rank", "-n", "--distinct", "--seed"}),
    }
    options = ()

    def load(self, doc: Document, params: dict[str, Any]) -> WitnessSpec:
        return load_witness_spec(doc, params)

    def check_despite(self, doc: Document, params: dict[str, Any], broken: set) -> list:
        """The semantic problems its schema violations (at `broken`) leave checkable."""
        return check_despite(doc, params, broken)

    def compile(self, spec: WitnessSpec, options: dict[str, Any] | None = None) -> WitnessProblem:
        from .problem import WitnessProblem

        return WitnessProblem(spec)


DOMAIN = WitnessDomain()
