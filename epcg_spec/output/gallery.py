"""index.html: one self-contained page to look at a build's content, sort it and pick from it.

The page is static (inline CSS and JS, no network): the items travel as JSON inside it, the
pictures stay beside it as the files the kind wrote, referenced relatively and lazy-loaded.
The same result.json and files give the same bytes.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, partial
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import BuildError, UsageError
from ..core.files import atomic_write
from ..spec.load import load_document
from ..spec.params import resolve_params
from .booklet import BOOKLET
from .jsontext import dumps
from .result import read_result

PAGE = "index.html"
PICTURES = (".svg", ".png")  # in order of preference
CARDS_AT_ONCE = 600  # cards the page draws at first, and at each "show more"
TAG_VALUES = 12  # a text field with at most this many different values becomes a filter
BIG = 10**15  # from here on, numbers are shown as 1.23 × 10¹⁵
SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"
HEADLINE = (
    ("space_size", "space size"),
    ("evaluated", "evaluated"),
    ("count", "solutions"),
)


@dataclass(frozen=True)
class KindView:
    """How a kind's items map to files, text and a command that regenerates one."""

    stems: Callable[[int, dict[str, Any]], tuple[str, ...]]  # item k -> its file stems
    details: str | None = None  # result key of per-item records that sit beside `best`
    text: Callable[[Any, dict[str, Any]], str | None] | None = None  # (state, result) -> card
    by_rank: bool = False  # `epcg-spec sample SPEC --rank R` gives the item again
    seeded: bool = True  # its build takes --seed (not space, witness: nothing is drawn)


def _image_stem(item: dict[str, Any]) -> tuple[str, ...]:
    """A WFC output's files share its image's stem (none where the run failed)."""
    image = item["state"].get("image")
    return (Path(image).stem,) if image else ()


def _nested_text(state: dict[str, Any], result: dict[str, Any]) -> str:
    from ..domains.nested.generate import outline  # here: a page of another kind needs none

    return "\n".join(outline(state))


def _order_text(state: dict[str, Any], result: dict[str, Any]) -> str | None:
    """A play order (ppg enumerate) as lines `before → after`, with the nodes' names."""
    names = result.get("nodes")
    if not isinstance(names, list) or "edges" not in state:
        return None
    if any(max(edge) >= len(names) for edge in state["edges"]):  # an edited result.json
        return None
    return "\n".join(f"{names[a]} → {names[b]}" for a, b in state["edges"])


KINDS: dict[str, KindView] = {
    "space": KindView(lambda k, item: (f"best-{k}",), by_rank=True, seeded=False),
    "sudoku": KindView(  # a generated puzzle has a seed of its own; a solved one none
        lambda k, item: (f"puzzle-{k}", f"solution-{k}", "puzzle", "solution"),
        details="puzzles",
        seeded=False,
    ),
    "ppg": KindView(lambda k, item: (f"puzzle-{k}",), details="puzzles", text=_order_text),
    "wfc": KindView(lambda k, item: _image_stem(item), details="outputs"),
    "rooms": KindView(lambda k, item: ("map",)),
    "fling": KindView(lambda k, item: (f"board-{k}",), by_rank=True),
    "witness": KindView(
        lambda k, item: (f"solution-{k}", f"best-{k}", f"joint-{k}"), by_rank=True, seeded=False
    ),
    "tracery": KindView(lambda k, item: (), text=lambda state, result: state, by_rank=True),
    "nested": KindView(lambda k, item: (), text=_nested_text),
}


@dataclass(frozen=True)
class Source:
    """One output folder and, where known, the spec and --param overrides that built it."""

    folder: Path
    spec: Path | None = None
    params: dict[str, int] | None = None
    checked: bool = True  # False: its result.json was just written by this process


def write_gallery(
    folder: Path,
    spec: Path | None = None,
    params: dict[str, int] | None = None,
    *,
    checked: bool = True,
) -> Path:
    """Write `folder`/index.html for the build in `folder` and return its path.

    `spec` (the spec file) and `params` (the --param overrides) make the page's commands
    complete; without them the commands say SPEC. `checked=False` skips checking its
    result.json against the schemas, for the build that has just written it.
    """
    target = Path(folder) / PAGE
    source = Source(Path(folder), spec, params, checked)
    atomic_write(target, gallery_html([source], target.parent))
    return target


def write_merged_gallery(sources: list[Source], target: Path, flag: str | None = None) -> Path:
    """One page at `target` showing the builds of several folders together (`flag`: the
    option that named `target`, for atomic_write)."""
    atomic_write(target, gallery_html(sources, target.parent), flag)
    return target


