"""`epcg_spec.merge`: the shards of one run joined from Python, as `epcg-spec merge` does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.core.result import without_timings

SPECS = Path(__file__).resolve().parents[2] / "specs"


def _content(folder: Path) -> dict[str, bytes]:
    """The folder's files but result.json (its timings) and the page (it names the folder)."""
    skip = ("result.json", "index.html")
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.name not in skip}


def test_merge_joins_shards_as_the_command_does(tmp_path):
    """The API had no merge: a program that built shards had to run the command."""
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 7})
    one = spec.build(tmp_path / "one")
    shards = [spec.build(tmp_path / f"s{i}", shard=(i, 2)) for i in range(2)]
    assert sum(s.count for s in shards) == 40  # the solutions of 7-queens
    merged = epcg_spec.merge(
        [tmp_path / "s1", str(tmp_path / "s0" / "result.json")], tmp_path / "m"
    )
    assert merged.count == one.count == 40 and merged.complete
    assert without_timings(merged.data) == without_timings(one.data)
    assert json.loads((tmp_path / "m" / "result.json").read_text()) == merged.data
    assert merged.written[-1] == tmp_path / "m" / "index.html"
    assert _content(tmp_path / "m") == _content(tmp_path / "one")
    argv = ["merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(tmp_path / "c")]
    assert main(argv) == 0  # the command goes through it: the same files
    assert _content(tmp_path / "c") == _content(tmp_path / "m")


@pytest.mark.parametrize(
    ("shards", "message"),
    [
        ("out/s0", "shards 'out/s0': give a list of the shards' folders or result.json files"),
        ([], "shards []: give a list of the shards' folders or result.json files"),
        ([3], "shards [3]: give a list of the shards' folders or result.json files"),
    ],
)
def test_merge_refuses_arguments_that_name_no_shards(shards, message, tmp_path):
    with pytest.raises(epcg_spec.UsageError) as caught:
        epcg_spec.merge(shards, tmp_path / "m")
    assert str(caught.value) == message
    assert not (tmp_path / "m").exists()


def test_a_folder_that_holds_no_shard_is_a_build_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(epcg_spec.BuildError) as caught:
        epcg_spec.merge([tmp_path / "empty"], tmp_path / "m")
    assert str(caught.value).startswith(
        f"{tmp_path / 'empty' / 'result.json'}: not a result.json of a shard ([Errno 2] "
    )
    assert not (tmp_path / "m").exists()


def test_merge_of_one_shard_of_two_is_refused(tmp_path):
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 6})
    spec.build(tmp_path / "s0", shard=(0, 2))
    with pytest.raises(epcg_spec.UsageError, match="need each of the 2 shards exactly once"):
        epcg_spec.merge([tmp_path / "s0"], tmp_path / "m")
    assert not (tmp_path / "m").exists()
