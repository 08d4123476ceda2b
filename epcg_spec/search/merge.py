"""Merging the shards of one run (`epcg-spec merge`) into what a single run would write.

Exhaustive shards add their counts and merge their best lists by (score, rank); their files
(pictures of each shard's best) are not carried over, since the merged best list differs: the
caller draws them again (the domain's `merged_files`). Witness layout shards merge the same
way, their tallies added; the files of each merged best panel are those its shard drew,
renumbered (best-J... of a shard becomes best-K... of the merged list). Item shards
(wfc, sudoku, ppg, tracery) hold consecutive items: their per-item lists are joined in shard
order and their tallies added; a file that several shards wrote is one the items share where
their records list it (a WFC run's Tiled tileset: taken once, the same bytes in every shard),
else joined in shard order (Tracery's outputs.txt); every other file is taken as it is.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from ..core.context import RunOutput
from ..core.errors import BuildError, UsageError
from ..core.files import read_bounded
from ..core.inputs import changed_file
from ..core.result import TIMING_FIELDS
from ..core.sizes import counted
from ..output.booklet import BOOKLET
from ..output.gallery import PAGE
from ..output.result import GALLERY_SCHEMA, read_checked

FIRST = ("spec", "kind", "backend", "version", "seed", "inputs", "space_size", "objective", "top")
ITEM_KINDS = ("wfc", "sudoku", "ppg", "tracery")
ITEM_LISTS = ("best", "outputs", "puzzles")
ITEM_SUMS = ("evaluated", "count", "attempts", "contradictions", "backtracks")
TIME_SUMS = ("seconds", "compile_seconds")
DRAWN = ("result.json", PAGE, BOOKLET)  # a shard's files made from its result.json
# what each shard has of its own; every other field is the run's, the same in every shard
# (compared, those of FIRST first): a shard of another run (another --origin) is refused
OWN = {"shard", "partial", "pruned", "unique", "invalid", "solutions_histogram"}
OWN |= {*ITEM_LISTS, *ITEM_SUMS, *TIMING_FIELDS}
SHARD_SCHEMA = "shard.schema.json"


def read_shard(path: Path) -> dict[str, Any]:
    """A shard's result.json, checked to hold every field a merge reads, and the merged
    gallery page after it (BuildError if not)."""
    return read_checked(path, (SHARD_SCHEMA, GALLERY_SCHEMA), "a result.json of a shard")


def merge_results(results: list[dict[str, Any]], folders: list[Path]) -> RunOutput:
    """One result (and its files) equal to a single run over all the shards."""
    order = _check(results)
    results = [results[i] for i in order]
    folders = [folders[i] for i in order]
    first = results[0]
    files: dict[str, bytes] = {}
    if first.get("kind") == "witness":
        merged, files = _witness(results, folders)
    elif first.get("kind") == "space":
        merged = _exhaustive(results)
    elif first.get("kind") in ITEM_KINDS:
        merged, files = _items(results), _files(folders, _listed(results))
    else:
        raise UsageError(
            f"merge combines shards of space, witness and item kinds ({', '.join(ITEM_KINDS)}); "
            f"kind {first.get('kind')} is not sharded"
        )
    merged.update({k: round(sum(r.get(k, 0) for r in results), 3) for k in TIME_SUMS})
    if len({r.get("threads") for r in results}) > 1:  # each shard's own: no one count
        merged.pop("threads", None)
    units = counted(merged["shard"]["hi"] - merged["shard"]["lo"], "unit")
    summary = [
        f"{first['spec']}: merged {counted(len(results), 'shard')} ({units}): "
        f"count {merged['count']:,}"
    ]
    return RunOutput(result=merged, artifacts=files, summary=summary)


def _check(results: list[dict[str, Any]]) -> list[int]:
    """The results' order by shard index, once every shard is known to be there once."""
    first = results[0]
    for other in results[1:]:
        differ = {k for k in (set(first) | set(other)) - OWN if other.get(k) != first.get(k)}
        differ |= (set(first) ^ set(other)) & {*ITEM_LISTS, *ITEM_SUMS}  # one shard lacks it
        for key in sorted(differ, key=_first_named):
            if key == "inputs":  # the same spec, run with other sample images, maps, ...
                read = changed_file(first.get(key) or {}, other.get(key) or {})
                raise UsageError(
                    f"cannot merge: the results differ in 'inputs': the shards read "
                    f"different versions of {read}"
                )
            raise UsageError(f"cannot merge: the results differ in '{key}'")
    if any("partial" in r for r in results):
        raise UsageError("cannot merge a partial result: finish that shard with --resume first")
    shards = [(r.get("shard") or {}).get("index", -1) for r in results]
    count = (first.get("shard") or {}).get("count", 1)
    if len(results) != count or sorted(shards) != list(range(count)):
        raise UsageError(
            f"cannot merge: need each of the {count} shards exactly once, got {sorted(shards)}"
        )
    order = sorted(range(len(results)), key=shards.__getitem__)
    ranges = [(results[i]["shard"]["lo"], results[i]["shard"]["hi"]) for i in order]
    for index, ((_, end), (start, _)) in enumerate(pairwise(ranges), 1):
        if start != end:  # the units of another cut: a shard of another run (--no-prune)
            raise UsageError(
                f"cannot merge: shard {index} starts at unit {start:,}, but shard "
                f"{index - 1} ends at {end:,}; the shards must be of one run"
            )
    return order


