"""`epcg-spec merge` given shards that are not what a build wrote (edited, truncated, of
another kind, or holding pipes and link loops): one line naming the file, never exit 3,
never a hang, and nothing written."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from tests.domains.space.helpers import SPECS


@pytest.fixture(scope="module")
def queens_shards(tmp_path_factory) -> list[Path]:
    root = tmp_path_factory.mktemp("queens")
    shards = [root / f"s{i}" for i in range(2)]
    for i, out in enumerate(shards):
        run = ["build", str(SPECS / "n-queens.yaml"), "--param", "n=6", "--shard", f"{i}/2"]
        assert main([*run, "-q", "--out", str(out)]) == 0
    return shards


def _copies(shards: list[Path], where: Path) -> list[Path]:
    for shard in shards:
        shutil.copytree(shard, where / shard.name)
    return [where / shard.name for shard in shards]


def _edit(folder: Path, change) -> None:
    path = folder / "result.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps(change(data)))


def _set(key, value):
    return lambda data: {**data, key: value}


def _without(key):
    return lambda data: {k: v for k, v in data.items() if k != key}


def _states(value):
    return lambda data: {**data, "best": [{**b, "state": value} for b in data["best"]]}


EDITS = {
    "a list": lambda data: [data],
    "no best": _without("best"),
    "no top": _without("top"),
    "no shard": _without("shard"),
    "count as text": _set("count", "4"),
    "count too large for an integer": _set("count", 1e308),
    "best as text": _set("best", "x"),
    "a best state of null": _states(None),
    "a best state of text": _states({"q": ["a", "b"]}),
    "objective as text": _set("objective", "max"),
    "evaluated null": _set("evaluated", None),
    "space size as text": _set("space_size", "big"),
    "seconds of NaN, which JSON has not": _set("seconds", float("nan")),
    "compile seconds past a float": _set("compile_seconds", 10**400),
}


@pytest.mark.parametrize("edit", EDITS)
def test_an_edited_queens_shard_is_named_in_one_line(edit, queens_shards, tmp_path, capsys):
    shards = _copies(queens_shards, tmp_path)
    _edit(shards[1], EDITS[edit])  # the shard that holds solutions (n = 6 has 4)
    out = tmp_path / "merged"
    assert main(["merge", *map(str, shards), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith(f"error: {shards[1] / 'result.json'}: not a result.json of a shard (")
    assert not out.exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set("kind", "nope"), "kind nope is not sharded"),
        (lambda d: {**d, "shard": {**d["shard"], "count": 10**12}}, "each of the 1000000000000"),
    ],
    ids=["an unknown kind", "a trillion shards"],
)
def test_queens_shards_that_do_not_make_a_run_are_refused(
    change, message, queens_shards, tmp_path, capsys
):
    shards = _copies(queens_shards, tmp_path)
    for shard in shards:
        _edit(shard, change)
    assert main(["merge", *map(str, shards), "--out", str(tmp_path / "merged")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


@pytest.fixture(scope="module")
def witness_shards(tmp_path_factory) -> list[Path]:
    root = tmp_path_factory.mktemp("witness")
    shards = [root / f"s{i}" for i in range(2)]
    for i, out in enumerate(shards):
        run = ["build", str(SPECS / "witness-must-cross.yaml"), "--param", "hexagons=2"]
        assert main([*run, "--shard", f"{i}/2", "-q", "--out", str(out)]) == 0
    return shards


@pytest.mark.parametrize("make", ["pipe", "link loop", "link elsewhere"])
def test_a_witness_shard_file_that_is_a_make_is_refused_not_read(
    make, witness_shards, tmp_path, capsys
):
    """The best panels' files are copied from their shard: a pipe in their place would be
    read forever, a link loop was an internal error, and a link to a file elsewhere copied
    that file (any the user can read) into the merged folder."""
    shards = _copies(witness_shards, tmp_path)
    best = json.loads((shards[0] / "result.json").read_text())["best"]
    assert best, "shard 0 holds a best panel, whose files the merge copies"
    picture = shards[0] / "best-0.svg"
    picture.unlink()
    if make == "pipe":
        os.mkfifo(picture)
    elif make == "link loop":
        picture.symlink_to(picture.name)
    else:
        (tmp_path / "private.svg").write_text("<svg>private</svg>")
        picture.symlink_to(tmp_path / "private.svg")
    assert main(["merge", *map(str, shards), "--out", str(tmp_path / "merged")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: cannot read a shard's file: {picture}")
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "merged").exists()


def test_a_link_among_an_item_shards_files_is_refused_not_copied(tmp_path, capsys):
    """Every file of an item kind's shard is carried over: through a link, a file from
    anywhere on the disk was copied into the merged folder."""
    shards = [tmp_path / f"s{i}" for i in range(2)]
    for i, out in enumerate(shards):
        run = ["build", str(SPECS / "tracery-weather.epcg"), "--shard", f"{i}/2"]
        assert main([*run, "-q", "--out", str(out)]) == 0
    capsys.readouterr()
    (tmp_path / "private.txt").write_text("private\n")
    (shards[1] / "notes.txt").symlink_to(tmp_path / "private.txt")
    assert main(["merge", *map(str, shards), "--out", str(tmp_path / "merged")]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (
        f"error: cannot read a shard's file: {shards[1] / 'notes.txt'} is a symbolic link; "
        "a build writes none, so the folder is not a shard as its build left it"
    )
    assert not (tmp_path / "merged").exists()


@pytest.fixture(scope="module")
def sudoku_shards(tmp_path_factory) -> list[Path]:
    root = tmp_path_factory.mktemp("sudoku")
    shards = [root / f"s{i}" for i in range(2)]
    for i, out in enumerate(shards):
        run = ["build", str(SPECS / "sudoku-4x4.epcg"), "--shard", f"{i}/2"]
        assert main([*run, "-q", "--out", str(out)]) == 0
    return shards


ITEM_EDITS = {  # each passed the merge's checks, then failed: exit 3
    "puzzles as text, which the merged page reads": lambda d: {**d, "puzzles": ["x"]},
    "a puzzle's files as a number": lambda d: {**d, "puzzles": [{**d["puzzles"][0], "files": 1.5}]},
}


@pytest.mark.parametrize("edit", ITEM_EDITS)
def test_an_item_shard_that_the_merge_cannot_read_is_refused(edit, sudoku_shards, tmp_path, capsys):
    shards = _copies(sudoku_shards, tmp_path)
    _edit(shards[1], ITEM_EDITS[edit])
    assert main(["merge", *map(str, shards), "--out", str(tmp_path / "merged")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {shards[1] / 'result.json'}: not a result.json of a shard (")
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "merged").exists()


def test_an_item_shard_without_the_items_list_is_refused(sudoku_shards, tmp_path, capsys):
    """The merge joined each list the first shard holds, reading it from every shard: a
    shard without it was a KeyError, exit 3."""
    shards = _copies(sudoku_shards, tmp_path)
    _edit(shards[1], _without("puzzles"))
    assert main(["merge", *map(str, shards), "--out", str(tmp_path / "merged")]) == 2
    assert capsys.readouterr().err.strip() == (
        "usage error: cannot merge: the results differ in 'puzzles'"
    )
    assert not (tmp_path / "merged").exists()


def test_a_witness_histogram_of_a_5000_digit_count_is_refused(witness_shards, tmp_path, capsys):
    shards = _copies(witness_shards, tmp_path)
    _edit(shards[0], lambda d: {**d, "solutions_histogram": {"9" * 5000: 1}})
    assert main(["merge", *map(str, shards), "--out", str(tmp_path / "merged")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {shards[0] / 'result.json'}: not a result.json of a shard (")
    assert len(err.splitlines()) == 1
