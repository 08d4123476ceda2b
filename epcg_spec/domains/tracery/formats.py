"""Tracery JSON grammar files, read as they are: `{"symbol": "rule" | ["rule", ...]}`.

The file becomes a `kind: tracery` document whose `grammar` is the file's object, with
the position of every key and value kept, so that a problem in a rule points into
the JSON file itself.
"""

from __future__ import annotations

import json
import math
import re
from json.decoder import scanstring
from pathlib import Path
from typing import Any

from ...compile.protocols import Format
from ...core.errors import Diagnostic, Pos, SpecError
from ...core.files import slug
from ...spec.document import Document, LineIndex
from ...spec.grammar import MAX_NESTING

_NUMBER = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?")
_WHITESPACE = re.compile("[ \t\n\r]*")


class _Reader:
    """A small JSON parser that records where each value and key starts."""

    def __init__(self, text: str, source: str) -> None:
        self.text, self.source, self.at = text, source, 0
        self.positions: dict[tuple, tuple[int, int]] = {}
        self.key_positions: dict[tuple, tuple[int, int]] = {}
        self.anchors: dict[tuple, list[tuple[int, int, int]]] = {}
        self.depth = 0
        self.where = LineIndex(text)

    def fail(self, message: str) -> SpecError:
        return SpecError(Diagnostic(Pos(self.source, *self.where(self.at)), message))

    def skip(self) -> None:
        self.at = _WHITESPACE.match(self.text, self.at).end()

    def value(self, path: tuple) -> Any:
        self.skip()
        self.positions[path] = self.where(self.at)
        char = self.text[self.at : self.at + 1]
        if char in "{[" and char:
            if len(path) >= MAX_NESTING:
                raise self.fail(f"JSON nested more than {MAX_NESTING} deep; a grammar never is")
            return self._object(path) if char == "{" else self._array(path)
        if char == '"':
            return self._string(path)
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.at):
                self.at += len(word)
                return value
        match = _NUMBER.match(self.text, self.at)
        if not match:
            raise self.fail("JSON syntax error: expected a value")
        number = float(match.group(0)) if match.group(2) or match.group(3) else None
        if number is not None and not math.isfinite(number):
            raise self.fail(f"{match.group(0)} is too large a number")
        if len(match.group(0)) > 100:
            raise self.fail("a number with more than 100 digits")
        self.at = match.end()
        return number if number is not None else int(match.group(0))

    def _string(self, path: tuple | None) -> str:
        start = self.at
        try:
            value, self.at = scanstring(self.text, self.at + 1)
        except json.JSONDecodeError as exc:
            self.at = exc.pos
            raise self.fail(f"JSON syntax error: {exc.msg}") from None
        if path is not None and self.text[start + 1 : self.at - 1] == value:
            self.anchors[path] = [(0, *self.where(start + 1))]
        return value

    def _expect(self, char: str) -> None:
        self.skip()
        if self.text[self.at : self.at + 1] != char:
            raise self.fail(f"JSON syntax error: expected '{char}'")
        self.at += 1

    def _object(self, path: tuple) -> dict:
        self.at += 1
        out: dict[str, Any] = {}
        self.skip()
        if self.text[self.at : self.at + 1] == "}":
            self.at += 1
            return out
        while True:
            self.skip()
            if self.text[self.at : self.at + 1] != '"':
                raise self.fail("JSON syntax error: expected a key in double quotes")
            key_at = self.where(self.at)
            key = self._string(None)
            if key in out:
                raise self.fail(f"duplicate key '{key}'")
            self.key_positions[(*path, key)] = key_at
            self._expect(":")
            out[key] = self.value((*path, key))
            self.skip()
            if self.text[self.at : self.at + 1] == ",":
                self.at += 1
                continue
            self._expect("}")
            return out

    def _array(self, path: tuple) -> list:
        self.at += 1
        out: list[Any] = []
        self.skip()
        if self.text[self.at : self.at + 1] == "]":
            self.at += 1
            return out
        while True:
            out.append(self.value((*path, len(out))))
            self.skip()
            if self.text[self.at : self.at + 1] == ",":
                self.at += 1
                continue
            self._expect("]")
            return out


def read_json(text: str, source: str) -> tuple[Any, _Reader]:
    """Parse JSON text; every value's position is in the returned reader."""
    reader = _Reader(text, source)
    value = reader.value(())
    reader.skip()
    if reader.at != len(text):
        raise reader.fail("JSON syntax error: extra text after the value")
    return value, reader


def is_grammar(data: Any) -> bool:
    """A Tracery grammar: an object of symbols, each a string or a list of strings."""
    return (
        isinstance(data, dict)
        and bool(data)
        and "kind" not in data
        and all(
            isinstance(v, str) or (isinstance(v, list) and all(isinstance(r, str) for r in v))
            for v in data.values()
        )
    )


def _sniff(path: Path, text: str) -> bool:
    """A grammar, or one being written: a JSON object of symbols without `kind` whose
    rules are not mappings (then checked as a grammar), or JSON that does not parse (then
    its syntax error is reported where it is). Other JSON files are not specs."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return True
    return (
        isinstance(data, dict)
        and "kind" not in data
        and not any(isinstance(value, dict) for value in data.values())
    )


def grammar_document(path: Path, text: str, prefix: tuple = ("grammar",)) -> Document:
    """A Tracery JSON file as a located `kind: tracery` document."""
    data, reader = read_json(text, str(path))
    doc = Document(source=str(path), data=None, format="tracery-json")
    doc.positions = {(*prefix, *p): v for p, v in reader.positions.items()}
    doc.key_positions = {(*prefix, *p): v for p, v in reader.key_positions.items()}
    doc.text_anchors = {(*prefix, *p): v for p, v in reader.anchors.items()}
    doc.positions[()] = (1, 1)
    doc.data = {"kind": "tracery", "name": slug(path.stem), "grammar": data}
    return doc


TRACERY_JSON = Format(
    name="tracery-json",
    suffixes=(".json",),
    sniff=_sniff,
    read=lambda path, text: grammar_document(path, text),
)
