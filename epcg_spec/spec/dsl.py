"""The .epcg text DSL: read into the located document model, and write it back."""

from __future__ import annotations

import json
from typing import Any

from lark import Token, Tree

from ..core.errors import Diagnostic, Pos, SpecError
from .document import Document, Path, line_col
from .grammar import KEYWORDS, SyntaxProblem, decode_string, parse

_SCALAR_RULES = {"int_", "float_", "string", "true", "false", "null", "name"}


def load_dsl(text: str, source: str) -> Document:
    """Parse DSL text into a Document with the same shape a YAML spec would have."""
    doc = Document(source=source, data=None, format="dsl", positions={(): (1, 1)})
    problems: list[Diagnostic] = []
    try:
        tree = parse(text, "document")
        if not tree.children:  # nothing but blanks and comments: as the YAML loader says
            raise SpecError(
                Diagnostic(Pos(source, 1, 1), "the file is empty", "write a spec mapping")
            )
        doc.data = _mapping(tree.children, (), doc, text, problems)
    except SyntaxProblem as exc:
        line, col = line_col(text, exc.offset)
        message = exc.placed(lambda offset: "{}:{}".format(*line_col(text, offset)))
        raise SpecError(Diagnostic(Pos(source, line, col), message)) from None
    if problems:
        raise SpecError(problems)
    return doc


def _mapping(entries, path: Path, doc: Document, text: str, problems) -> dict:
    out: dict[str, Any] = {}
    for entry in entries:
        key_token = entry.children[0].children[0]
        key = decode_string(key_token) if key_token.type == "STRING" else str(key_token)
        where = (*path, key)
        if key in out:
            first = doc.key_positions[where][0]
            problems.append(
                Diagnostic(
                    Pos(doc.source, key_token.line, key_token.column),
                    f"duplicate key '{key}' (first defined at line {first})",
                    "keep one of them",
                )
            )
            continue
        doc.key_positions[where] = (key_token.line, key_token.column)
        values = entry.children[1:]
        if entry.data == "alternatives":
            doc.positions[where] = _start(values[0])
            out[key] = [_value(v, (*where, i), doc, text, problems) for i, v in enumerate(values)]
        else:
            out[key] = _value(values[0], where, doc, text, problems)
    return out


def _start(node: Tree | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line, node.column
    return node.meta.line, node.meta.column


def _value(node: Tree | Token, path: Path, doc: Document, text: str, problems):
    doc.positions[path] = _start(node)
    if isinstance(node, Tree) and node.data == "map":
        return _mapping(node.children, path, doc, text, problems)
    if isinstance(node, Tree) and node.data == "list":
        return [_value(v, (*path, i), doc, text, problems) for i, v in enumerate(node.children)]
    scalar = _scalar(node)
    if scalar is not _NOT_SCALAR:
        if isinstance(scalar, str) and isinstance(node, Tree) and node.data == "string":
            doc.text_anchors[path] = _string_anchors(node.children[0])
        return scalar
    start, end = node.meta.start_pos, node.meta.end_pos
    expression = text[start:end]
    doc.text_anchors[path] = _anchors(text, start, expression)
    return expression


_NOT_SCALAR = object()


def _scalar(node: Tree | Token):
    """The plain value of a literal node, or _NOT_SCALAR for an expression."""
    if isinstance(node, Token) or node.data not in _SCALAR_RULES | {"neg"}:
        return _NOT_SCALAR
    if node.data == "neg":
        inner = _scalar(node.children[0])
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return -inner
        return _NOT_SCALAR
    token = node.children[0] if node.children else None
    return {
        "int_": lambda: int(token),
        "float_": lambda: float(token),
        "string": lambda: decode_string(token),
        "true": lambda: True,
        "false": lambda: False,
        "null": lambda: None,
        "name": lambda: str(token),
    }[node.data]()


def _string_anchors(token: Token) -> list[tuple[int, int, int]]:
    """Where the characters of a quoted string stand: an anchor (character, line, column)
    at its start and after each escape (`\\n` is one character written as two)."""
    body, line, col = token.value[1:-1], token.line, token.column + 1
    anchors = [(0, line, col)]
    read = written = 0
    while written < len(body):
        if body[written] != "\\":
            read, written = read + 1, written + 1
            continue
        width = 2
        if body[written + 1] == "u":  # \uXXXX, or a surrogate pair of two: one character
            high = 0xD800 <= int(body[written + 2 : written + 6], 16) < 0xDC00
            width = 12 if high and body[written + 6 : written + 8] == "\\u" else 6
        read, written = read + 1, written + width
        anchors.append((read, line, col + written))
    return anchors


def _anchors(text: str, start: int, expression: str) -> list[tuple[int, int, int]]:
    line, col = line_col(text, start)
    anchors = [(0, line, col)]
    for i, char in enumerate(expression):
        if char == "\n":
            line += 1
            anchors.append((i + 1, line, 1))
    return anchors


# ---- writing ----

_INDENT = "  "


def dump_dsl(data: dict) -> str:
    """The DSL text of a document; `load_dsl(dump_dsl(d))` gives back `d` exactly."""
    return "".join(_entry_lines(data, 0))


def _entry_lines(mapping: dict, depth: int):
    pad = _INDENT * depth
    for key, value in mapping.items():
        if isinstance(value, dict) and value:
            yield f"{pad}{_key(key)} {{\n"
            yield from _entry_lines(value, depth + 1)
            yield f"{pad}}}\n"
        else:
            yield f"{pad}{_key(key)}: {_inline_or_block(value, depth)}\n"


def _inline_or_block(value, depth: int) -> str:
    flat = _flat(value)
    if flat is not None and len(flat) <= 80 and "\n" not in flat:
        return flat
    pad = _INDENT * (depth + 1)
    if isinstance(value, dict):
        body = "".join(_entry_lines(value, depth + 1))
        return "{\n" + body + _INDENT * depth + "}"
    if isinstance(value, list):
        items = [pad + _inline_or_block(v, depth + 1) + ",\n" for v in value]
        return "[\n" + "".join(items) + _INDENT * depth + "]"
    return _scalar_text(value)


def _flat(value) -> str | None:
    """A one-line form of the value, or None if it holds a multi-line string."""
    if isinstance(value, dict):
        parts = {_key(k): _flat(v) for k, v in value.items()}
        if any(p is None for p in parts.values()):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in parts.items()) + "}"
    if isinstance(value, list):
        items = [_flat(v) for v in value]
        return None if any(p is None for p in items) else "[" + ", ".join(items) + "]"
    text = _scalar_text(value)
    return None if "\n" in text else text


def _scalar_text(value) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return repr(value)
    if _is_name(value) or _is_inline_expression(value):
        return value
    return json.dumps(value, ensure_ascii=False)


def _key(key: str) -> str:
    return key if _is_name(key) else json.dumps(key, ensure_ascii=False)


def _is_name(text: str) -> bool:
    return text.isidentifier() and text.isascii() and text not in KEYWORDS


def _is_inline_expression(text: str) -> bool:
    """True if `text` reads back from the DSL as this very string (a non-literal expression)."""
    if not text or text != text.strip() or "#" in text:
        return False
    try:
        tree = parse(text, "expression")
    except SyntaxProblem:
        return False
    body = tree.children[0]
    return _scalar(body) is _NOT_SCALAR
