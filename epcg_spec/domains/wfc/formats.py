"""The reference implementation's XML files, read as they are: tilesets and samples.xml.

A tileset (`<set>`: tiles with symmetry letters and weights, neighbour rules, subsets) is
read into a located document of the same shape as an inline `tiles:`/`neighbors:` spec.
`epcg-spec build` accepts a tileset XML (24 x 24 cells, like the reference) and a
samples.xml (every entry, with the reference's attribute names and defaults) directly.
"""

from __future__ import annotations

import xml.parsers.expat
from dataclasses import dataclass, field
from pathlib import Path

from ...compile.protocols import Format
from ...core.errors import Diagnostic, Pos, SpecError
from ...core.files import slug
from ...spec.document import Document

TRUE_WORDS = {"true": True, "false": False}


@dataclass
class Element:
    """An XML element with the position of its start tag."""

    tag: str
    attrs: dict[str, str]
    line: int
    col: int
    children: list[Element] = field(default_factory=list)
    text: str = ""  # the character data directly inside the element

    def all(self, tag: str) -> list[Element]:
        return [c for c in self.children if c.tag == tag]

    def one(self, tag: str) -> Element | None:
        found = self.all(tag)
        return found[0] if found else None


MAX_DEPTH = 64  # elements nested deeper than this are refused (Tiled nests about six)


