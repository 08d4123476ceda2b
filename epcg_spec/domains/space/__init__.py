"""`kind: space`: a ranked state space, declarative constraints and an objective."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...spec.document import Document
from .load import load_space_spec
from .model import SpaceSpec
from .render import best_pictures

if TYPE_CHECKING:  # the kernels are imported only when a spec is compiled
    from .problem import SpaceProblem


class SpaceDomain:
    kind = "space"
    schema = "space.schema.json"
    summary = "a ranked state space with constraints and an objective, enumerated exhaustively"
    formats = ()
    supports: ClassVar[dict[str, frozenset[str]]] = {
        "build": frozenset(
            {"--shard", "--resume", "--fresh", "--time-limit", "--threads", "--no-prune"}
            | {"--force", "--allow-python", "--scheduler", "--device"}
        ),
        "count": frozenset(
            {"--constrained", "--time-limit", "--threads", "--no-prune", "--allow-python"}
            | {"--scheduler", "--device"}
        ),
        "sample": frozenset({"--rank", "-n", "--distinct", "--seed"}),
    }
    options = ()

    def load(self, doc: Document, params: dict[str, Any]) -> SpaceSpec:
        return load_space_spec(doc, params)

    def compile(self, spec: SpaceSpec, options: dict[str, Any] | None = None) -> SpaceProblem:
        from .problem import SpaceProblem

        return SpaceProblem(spec)

    def merged_files(self, result: dict[str, Any]) -> dict[str, str]:
        """The files of a merged result: the pictures of its best states, drawn again."""
        return best_pictures(result["best"])


DOMAIN = SpaceDomain()
