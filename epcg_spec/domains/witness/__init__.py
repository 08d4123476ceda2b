"""`kind: witness`: line puzzles of The Witness; panels, exhaustive layouts, joint sets."""

from __future__ import annotations

from typing import Any

from ...spec.document import Document
from .load import load_witness_spec
from .model import WitnessSpec
from .problem import WitnessProblem


class WitnessDomain:
    kind = "witness"
    schema = "witness.schema.json"
    summary = "The Witness line puzzles: solve panels, count layouts, find joint panels"
    formats = ()
    options = ()

    def load(self, doc: Document, params: dict[str, Any]) -> WitnessSpec:
        return load_witness_spec(doc, params)

    def compile(self, spec: WitnessSpec) -> WitnessProblem:
        return WitnessProblem(spec)


DOMAIN = WitnessDomain()
