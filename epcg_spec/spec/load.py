"""From a path to a typed spec: read, parse, pick the kind, validate, check semantics."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..compile import registry
from ..compile.protocols import Domain
from ..core import inputs
from ..core.errors import Diagnostic, Pos, SpecError, UsageError, did_you_mean, hint_budget
from ..core.files import NotReadable, read_bounded, why_absent
from .document import Document
from .params import resolve_params
from .schema import broken_paths, validate
from .yaml_loader import load_yaml

SPEC_SUFFIXES = {".yaml": "yaml", ".yml": "yaml", ".epcg": "dsl"}


@dataclass
class Loaded:
    """A spec that passed every check: its document, its domain and its typed form."""

    document: Document
    domain: Domain
    spec: Any
    # the files the spec named and its kind read while loading it: {path relative to the
    # spec's folder: "sha256:..."} (see core/inputs.py)
    inputs: dict[str, str] = field(default_factory=dict)

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        """Located problems that do not stop the spec, which its kind's typed spec carries
        (`warnings`, where it has any): `validate` and `build` print them."""
        return tuple(getattr(self.spec, "warnings", ()))


def read_text(path: Path) -> str:
    """The text of a spec file; a missing or unreadable file is a usage error."""
    if not path.exists():
        raise UsageError(f"{path}: {why_absent(path)}")
    if path.is_dir():
        raise UsageError(f"{path} is a folder; give a spec file")
    try:
        data = read_bounded(path)
        return data.decode("utf-8").removeprefix("\ufeff")  # a byte order mark, as YAML reads
    except UnicodeDecodeError as exc:
        raise SpecError(_not_utf8(path, data, exc)) from None
    except NotReadable as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None


def _not_utf8(path: Path, data: bytes, exc: UnicodeDecodeError) -> Diagnostic:
    """Where in `data` the first byte that is not UTF-8 stands, and what it is."""
    line_start = data.rfind(b"\n", 0, exc.start) + 1
    col = len(data[line_start : exc.start].decode("utf-8", errors="replace")) + 1
    return Diagnostic(
        Pos(str(path), data.count(b"\n", 0, exc.start) + 1, col),
        f"byte 0x{data[exc.start]:02X} is not UTF-8 text ({exc.reason})",
        "save the file as UTF-8",
    )


def load_document(path: Path) -> Document:
    """Parse any supported file into a located document carrying a `kind`."""
    return parse_document(read_text(Path(path)), Path(path))


def parse_document(text: str, path: Path) -> Document:
    """Parse `text`, read from (or named as) `path`, whose suffix says its syntax."""
    doc = _parse(text, path)
    _refuse_lone_surrogates(doc)
    return doc


_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_lone_surrogates(doc: Document) -> None:
    """A string escape such as "\\ud800" (YAML, JSON, the DSL) reads as half of a UTF-16
    pair, no character: no file could be written with it (exit 3 in fmt, result.json)."""
    todo: list[tuple[tuple, Any]] = [((), doc.data)] if isinstance(doc.data, dict | list) else []
    while todo:
        path, value = todo.pop()
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            for text, at in ((key, True), (item, False)):
                found = _SURROGATE.search(text) if isinstance(text, str) else None
                if found:
                    raise SpecError(
                        doc.diag(
                            (*path, key),
                            f"U+{ord(found[0]):04X} is half of a UTF-16 surrogate pair, not a "
                            "character",
                            "write the character itself, or an escape of its code point "
                            "such as \\U0001F600",
                            key=at,
                        )
                    )
            if isinstance(item, dict | list):
                todo.append(((*path, key), item))


def _parse(text: str, path: Path) -> Document:
    syntax = SPEC_SUFFIXES.get(path.suffix.lower())
    if syntax == "dsl":
        from .dsl import load_dsl  # here: lark is imported for DSL files only

        return load_dsl(text, str(path))
    doc = load_yaml(text, str(path)) if syntax == "yaml" else None
    if doc is not None and not (isinstance(doc.data, dict) and "kind" not in doc.data):
        return doc
    for fmt in registry.formats():
        if path.suffix.lower() in fmt.suffixes and fmt.sniff(path, text):
            return fmt.read(path, text)
    if doc is not None:
        return doc
    readers = [f.name for f in registry.formats() if path.suffix.lower() in f.suffixes]
    if readers:  # a .json or .xml file that is not of the format read from such files
        raise UsageError(
            f"{path}: not a spec file: a {path.suffix} file is read as {' or '.join(readers)} "
            "only, and this is not one; write a spec (with 'kind') as .yaml or .epcg"
        )
    known = sorted(_spec_suffixes())
    raise UsageError(f"{path}: not a spec file (known file types: {', '.join(known)})")


def domain_of(doc: Document) -> Domain:
    """The domain named by the document's `kind`, or a located error listing the kinds."""
    kinds = registry.kinds()
    if not isinstance(doc.data, dict):
        raise SpecError(doc.diag((), "a spec must be a mapping of keys to values"))
    kind = doc.data.get("kind")
    if kind is None:
        raise SpecError(
            doc.diag((), "the spec has no 'kind'", f"add 'kind: ...', one of: {', '.join(kinds)}")
        )
    if kind not in kinds:
        hint = did_you_mean(str(kind), kinds, "kinds", enclosed=True)
        raise SpecError(doc.diag(("kind",), f"unknown kind {kind!r}", hint))
    return registry.domain(kind)