def parse_xml(text: str, source: str) -> Element:
    """Parse XML text into Elements; a syntax error is one located diagnostic.

    Hardened for files from strangers, as defusedxml's defaults are: an entity declaration
    or an external reference is refused (so nothing expands), and so is nesting past
    MAX_DEPTH; character data is gathered in parts, so reading is linear in the text."""
    parser = xml.parsers.expat.ParserCreate()
    stack: list[tuple[Element, list[str]]] = []
    root: list[Element] = []

    def refuse(what: str) -> None:
        pos = Pos(source, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        raise SpecError(Diagnostic(pos, f"{what} is not read", "remove it from the file"))

    def start(tag, attrs):
        if len(stack) >= MAX_DEPTH:
            refuse(f"XML nested deeper than {MAX_DEPTH} elements")
        element = Element(
            tag, dict(attrs), parser.CurrentLineNumber, parser.CurrentColumnNumber + 1
        )
        (stack[-1][0].children if stack else root).append(element)
        stack.append((element, []))

    def end(_tag):
        element, parts = stack.pop()
        element.text = "".join(parts)

    def characters(data):
        if stack:
            stack[-1][1].append(data)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.EntityDeclHandler = lambda *_: refuse("an XML entity declaration")
    parser.UnparsedEntityDeclHandler = lambda *_: refuse("an XML entity declaration")
    parser.ExternalEntityRefHandler = lambda *_: refuse("an external XML entity")
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as exc:
        pos = Pos(source, exc.lineno, exc.offset + 1)
        message = xml.parsers.expat.ErrorString(exc.code)
        raise SpecError(Diagnostic(pos, f"XML syntax error: {message}")) from None
    return root[0]


def _scalar(text: str):
    """An attribute's text as the JSON value the spec schema expects."""
    lowered = text.strip().lower()
    if lowered in TRUE_WORDS:
        return TRUE_WORDS[lowered]
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


class _Builder:
    """Collects data and positions for a Document made from XML elements."""

    def __init__(self, source: str):
        self.doc = Document(source=source, data=None, format="xml", positions={(): (1, 1)})

    def at(self, path, element: Element) -> None:
        self.doc.positions[tuple(path)] = (element.line, element.col)
        self.doc.key_positions[tuple(path)] = (element.line, element.col)


def read_tileset(path: Path, text: str) -> Document:
    """A tileset XML as {tiles, neighbors, subsets, size, unique}, every node located."""
    root = parse_xml(text, str(path))
    built = _Builder(str(path))
    if root.tag != "set":
        raise SpecError(
            Diagnostic(Pos(str(path), root.line, root.col), "a tileset's root is <set>")
        )
    data: dict = {}
    for key in ("size", "unique"):
        if key in root.attrs:
            data[key] = _scalar(root.attrs[key])
            built.at((key,), root)
    tiles = root.one("tiles")
    data["tiles"] = []
    for i, element in enumerate(tiles.all("tile") if tiles else []):
        entry = {k: _scalar(v) if k == "weight" else v for k, v in element.attrs.items()}
        data["tiles"].append(entry)
        built.at(("tiles", i), element)
        for key in entry:
            built.at(("tiles", i, key), element)
    neighbors = root.one("neighbors")
    data["neighbors"] = []
    for i, element in enumerate(neighbors.all("neighbor") if neighbors else []):
        data["neighbors"].append(dict(element.attrs))
        built.at(("neighbors", i), element)
        for key in element.attrs:
            built.at(("neighbors", i, key), element)
    subsets = root.one("subsets")
    if subsets is not None:
        data["subsets"] = {}
        for element in subsets.all("subset"):
            name = element.attrs.get("name", "")
            data["subsets"][name] = [t.attrs.get("name", "") for t in element.all("tile")]
            built.at(("subsets", name), element)
    built.doc.data = data
    return built.doc


# samples.xml attribute -> spec key (identity where not listed)
SAMPLE_KEYS = {
    "periodicInput": "periodic_input",
    "screenshots": "outputs",
    "blackBackground": "black_background",
    "textOutput": "text_output",
}
SAMPLE_DEFAULTS = {"overlapping": {"outputs": 2}, "simpletiled": {"outputs": 2}}


def read_samples(path: Path, text: str) -> Document:
    """A reference samples.xml as a `kind: wfc` spec whose `samples` are its entries."""
    root = parse_xml(text, str(path))
    if root.tag != "samples":
        raise SpecError(
            Diagnostic(
                Pos(str(path), root.line, root.col),
                f"the root element is <{root.tag}>; a samples file's root is <samples> "
                "(a tileset's is <set>)",
            )
        )
    built = _Builder(str(path))
    entries = []
    for element in root.children:
        if element.tag not in ("overlapping", "simpletiled"):
            continue
        i = len(entries)
        entry: dict = {"model": "overlapping" if element.tag == "overlapping" else "tiled"}
        entry.update(SAMPLE_DEFAULTS[element.tag])
        built.at(("samples", i), element)
        for attr, value in element.attrs.items():
            key = SAMPLE_KEYS.get(attr, attr)
            entry[key] = value if key in ("name", "subset", "heuristic") else _scalar(value)
            built.at(("samples", i, key), element)
        name = str(entry.get("name", ""))
        if entry["model"] == "overlapping":
            entry["sample"] = f"samples/{name}.png"
        else:
            entry["tileset"] = f"samples/{name}/data.xml"
        if isinstance(entry.get("heuristic"), str):
            entry["heuristic"] = entry["heuristic"].lower()
        if isinstance(entry.get("ground"), int) and not isinstance(entry.get("ground"), bool):
            entry["ground"] = entry["ground"] != 0
        for key in ("model", "sample", "tileset", "outputs"):
            built.at(("samples", i, key), element)
        entries.append(entry)
    built.doc.data = {"kind": "wfc", "name": slug(path.stem), "samples": entries}
    built.at(("samples",), root)
    return built.doc


def tileset_spec(path: Path, text: str) -> Document:
    """A tileset XML given directly to the CLI: a tiled run of 24 x 24 cells."""
    root = parse_xml(text, str(path))
    doc = Document(source=str(path), data=None, format="xml", positions={(): (1, 1)})
    doc.data = {"kind": "wfc", "name": slug(path.stem), "model": "tiled", "tileset": path.name}
    for key in ("model", "tileset"):
        doc.positions[(key,)] = (root.line, root.col)
    return doc


def _root_tag(text: str) -> str:
    start = text.find("<", text.find("?>") + 1 if text.lstrip().startswith("<?") else 0)
    while start >= 0 and text.startswith("<!--", start):
        start = text.find("<", text.find("-->", start) + 3)
    if start < 0:
        return ""
    end = start + 1
    while end < len(text) and (text[end].isalnum() or text[end] in "_-"):
        end += 1
    return text[start + 1 : end]


def _is_samples(text: str) -> bool:
    """A samples file, or one whose root was broken (it still lists samples): read it, so
    that what is wrong is reported where it is."""
    root = _root_tag(text)
    return root == "samples" or (
        root != "set" and ("<overlapping" in text or "<simpletiled" in text)
    )


FORMATS = (
    Format(
        name="wfc-samples",
        suffixes=(".xml",),
        sniff=lambda path, text: _is_samples(text),
        read=read_samples,
    ),
    Format(
        name="wfc-tileset",
        suffixes=(".xml",),
        sniff=lambda path, text: _root_tag(text) == "set",
        read=tileset_spec,
    ),
)
