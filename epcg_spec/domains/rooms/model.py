"""The typed form of a `kind: rooms` spec: the map, the tree of rooms, the search."""

from __future__ import annotations

from dataclasses import dataclass

STRATEGIES = ("stack", "restart")
ORDERS = {"tree": "scanline", "fewest": "mrv"}  # spec word -> backtrack heuristic


@dataclass(frozen=True)
class Room:
    """One room: its name, size in cells, and its parent's index (-1 for the root)."""

    name: str
    width: int
    height: int
    parent: int
    kind: str = ""


@dataclass(frozen=True)
class SearchOptions:
    strategy: str = "stack"
    attempts: int = 100_000
    order: str = "tree"
    undos: int | None = None  # stack: undos per attempt before a restart (None: unlimited)

    @property
    def max_undos(self) -> int:
        """The back end's cap on undos per attempt: 0 restarts at once, -1 never."""
        if self.strategy == "restart":
            return 0
        return -1 if self.undos is None else self.undos


@dataclass(frozen=True)
class RoomsSpec:
    """Rooms in tree order (every parent before its children), to place on a W x H map."""

    name: str
    width: int
    height: int
    rooms: tuple[Room, ...]
    margin: int = 1
    corridor: int = 0
    rotate: bool = False
    blocked: tuple[tuple[int, int], ...] = ()  # rock cells (x, y)
    search: SearchOptions = SearchOptions()
    limit: int = 0
    description: str = ""

    @property
    def gap(self) -> int:
        """Cells between a room and its parent along the side they face."""
        return self.margin + self.corridor

    def shapes(self, room: Room) -> tuple[tuple[int, int], ...]:
        """The (width, height) a room may take inside the map: as given, and turned if the
        spec allows."""
        given = (room.width, room.height)
        turned = (room.height, room.width)
        candidates = (given, turned) if self.rotate and turned != given else (given,)
        return tuple((w, h) for w, h in candidates if w <= self.width and h <= self.height)