def gallery_html(sources: list[Source], home: Path) -> str:
    """The page's text for `sources`, with file references relative to the folder `home`."""
    runs, items = [], []
    for index, source in enumerate(sources):
        result = _read_result(source)
        records, params = _records(result), _params(source, result)
        runs.append(_run_header(result, records, source, home, params))
        items += _items(result, records, source, params, home, index, len(sources) > 1)
    data = {"runs": runs, **_fields(items), "items": items, "page": CARDS_AT_ONCE}
    title = " + ".join(dict.fromkeys(run["spec"] for run in runs))
    template = resources.files(__package__).joinpath("gallery.html").read_text("utf-8")
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    payload = payload.replace("<", "\\u003c")  # no text in it can end the script element
    return template.replace("{{TITLE}}", _html(title)).replace("{{DATA}}", payload)


def _read_result(source: Source) -> dict[str, Any]:
    result = read_result(source.folder, source.checked)
    if result["kind"] not in KINDS:
        path = source.folder / "result.json"
        raise BuildError(f"{path}: not a result.json of one of the kinds {', '.join(KINDS)}")
    return result


def _run_header(
    result: dict[str, Any],
    records: list[dict[str, Any]],
    source: Source,
    home: Path,
    params: dict[str, int],
) -> dict[str, Any]:
    """The run's name, kind, parameters, seed and headline counts, as display text."""
    stats = [[label, _number(result.get(key))] for key, label in HEADLINE]
    flags = [r.get("unique") for r in records if isinstance(r.get("unique"), bool)]
    if flags:
        stats.append(["unique", f"{sum(flags):,} of {len(flags):,}"])
    stats.append(["time", f"{result.get('seconds', 0):,.3f} s"])
    extra = [
        [key, value if isinstance(value, str) else json.dumps(value)]
        for key, value in result.items()
        if key not in {"spec", "kind", "backend", "version", "seed", "best", "seconds"}
        and not isinstance(value, dict | list)
        and key not in dict(HEADLINE)
    ]
    booklet = source.folder / BOOKLET
    return {
        "spec": result["spec"],
        "kind": result["kind"],
        "backend": result.get("backend", ""),
        "seed": result.get("seed", 0),
        "version": result.get("version", ""),
        "folder": _relative(source.folder, home) or ".",
        "file": _named(str(source.spec)) if source.spec else "",
        "params": params,
        "stats": stats,
        "more": extra,
        "booklet": _relative(booklet, home) if booklet.is_file() else "",
    }


def _params(source: Source, result: dict[str, Any]) -> dict[str, int]:
    """The params the build used: as its result.json records them (refused where a --param
    given here names another value), else, for a build written before result.json held
    them, the spec's with the overrides applied (only the overrides without the spec)."""
    document = None
    if source.spec is not None:
        document = load_document(source.spec)
        built = document.data.get("name") or Path(source.spec).stem  # unnamed: its file's
        if built != result["spec"]:
            raise UsageError(
                f"--spec {source.spec} builds '{built}', but {source.folder} "
                f"holds a build of '{result['spec']}'; give the spec it was built from"
            )
    overrides = source.params or {}
    given = overrides if document is None else resolve_params(document, overrides)
    recorded = result.get("params")
    if not isinstance(recorded, dict):
        return dict(given)
    for name, value in overrides.items():
        if recorded.get(name) != value:
            used = ", ".join(f"{k}={v}" for k, v in recorded.items()) or "no params"
            raise UsageError(
                f"--param {name}={value}: {source.folder} was built with {used}; "
                "leave --param out, as its result.json holds the params"
            )
    return dict(recorded)


