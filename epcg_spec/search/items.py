"""Item kinds as driver jobs: unit i is item i, made from the seed (seed, i) alone.

Sudoku puzzles, WFC outputs, PPG puzzles and Tracery texts are items: each one depends
only on the spec, the run's seed and its index, so a shard is a range of indices, a resumed
run makes the items it had not made yet, and both give the same items, byte for byte, as
one uninterrupted run.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import resumed
from .driver import Appended, Warmed, warming


@dataclass
class Item:
    """One item: its record in result.json, its files, and its line of the summary."""

    record: dict[str, Any]
    files: dict[str, str | bytes] = field(default_factory=dict)
    line: str = ""

    def as_state(self) -> dict[str, Any]:
        files = {
            name: {"base64": base64.b64encode(data).decode("ascii")}
            if isinstance(data, bytes)
            else {"text": data}
            for name, data in self.files.items()
        }
        return {"record": self.record, "files": files, "line": self.line}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Item:
        files = {
            resumed.text(name): base64.b64decode(resumed.text(data["base64"]), validate=True)
            if "base64" in resumed.mapping(data)
            else resumed.text(data["text"])
            for name, data in resumed.mapping(state["files"]).items()
        }
        return cls(resumed.mapping(state["record"]), files, resumed.text(state["line"]))


@dataclass
class ItemJob:
    """The driver's job for `units` items made by `make(i)`.

    The kernels compile on the first item made; `prepare` makes the run's first item, so
    that the compile time is shown and reported apart. An item that pauses (a long search)
    stops at its first pause there, its kernels compiled by then; one that does not is
    short (under one chunk of a search, or a puzzle of milliseconds). Either is made again
    in the run, under its time limit, so that an item's own time (its record's `seconds`)
    never holds the compiling.
    """

    label: str
    units: int
    make: Callable[[int], Item]
    noun: str = "items"
    most: int = 1 << 14
    fixed: int = 0
    finished: bool = False
    remote: tuple[str, dict[str, Any]] | None = None
    items: list[Item] = field(default_factory=list)

    def prepare(self, first: int) -> None:
        if first < self.units:
            try:
                with warming():
                    self.make(first)
            except Warmed:
                pass  # compiled by its first pause

    def work(self, lo: int, hi: int) -> list[Item]:
        return [self.make(i) for i in range(lo, hi)]

    def fold(self, partial: list[Item]) -> None:
        self.items.extend(partial)

    def snapshot(self) -> dict[str, Any]:
        return {"items": Appended(self.items, Item.as_state)}

    def restore(self, state: dict[str, Any]) -> None:
        self.items = [Item.from_state(s) for s in state["items"]]

    def weight(self, lo: int, hi: int) -> int:
        return hi - lo

    def files(self) -> dict[str, str | bytes]:
        """Every item's files, in item order."""
        return {name: data for item in self.items for name, data in item.files.items()}