def load_spec(path: Path, params: dict[str, Any] | None = None) -> Loaded:
    """Load and fully check one spec; raises SpecError listing every problem found."""
    doc = load_document(Path(path))
    return check_document(doc, params or {})


def check_document(doc: Document, params: dict[str, Any]) -> Loaded:
    """Schema validation, then the domain's own semantic checks (their hints bounded)."""
    with hint_budget():
        domain = domain_of(doc)
        problems = validate(doc, domain.schema)
        if problems:
            problems += _checked_despite(domain, doc, params)
            raise SpecError(sorted(problems, key=lambda d: (d.pos.line, d.pos.col, d.message)))
        resolve_params(doc, params)  # one rule for every kind: an unknown --param is exit 2
        with inputs.recording() as reads:  # every kind reads the files its spec names here
            spec = domain.load(doc, params)
    return Loaded(doc, domain, spec, inputs.relative_to(reads, Path(doc.source).parent))


def _checked_despite(domain: Domain, doc: Document, params: dict[str, Any]) -> list[Diagnostic]:
    """The problems a domain's own checks find in the parts of `doc` its schema violations
    leave sound, where it checks them (`check_despite`): every mistake in one run."""
    check = getattr(domain, "check_despite", None)
    try:
        return check(doc, params, broken_paths(doc.data, domain.schema)) if check else []
    except UsageError:  # an unknown --param: the schema's problems are said first
        return []


def discover(paths: Iterable[Path]) -> Iterator[tuple[Path, bool]]:
    """Spec files under `paths`: (path, explicit) with explicit False for folder finds."""
    for path in paths:
        path = Path(path)
        if path.is_dir():
            suffixes = _spec_suffixes()
            for found in _files_under(path):
                hidden = any(part.startswith(".") for part in found.relative_to(path).parts)
                # not is_file(): a pipe or a broken link named like a spec is reported
                # as skipped, with why, not passed over without a word
                if not found.is_dir() and not hidden and found.suffix.lower() in suffixes:
                    yield found, False
        else:
            yield path, True


def _spec_suffixes() -> set[str]:
    """The suffixes of spec files and of every kind's file formats (each kind imported: a
    folder's files are looked through, not a single file's)."""
    return {*SPEC_SUFFIXES, *(s for f in registry.formats() for s in f.suffixes)}


def _files_under(folder: Path) -> list[Path]:
    """Everything under `folder` but folders, sorted, linked folders not entered. A loop,
    not recursion: Path.rglob recursed once per level and a tree 1,000 deep overflowed."""
    found, stack = [], [folder]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                else:
                    found.append(Path(entry.path))
    return sorted(found)
