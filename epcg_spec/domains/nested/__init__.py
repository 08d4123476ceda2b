"""`kind: nested`: Orteil-style element dictionaries, browsed lazily and deterministically."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...compile.options import OPTIONS
from ...spec.document import Document
from .load import load_nested_spec
from .model import NestedSpec

if TYPE_CHECKING:  # the kernels are imported only when a spec is compiled
    from .problem import NestedProblem


class NestedDomain:
    kind = "nested"
    schema = "nested.schema.json"
    summary = "nested element dictionaries (universe > galaxy > ...), made lazily from (seed, path)"
    formats = ()
    supports: ClassVar[dict[str, frozenset[str]]] = {
        "build": frozenset({"--seed", "--force"}),
        "count": frozenset(),
        "sample": frozenset({"--seed"}),
    }
    options = OPTIONS["nested"]

    def load(self, doc: Document, params: dict[str, Any]) -> NestedSpec:
        return load_nested_spec(doc, params)

    def compile(self, spec: NestedSpec, options: dict[str, Any] | None = None) -> NestedProblem:
        from .problem import NestedProblem

        return NestedProblem(spec)


DOMAIN = NestedDomain()
