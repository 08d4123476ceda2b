"""ppg-yaml universe files read as they are: `objects`, `rules`, `num_nodes`, and no `kind`.

ppg-yaml reads every name as text, while YAML 1.1 reads `on`, `off`, `yes`, `no` as
booleans: a name that came out boolean is given back its text from the source.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...compile.protocols import Format
from ...core.errors import SpecError
from ...spec.document import Document
from ...spec.document import Path as DocPath
from ...spec.yaml_loader import load_yaml

PPG_KEYS = {"objects", "rules", "num_nodes"}
NAME_KEYS = {"name", "state", "event", "from", "to"}
NAME_LISTS = {"states", "events"}
TOKEN = re.compile(r"[^\s,\]}#]+")


def sniff_ppg_yaml(path: Path, text: str) -> bool:
    """A YAML mapping without `kind` whose keys are ppg-yaml's, `objects` among them."""
    try:
        doc = load_yaml(text, str(path))
    except SpecError:  # not ours to report: the file is not a ppg-yaml universe
        return False
    data = doc.data
    return isinstance(data, dict) and "objects" in data and set(data) <= PPG_KEYS | {"kind"}


def read_ppg_yaml(path: Path, text: str) -> Document:
    """The universe as a located `kind: ppg` document (the kind added, everything else kept)."""
    doc = load_yaml(text, str(path))
    lines = text.splitlines()
    doc.data = {"kind": "ppg", **_names_as_text(doc, doc.data, (), lines)}
    return doc


def _names_as_text(doc: Document, node, path: DocPath, lines: list[str]):
    """The data with every boolean name replaced by its source text."""
    if isinstance(node, dict):
        return {k: _names_as_text(doc, v, (*path, k), lines) for k, v in node.items()}
    if isinstance(node, list):
        return [_names_as_text(doc, v, (*path, i), lines) for i, v in enumerate(node)]
    named = path and (path[-1] in NAME_KEYS or (len(path) > 1 and path[-2] in NAME_LISTS))
    if isinstance(node, bool) and named and path in doc.positions:
        line, col = doc.positions[path]
        found = TOKEN.match(lines[line - 1], col - 1)
        return found.group(0) if found else node
    return node


PPG_YAML = Format("ppg-yaml", (".yaml", ".yml"), sniff_ppg_yaml, read_ppg_yaml)
