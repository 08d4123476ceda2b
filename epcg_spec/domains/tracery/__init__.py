"""`kind: tracery`: Tracery text grammars whose derivations are counted, ranked and sampled."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...compile.options import OPTIONS
from ...spec.document import Document
from .formats import TRACERY_JSON
from .load import load_tracery_spec
from .model import TracerySpec

if TYPE_CHECKING:  # the kernels are imported only when a spec is compiled
    from .problem import TraceryProblem


class TraceryDomain:
    kind = "tracery"
    schema = "tracery.schema.json"
    summary = "Tracery text grammars: exact counts, ranks and uniform samples of derivations"
    formats = (TRACERY_JSON,)
    supports: ClassVar[dict[str, frozenset[str]]] = {
        "build": frozenset(
            {"--seed", "--shard", "--resume", "--fresh", "--time-limit", "--force"}
            | {"--scheduler"}
        ),
        "count": frozenset(),
        "sample": frozenset({"--rank", "-n", "--distinct", "--seed"}),
    }
    options = OPTIONS["tracery"]

    def load(self, doc: Document, params: dict[str, Any]) -> TracerySpec:
        return load_tracery_spec(doc, params)

    def compile(self, spec: TracerySpec, options: dict[str, Any] | None = None) -> TraceryProblem:
        from .problem import TraceryProblem

        return TraceryProblem(spec, (options or {}).get("origin"))


DOMAIN = TraceryDomain()
