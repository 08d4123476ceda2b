"""`kind: rooms`: a tree of rooms placed on a grid map by the guess-and-test stack."""

from __future__ import annotations

from typing import Any

from ...compile.protocols import CliOption
from ...spec.document import Document
from .load import load_rooms_spec
from .model import RoomsSpec
from .problem import RoomsProblem


class RoomsDomain:
    kind = "rooms"
    schema = "rooms.schema.json"
    summary = "a tree of rooms placed on a grid map, each next to its parent (guess-and-test stack)"
    formats = ()
    options = (
        CliOption("steps", "build: pause after this many guesses (continue with --resume)", "N"),
        CliOption("limit", "count: stop after this many solutions", "N"),
    )

    def load(self, doc: Document, params: dict[str, Any]) -> RoomsSpec:
        return load_rooms_spec(doc, params)

    def compile(self, spec: RoomsSpec) -> RoomsProblem:
        return RoomsProblem(spec)


DOMAIN = RoomsDomain()