def _records(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Each item's record: its `best` entry merged with its per-item details, if any (the
    entry's rank, score and state kept where a detail of the same name would hide them)."""
    best = result.get("best") or []
    key = KINDS[result["kind"]].details
    details = result.get(key) if key else None
    if not (isinstance(details, list) and len(details) == len(best)):
        details = [{}] * len(best)
    # the entry's fields first (the card's order) and last (their values win)
    return [{**entry, **detail, **entry} for entry, detail in zip(best, details, strict=True)]


def _items(
    result: dict[str, Any],
    records: list[dict[str, Any]],
    source: Source,
    params: dict[str, int],
    home: Path,
    run: int,
    merged: bool,
) -> list[dict[str, Any]]:
    view = KINDS[result["kind"]]
    with os.scandir(source.folder) as entries:  # no stat per file, as Path.is_file makes
        present = sorted(e.name for e in entries if e.is_file())
    files_of = cache(partial(_files_of, present=present))  # stems every item shares, once
    folder = _relative(source.folder, home)  # the items' files are plain files in it
    folder += "/" if folder else ""
    items = []
    for k, record in enumerate(records):
        files = [name for stem in view.stems(k, record) for name in files_of(stem)]
        pictures = [n for n in files if n.endswith(PICTURES)]
        scores, tags = _scores(record)
        if merged:
            tags["folder"] = _relative(source.folder, home) or "."
        item: dict[str, Any] = {
            "run": run,
            "label": _label(record, k),
            "pics": [folder + n for n in _preferred(pictures)],
            "files": [folder + n for n in files],
            "scores": scores,
            "tags": tags,
            "cmd": _command(result, record, source, view, params),
            "json": dumps(record),
        }
        if not item["pics"]:
            state = record.get("state")
            text = view.text(state, result) if view.text else None
            item["text"] = json.dumps(state, ensure_ascii=False) if text is None else text
        items.append(item)
    return items


def _files_of(stem: str, present: list[str]) -> list[str]:
    """The files of one item: `stem.ext`, then its parts `stem-word...` (not `stem0` or
    `stem-0`, other items'): its own drawing before a part's (a Witness panel before its
    solution, a WFC map before its tileset's picture). `present` is sorted, so only the
    names that begin with `stem` are looked at."""
    found = []
    for k in range(bisect_left(present, stem), len(present)):
        name = present[k]
        if not name.startswith(stem):
            break
        rest = name[len(stem) :]
        if len(rest) > 1 and (rest[0] == "." or (rest[0] == "-" and rest[1] not in "0123456789")):
            found.append(name)
    return sorted(found, key=lambda name: name[len(stem)] == "-")


def _preferred(pictures: list[str]) -> list[str]:
    """One picture per drawing: the SVG where a PNG of the same drawing sits beside it."""
    svgs = {n[:-4] for n in pictures if n.endswith(".svg")}
    return [n for n in pictures if n.endswith(".svg") or n[:-4] not in svgs]


def _scores(record: dict[str, Any]) -> tuple[dict[str, float], dict[str, str]]:
    """Numbers to sort and filter by, and short texts (yes/no, grades) to filter by."""
    scores: dict[str, float] = {}
    tags: dict[str, str] = {}
    flat: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, dict) and key != "state":
            flat.update({f"{key}.{k}": v for k, v in value.items()})
        else:
            flat[key] = value
    for key, value in flat.items():
        if isinstance(value, bool):
            tags[key] = "yes" if value else "no"
        elif isinstance(value, int | float):
            scores[key] = value
        elif isinstance(value, str) and key != "state":
            tags[key] = value
    return scores, tags


def _fields(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The score names (in first-seen order) and the text fields that make useful filters:
    a few values, some shared by several items (not a file name per item)."""
    scores = list(dict.fromkeys(k for item in items for k in item["scores"]))
    values: dict[str, list[str]] = {}
    for item in items:
        for key, value in item["tags"].items():
            values.setdefault(key, []).append(value)
    tags = {
        key: sorted(set(seen))
        for key, seen in values.items()
        if 1 < len(set(seen)) <= TAG_VALUES and len(set(seen)) < len(seen)
    }
    for item in items:
        item["tags"] = {k: v for k, v in item["tags"].items() if k in tags}
    return {"scores": scores, "tags": tags}


def _label(record: dict[str, Any], k: int) -> str:
    if record.get("rank") is not None:
        return f"rank {record['rank']}"
    if isinstance(record.get("seed"), int):
        return f"seed {record['seed']}"
    return f"#{k + 1}"


def _command(
    result: dict[str, Any],
    record: dict[str, Any],
    source: Source,
    view: KindView,
    params: dict[str, int],
) -> str:
    """The command that gives this item again (for seeded items: the first of that build),
    with the params the build used."""
    spec = _named(str(source.spec)) if source.spec else "SPEC"
    overrides = [word for k, v in params.items() for word in ("--param", f"{k}={v}")]
    if view.by_rank and record.get("rank") is not None:
        words = ["epcg-spec", "sample", spec, "--rank", str(record["rank"])]
    else:
        own = record.get("seed") if isinstance(record.get("seed"), int) else None
        seed = own if own is not None or not view.seeded else result["seed"]
        words = ["epcg-spec", "build", spec, *(["--seed", str(seed)] if seed is not None else [])]
    return shlex.join([*words, *overrides])  # a name from result.json is no shell code


def _relative(path: Path, home: Path) -> str:
    """`path` relative to the page's folder, with forward slashes, for an href or src."""
    text = os.path.relpath(Path(path).resolve(), Path(home).resolve())
    return "" if text == "." else _named(text.replace(os.sep, "/"))


def _named(path: str) -> str:
    """`path` as the page's UTF-8 can hold it: each byte of a name that is not UTF-8 (which
    Python holds as a lone surrogate) as %XX, as a URL writes it."""
    return _NOT_UTF8.sub(lambda found: f"%{ord(found[0]) - 0xDC00:02X}", path)


_NOT_UTF8 = re.compile("[\udc80-\udcff]")


def _number(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, int) and value >= BIG:
        mantissa, exponent = f"{Decimal(value):.2e}".split("e+")
        return f"{mantissa} × 10" + "".join(SUPERSCRIPT[int(d)] for d in str(int(exponent)))
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
