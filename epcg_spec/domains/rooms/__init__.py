"""`kind: rooms`: a tree of rooms placed on a grid map by the guess-and-test stack."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...compile.options import OPTIONS
from ...spec.document import Document
from .load import load_rooms_spec
from .model import RoomsSpec

if TYPE_CHECKING:  # the kernels are imported only when a spec is compiled
    from .problem import RoomsProblem


class RoomsDomain:
    kind = "rooms"
    schema = "rooms.schema.json"
    summary = "a tree of rooms placed on a grid map, each next to its parent (guess-and-test stack)"
    formats = ()
    supports: ClassVar[dict[str, frozenset[str]]] = {
        "build": frozenset({"--seed", "--resume", "--fresh", "--time-limit", "--force"}),
        "count": frozenset({"--limit", "--time-limit"}),
    }
    options = OPTIONS["rooms"]
    # the build that gives its content, where `sample` is refused (see `epcg-spec kinds`)
    sample_instead = ("--seed N", "places its rooms afresh for each seed N")

    def load(self, doc: Document, params: dict[str, Any]) -> RoomsSpec:
        return load_rooms_spec(doc, params)

    def compile(self, spec: RoomsSpec, options: dict[str, Any] | None = None) -> RoomsProblem:
        from .problem import RoomsProblem

        return RoomsProblem(spec)


DOMAIN = RoomsDomain()