def _first_named(key: str) -> tuple[int, str]:
    """The order in which fields are compared: those of FIRST first."""
    return (FIRST.index(key) if key in FIRST else len(FIRST), key)


def _exhaustive(results: list[dict[str, Any]]) -> dict[str, Any]:
    first = results[0]
    objective = first.get("objective")
    sign = -1 if objective and objective.get("sense") == "minimize" else 1
    top = first["top"]  # how many the spec keeps: each shard may have found fewer
    best = sorted(
        (b for r in results for b in r["best"]),
        key=lambda b: (-(sign * b["score"]) if b["score"] is not None else 0, b["rank"]),
    )[:top]
    merged = {key: first[key] for key in first if key not in ("shard", "best")}
    merged.update(
        shard={"index": 0, "count": 1, "lo": 0, "hi": first["space_size"]},
        evaluated=sum(r["evaluated"] for r in results),
        pruned=sum(r.get("pruned", 0) for r in results),
        count=sum(r["count"] for r in results),
        best=best,
    )
    return merged


def _witness(
    results: list[dict[str, Any]], folders: list[Path]
) -> tuple[dict[str, Any], dict[str, bytes]]:
    """Layout shards: tallies added, histograms added, best panels merged with their files."""
    first = results[0]
    sign = 1 if first["objective"]["sense"] == "minimize" else -1
    ranked = sorted(
        ((sign * b["score"], b["rank"], s, j) for s, r in enumerate(results) for j, b in
         enumerate(r["best"])),
    )[: first["top"]]  # fmt: skip
    histogram: dict[int, int] = {}
    for r in results:
        for solutions, panels in r["solutions_histogram"].items():
            histogram[int(solutions)] = histogram.get(int(solutions), 0) + panels
    merged = dict(first)
    merged.update(
        {key: sum(r[key] for r in results) for key in ("evaluated", "count", "unique", "invalid")},
        solutions_histogram={str(c): histogram[c] for c in sorted(histogram)},
        best=[results[s]["best"][j] for _, _, s, j in ranked],
        shard={
            "index": 0,
            "count": 1,
            "lo": first["shard"]["lo"],
            "hi": results[-1]["shard"]["hi"],
        },
    )
    files: dict[str, bytes] = {}
    for k, (_, _, s, j) in enumerate(ranked):
        files.update(_renumbered(folders[s], first["spec"], j, k))
    return merged, files


def _renumbered(folder: Path, spec: str, old: int, new: int) -> dict[str, bytes]:
    """The files of best entry `old` of a shard's folder as entry `new` of the merged list
    (in their names, and in the name of the spec each YAML file holds)."""
    stem, renamed = f"best-{old}", f"best-{new}"
    files = {}
    for path in sorted(Path(folder).iterdir()):
        name = path.name
        if name.startswith((stem + ".", stem + "-")):
            data = _read(path)
            if name.endswith(".yaml"):
                old_name = f"name: {spec}-{stem}\n".encode()
                data = data.replace(old_name, f"name: {spec}-{renamed}\n".encode(), 1)
            files[renamed + name[len(stem) :]] = data
    return files


def _items(results: list[dict[str, Any]]) -> dict[str, Any]:
    first = results[0]
    merged = dict(first)
    for key in ITEM_LISTS:
        if key in first:
            merged[key] = [item for r in results for item in r[key]]
    for key in ITEM_SUMS:
        if key in first:
            merged[key] = sum(r[key] for r in results)
    merged["shard"] = {
        "index": 0,
        "count": 1,
        "lo": results[0]["shard"]["lo"],
        "hi": results[-1]["shard"]["hi"],
    }
    return merged


def _listed(results: list[dict[str, Any]]) -> set[str]:
    """The files the shards' item records list as theirs (`files` of a WFC output)."""
    return {
        name
        for result in results
        for key in ITEM_LISTS
        for item in result.get(key) or []
        if isinstance(item, dict)
        for name in item.get("files") or []
    }


def _files(folders: list[Path], listed: set[str]) -> dict[str, bytes]:
    """Every shard's content files. A name in several shards is one file where the items
    list it (shared by items of several shards: refused unless the bytes agree), else joined
    in order. Not result.json, nor what is drawn from it (the gallery page, a booklet): those
    of the merged result are made anew."""
    files: dict[str, bytes] = {}
    for folder in folders:
        for path in sorted(Path(folder).iterdir()):
            if path.is_file() and path.name not in DRAWN and not path.name.startswith("."):
                data, before = _read(path), files.get(path.name)
                if before is None or path.name not in listed:
                    files[path.name] = (before or b"") + data
                elif before != data:
                    raise BuildError(
                        f"cannot merge: the shards wrote {path.name} differently, and their "
                        "items share it; build the shards again from one spec and version"
                    )
    return files


def _read(path: Path) -> bytes:
    """A shard's file; one that is not a regular file of bounded size (a pipe, a link
    loop) is refused in one line, never read forever, and so is a link, which a build
    never writes (it would copy a file from anywhere on the disk into the merged set)."""
    if path.is_symlink():
        raise BuildError(
            f"cannot read a shard's file: {path} is a symbolic link; a build writes none, "
            "so the folder is not a shard as its build left it"
        )
    try:
        return read_bounded(path)
    except OSError as exc:
        where = f"{path}: {exc.strerror}" if exc.strerror else str(exc)
        raise BuildError(f"cannot read a shard's file: {where}") from None
