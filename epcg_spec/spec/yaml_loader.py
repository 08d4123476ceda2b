"""YAML to a located document, through `yaml.compose` so every node keeps its mark."""

from __future__ import annotations

import datetime
import math
import re

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from ..core.errors import Diagnostic, Pos, SpecError
from .document import Document, Path, line_col
from .grammar import MAX_NESTING

try:
    from yaml._yaml import CParser  # libyaml, which PyYAML's wheels carry
except ImportError:  # pragma: no cover (a PyYAML built without it)
    CParser = None

_JSON_SCALARS = (str, int, float, bool, type(None))


ALIAS_BUDGET = 10_000
"""Most nodes that aliases may add to a spec when they are expanded."""

# Characters YAML forbids in a stream (PyYAML's reader would raise on them unlocated).
_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_CHAR_NAMES = {0: "NUL", 0x1B: "ESC", 0x7F: "DEL", 0x0B: "vertical tab", 0x0C: "form feed"}


class _Alias:
    """A use of an anchor: the node it names and where the alias itself is written."""

    __slots__ = ("node", "start_mark")

    def __init__(self, node: yaml.Node, start_mark: yaml.Mark) -> None:
        self.node, self.start_mark = node, start_mark


class _Composing:
    """Composing with a nesting limit and aliases kept as such (for either parser)."""

    def __init__(self, source: str) -> None:
        self.source, self.depth = source, 0

    def too_deep(self, mark: yaml.Mark) -> SpecError:
        return SpecError(
            Diagnostic(
                Pos(self.source, mark.line + 1, mark.column + 1),
                f"nested more than {MAX_NESTING} levels deep",
                "a spec never needs this; close the brackets or flatten the data",
            )
        )

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            return _Alias(super().compose_node(parent, index), mark)
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise self.too_deep(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _Loader(_Composing, yaml.SafeLoader):
    """PyYAML's safe loader, its reader and parser in Python: the messages we explain."""

    def __init__(self, text: str, source: str) -> None:
        yaml.SafeLoader.__init__(self, text)
        _Composing.__init__(self, source)

    def fetch_flow_collection_start(self, token_class) -> None:
        if self.flow_level >= MAX_NESTING:  # refused as scanned: 10^5 '[' stay instant
            raise self.too_deep(self.get_mark())
        super().fetch_flow_collection_start(token_class)


if CParser is None:  # a PyYAML built without libyaml
    _FastLoader = None
else:

    class _FastLoader(_Composing, Composer, CParser, SafeConstructor, Resolver):
        """The same, parsed by libyaml: about 40 times faster on large scalars."""

        def __init__(self, text: str, source: str) -> None:
            CParser.__init__(self, text)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            Composer.__init__(self)
            _Composing.__init__(self, source)


def _root(text: str, source: str):
    """The composed root node (None: empty) and its loader. libyaml parses it where present;
    what libyaml refuses is parsed again by PyYAML's own parser, whose messages we explain
    (and which accepts a few documents libyaml does not), as is text with a tab (libyaml
    accepts some that PyYAML refuses) or a byte order mark (libyaml's marks skip it)."""
    if _FastLoader is not None and "\t" not in text and "\ufeff" not in text:
        loader = _FastLoader(text, source)
        try:
            return loader.get_single_node(), loader
        except (yaml.YAMLError, SpecError):
            loader.dispose()
    loader = _Loader(text, source)
    try:
        return loader.get_single_node(), loader
    except yaml.MarkedYAMLError as exc:
        loader.dispose()
        raise SpecError(_yaml_error(exc, source)) from None
    except SpecError:
        loader.dispose()
        raise


def load_yaml(text: str, source: str) -> Document:
    """Parse YAML text into a Document; duplicate keys and non-JSON values are errors.

    Reading is bounded: nesting deeper than MAX_NESTING, aliases expanding past
    ALIAS_BUDGET nodes, recursive aliases and control characters are located errors.
    """
    bad = _NON_PRINTABLE.search(text)
    if bad:
        raise SpecError(_control_character(text, bad.start(), source))
    root, loader = _root(text, source)
    try:
        doc = Document(source=source, data=None, format="yaml")
        if root is None:
            raise SpecError(
                Diagnostic(Pos(source, 1, 1), "the file is empty", "write a spec mapping")
            )
        builder = _Builder(doc, loader, text)
        doc.data = builder.build(root, ())
    finally:
        loader.dispose()
    if builder.problems:
        raise SpecError(builder.problems)
    return doc


def _control_character(text: str, offset: int, source: str) -> Diagnostic:
    line, col = line_col(text, offset)
    code = ord(text[offset])
    name = _CHAR_NAMES.get(code, "control character" if code < 0xA0 else "non-character")
    return Diagnostic(
        Pos(source, line, col),
        f"{name} U+{code:04X} is not allowed in a YAML file",
        "remove it, or write it as an escape (\\x.. or \\u....) in a double-quoted string",
    )


_YAML_HINTS = (
    ("found character '\\t'", "a tab in the indentation; YAML indents with spaces only"),
    ("expected <block end>", "bad indentation: this line does not line up with its siblings"),
    ("mapping values are not allowed here", "unexpected ':'; quote a value that holds ': '"),
    ("could not find expected ':'", "a key without ':' (or a line indented wrongly)"),
    ("found undefined alias", "an alias (*name) with no matching anchor (&name)"),
    ("found duplicate anchor", "an anchor (&name) defined twice; give each its own name"),
)


_INDEXED = re.compile(r"(?<!\w)[A-Za-z_]\w*\[")  # a name indexed (each word tried once)


def _bare_expression_in_flow(mark) -> bool:
    """Whether the line of a YAML error holds an unquoted expression such as q[0] < 1 in a
    flow list or mapping, where YAML reads the '[' of q[0] as a list of its own."""
    buffer = getattr(mark, "buffer", None)
    if not buffer:
        return False
    start = buffer.rfind("\n", 0, mark.index) + 1
    end = buffer.find("\n", mark.index)
    line = buffer[start : end if end >= 0 else None].split(" #", 1)[0]
    opened = [i for i in (line.find("["), line.find("{")) if i >= 0]  # a flow [ or {, then
    return bool(opened) and _INDEXED.search(line, min(opened) + 1) is not None


def _yaml_error(exc: yaml.MarkedYAMLError, source: str) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    what = exc.problem or exc.context or "invalid YAML"
    if exc.context and exc.problem:
        what = f"{exc.problem} ({exc.context})"
    if _bare_expression_in_flow(mark):
        return Diagnostic(
            Pos(source, line, col),
            "YAML syntax error: an expression inside [...] or {...} must be quoted "
            "(YAML reads the '[' of x[i] as a list)",
            'e.g. ["q[0] < q[1]"] or {maximize: "q[0] * 2"}',
        )
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


def _mark(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


_MERGE = "tag:yaml.org,2002:merge"


class _Builder:
    """Plain data from the composed node graph, expanding aliases within the budget."""

    def __init__(self, doc: Document, loader: _Loader, text: str) -> None:
        self.doc, self.loader, self.text = doc, loader, text
        self.problems: list[Diagnostic] = []
        self.expanded = 0  # nodes built under an alias so far
        self.open: set[int] = set()  # ids of the nodes being built (recursion guard)
        self.via: _Alias | None = None  # the outermost alias being expanded

    def fail(self, node, message: str, hint: str = "") -> SpecError:
        return SpecError(Diagnostic(Pos(self.doc.source, *_mark(node)), message, hint))

    def build(self, node, path: Path, aliased: bool = False):
        """The value of `node` at `path`; `aliased` counts it against the alias budget."""
        self.doc.positions[path] = _mark(node)
        if isinstance(node, _Alias):
            if id(node.node) in self.open:
                raise self.fail(
                    node, "recursive alias: it names a node that contains it", "remove the alias"
                )
            outer = self.via is None
            if outer:
                self.via = node
            try:
                value = self.build(node.node, path, aliased=True)
            finally:
                if outer:
                    self.via = None
            self.doc.positions[path] = _mark(node)
            return value
        if aliased:
            self.expanded += 1
            if self.expanded > ALIAS_BUDGET:
                raise self.fail(
                    self.via or node,
                    f"aliases expand to more than {ALIAS_BUDGET:,} nodes (an alias bomb?)",
                    "write the data out, or use fewer nested aliases",
                )
        if len(self.open) >= MAX_NESTING:
            raise self.fail(
                node,
                f"nested more than {MAX_NESTING} levels deep once its aliases are expanded",
                "use fewer nested aliases",
            )
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path, aliased)
            if isinstance(node, yaml.SequenceNode):
                return [
                    self.build(child, (*path, i), aliased) for i, child in enumerate(node.value)
                ]
            return self._scalar(node, path)
        finally:
            self.open.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, path: Path, aliased: bool) -> dict:
        out: dict = {}
        merged: dict = {}
        for key_node, value_node in node.value:
            target = key_node.node if isinstance(key_node, _Alias) else key_node
            if isinstance(target, yaml.ScalarNode) and target.tag == _MERGE:
                self._merge(value_node, path, aliased, merged)
                continue
            scalar = isinstance(target, yaml.ScalarNode)
            key = self._construct(target) if scalar else None
            kpos = Pos(self.doc.source, *_mark(key_node))
            if not isinstance(key, str):
                shown = repr(key) if scalar else "a mapping or list"
                self.problems.append(Diagnostic(kpos, f"key {shown} is not a string", "quote it"))
                continue
            if key in out:
                first = self.doc.key_positions[(*path, key)]
                self.problems.append(
                    Diagnostic(
                        kpos,
                        f"duplicate key '{key}' (first defined at line {first[0]})",
                        "keep one of them",
                    )
                )
                continue
            self.doc.key_positions[(*path, key)] = _mark(key_node)
            out[key] = self.build(value_node, (*path, key), aliased)
        for key, value in merged.items():
            out.setdefault(key, value)
        return out

    def _merge(self, value_node, path: Path, aliased: bool, merged: dict) -> None:
        """Add the entries of a merge (`<<: *a` or `<<: [*a, *b]`) not already merged."""
        target = value_node.node if isinstance(value_node, _Alias) else value_node
        sources = target.value if isinstance(target, yaml.SequenceNode) else [value_node]
        aliased = aliased or isinstance(value_node, _Alias)
        where = self.doc.positions[path]
        for source in sources:
            value = self.build(source, path, aliased)
            self.doc.positions[path] = where
            if not isinstance(value, dict):
                raise self.fail(source, "'<<' merges mappings only", "name a mapping's anchor")
            for key, item in value.items():
                merged.setdefault(key, item)

    def _construct(self, node: yaml.ScalarNode):
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.MarkedYAMLError as exc:
            raise SpecError(_yaml_error(exc, self.doc.source)) from None
        except ValueError as exc:
            raise self.fail(
                node, f"cannot read {node.value[:40]!r} as {node.tag} ({exc})"
            ) from None

    def _scalar(self, node: yaml.ScalarNode, path: Path):
        value = self._construct(node)
        if isinstance(value, datetime.date):
            value = node.value
        if isinstance(value, float) and not math.isfinite(value):
            self.problems.append(
                Diagnostic(
                    Pos(self.doc.source, *_mark(node)), f"{node.value} is not a finite number"
                )
            )
        elif not isinstance(value, _JSON_SCALARS):
            self.problems.append(
                Diagnostic(
                    Pos(self.doc.source, *_mark(node)), f"unsupported YAML value {node.value!r}"
                )
            )
        if isinstance(value, str):
            anchors = _text_anchors(node, self.text)
            if anchors:
                self.doc.text_anchors[path] = anchors
        return value


def _text_anchors(node: yaml.ScalarNode, text: str) -> list[tuple[int, int, int]]:
    """Where each line of a string scalar's content sits in the source, where that is exact."""
    start, end = node.start_mark, node.end_mark
    value = node.value
    if node.style in (None, "", "'", '"') and start.line == end.line:  # '': libyaml's plain
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
