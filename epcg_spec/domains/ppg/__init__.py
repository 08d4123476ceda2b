"""`kind: ppg`: procedural puzzle dependency graphs (after PPG), generated, checked, counted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...spec.document import Document
from .formats import PPG_YAML
from .load import load_ppg_spec
from .model import PpgSpec

if TYPE_CHECKING:  # the kernels are imported only when a spec is compiled
    from .problem import PpgProblem


class PpgDomain:
    kind = "ppg"
    schema = "ppg.schema.json"
    summary = "puzzle dependency graphs of objects, states and rules, checked by simulation"
    formats = (PPG_YAML,)
    supports: ClassVar[dict[str, frozenset[str]]] = {
        "build": frozenset(
            {"--seed", "--shard", "--resume", "--fresh", "--time-limit", "--force"}
            | {"--scheduler"}
        ),
        "count": frozenset({"--limit", "--time-limit"}),
    }
    options = ()
    # the build that gives its content, where `sample` is refused (see `epcg-spec kinds`)
    sample_instead = ("--seed N", "generates its puzzles afresh for each seed N")

    def load(self, doc: Document, params: dict[str, Any]) -> PpgSpec:
        return load_ppg_spec(doc, params)

    def compile(self, spec: PpgSpec, options: dict[str, Any] | None = None) -> PpgProblem:
        from .problem import PpgProblem

        return PpgProblem(spec)


DOMAIN = PpgDomain()
