"""YAML to a located document, through `yaml.compose` so every node keeps its mark."""

from __future__ import annotations

import datetime
import math

import yaml

from ..errors import Diagnostic, Pos, SpecError
from .document import Document, Path

_JSON_SCALARS = (str, int, float, bool, type(None))


def load_yaml(text: str, source: str) -> Document:
    """Parse YAML text into a Document; duplicate keys and non-JSON values are errors."""
    loader = yaml.SafeLoader(text)
    try:
        try:
            root = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            raise SpecError(_yaml_error(exc, source)) from None
    finally:
        loader.dispose()
    doc = Document(source=source, data=None, format="yaml")
    if root is None:
        raise SpecError(Diagnostic(Pos(source, 1, 1), "the file is empty", "write a spec mapping"))
    problems: list[Diagnostic] = []
    doc.data = _build(root, (), doc, loader, problems, text)
    if problems:
        raise SpecError(problems)
    return doc


_YAML_HINTS = (
    ("found character '\\t'", "a tab in the indentation; YAML indents with spaces only"),
    ("expected <block end>", "bad indentation: this line does not line up with its siblings"),
    ("mapping values are not allowed here", "unexpected ':'; quote a value that holds ': '"),
    ("could not find expected ':'", "a key without ':' (or a line indented wrongly)"),
    ("found undefined alias", "an alias (*name) with no matching anchor (&name)"),
)


def _yaml_error(exc: yaml.MarkedYAMLError, source: str) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    what = exc.problem or exc.context or "invalid YAML"
    if exc.context and exc.problem:
        what = f"{exc.problem} ({exc.context})"
    if exc.context in ("while parsing a flow mapping", "while parsing a flow sequence"):
        opened = exc.context_mark
        bracket = "{" if "mapping" in exc.context else "["
        return Diagnostic(
            Pos(source, line, col),
            f"YAML syntax error: the '{bracket}' at {opened.line + 1}:{opened.column + 1} is "
            f"not closed (or a ',' is missing before this)",
        )
    for needle, message in _YAML_HINTS:
        if needle in what:
            return Diagnostic(Pos(source, line, col), f"YAML syntax error: {message}")
    return Diagnostic(Pos(source, line, col), f"YAML syntax error: {what}")


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _build(node, path: Path, doc: Document, loader, problems: list[Diagnostic], text: str):
    doc.positions[path] = _mark(node)
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)
        out: dict = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            kpos = Pos(doc.source, *_mark(key_node))
            if not isinstance(key, str):
                problems.append(Diagnostic(kpos, f"key {key!r} is not a string", "quote it"))
                continue
            if key in out:
                first = doc.key_positions[(*path, key)]
                problems.append(
                    Diagnostic(
                        kpos,
                        f"duplicate key '{key}' (first defined at line {first[0]})",
                        "keep one of them",
                    )
                )
                continue
            doc.key_positions[(*path, key)] = _mark(key_node)
            out[key] = _build(value_node, (*path, key), doc, loader, problems, text)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [
            _build(child, (*path, i), doc, loader, problems, text)
            for i, child in enumerate(node.value)
        ]
    value = loader.construct_object(node, deep=True)
    if isinstance(value, datetime.date):
        value = node.value
    if isinstance(value, float) and not math.isfinite(value):
        problems.append(
            Diagnostic(Pos(doc.source, *_mark(node)), f"{node.value} is not a finite number")
        )
    elif not isinstance(value, _JSON_SCALARS):
        problems.append(
            Diagnostic(Pos(doc.source, *_mark(node)), f"unsupported YAML value {node.value!r}")
        )
    if isinstance(value, str):
        anchors = _text_anchors(node, text)
        if anchors:
            doc.text_anchors[path] = anchors
    return value


def _text_anchors(node: yaml.ScalarNode, text: str) -> list[tuple[int, int, int]]:
    """Where each line of a string scalar's content sits in the source, where that is exact."""
    start, end = node.start_mark, node.end_mark
    value = node.value
    if node.style in (None, "'", '"') and start.line == end.line:
        inner = text[start.index + (1 if node.style else 0) : end.index - (1 if node.style else 0)]
        if inner == value:
            return [(0, start.line + 1, start.column + 1 + (1 if node.style else 0))]
        return []
    if node.style == "|":
        body = text[start.index : end.index].split("\n")[1:]
        indent = min((len(s) - len(s.lstrip(" ")) for s in body if s.strip()), default=0)
        anchors, offset = [], 0
        for i, content in enumerate(value.split("\n")):
            anchors.append((offset, start.line + 2 + i, indent + 1))
            offset += len(content) + 1
        return anchors
    return []
