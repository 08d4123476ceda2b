"""The located document: plain JSON-like data plus the source position of every node."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import Diagnostic, Pos

Path = tuple[str | int, ...]


@dataclass
class Document:
    """A spec as loaded from YAML or the DSL.

    `data` holds only dicts, lists, str, int, float, bool and None. `positions` maps
    the path of every node to where its value starts, `key_positions` the path of
    every mapping entry to where its key starts, and `text_anchors` maps the path of
    a string to (offset, line, col) triples, each saying that the character at that
    offset of the string sits at that line and column of the source, so that an
    error inside an expression can point at the exact character.
    """

    source: str
    data: Any
    format: str
    positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[Path, tuple[int, int]] = field(default_factory=dict)
    text_anchors: dict[Path, list[tuple[int, int, int]]] = field(default_factory=dict)

    def pos(self, path: Path = ()) -> Pos:
        """Position of the node at `path`, or of its nearest located ancestor."""
        path = tuple(path)
        while path and path not in self.positions:
            path = path[:-1]
        line, col = self.positions.get(path, (1, 1))
        return Pos(self.source, line, col)

    def key_pos(self, path: Path) -> Pos:
        """Position of the key of the mapping entry at `path` (the value's if none)."""
        path = tuple(path)
        if path in self.key_positions:
            line, col = self.key_positions[path]
            return Pos(self.source, line, col)
        return self.pos(path)

    def setting_pos(self, paths: tuple[Path, ...]) -> Pos | None:
        """Where the spec sets the first of `paths` (its key), else the nearest setting it
        holds above the first path (never the whole spec); None where it holds neither."""
        for path in paths:
            if tuple(path) in self.positions:
                return self.key_pos(path)
        above = tuple(paths[0][:-1]) if paths else ()
        while above and above not in self.positions:
            above = above[:-1]
        return self.key_pos(above) if above else None

    def text_pos(self, path: Path, offset: int) -> Pos:
        """Position of character `offset` of the string at `path`."""
        path = tuple(path)
        anchors = self.text_anchors.get(path)
        if not anchors:
            return self.pos(path)
        i = bisect.bisect_right([a[0] for a in anchors], offset) - 1
        start, line, col = anchors[max(i, 0)]
        return Pos(self.source, line, col + max(offset - start, 0))

    def diag(self, path: Path, message: str, hint: str = "", *, key: bool = False) -> Diagnostic:
        """A diagnostic located at the node (or its key) at `path`."""
        return Diagnostic(self.key_pos(path) if key else self.pos(path), message, hint)

    def get(self, path: Path, default: Any = None) -> Any:
        """The value at `path`, or `default` where the path does not exist."""
        node = self.data
        for step in path:
            try:
                node = node[step]
            except (KeyError, IndexError, TypeError):
                return default
        return node


def line_col(text: str, offset: int) -> tuple[int, int]:
    """The line and column (from 1) of character `offset` of `text`."""
    start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, start) + 1, offset - start + 1


class LineIndex:
    """`line_col` for many offsets of one text: its line starts found once, then searched
    (counting from the start for each of a file's nodes took time quadratic in its size)."""

    def __init__(self, text: str) -> None:
        self.starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def __call__(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def describe_path(path: Path) -> str:
    """A path written as users read it: `space.n`, `constraints[2].expr`."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "the spec"
