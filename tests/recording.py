"""A Progress (epcg_spec.core.context) that keeps every call, for tests of what a run shows."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class RecordedProgress:
    """Every call as a tuple: ("start", label, total), ("advance", units), ("finish",),
    ("compiling", kind), ("note", line)."""

    def __init__(self):
        self.calls: list[tuple] = []

    def start(self, label: str, total: int) -> None:
        self.calls.append(("start", label, total))

    def advance(self, units: int) -> None:
        self.calls.append(("advance", units))

    def finish(self) -> None:
        self.calls.append(("finish",))

    @contextmanager
    def compiling(self, kind: str) -> Iterator[None]:
        self.calls.append(("compiling", kind))
        yield

    def note(self, line: str) -> None:
        self.calls.append(("note", line))
