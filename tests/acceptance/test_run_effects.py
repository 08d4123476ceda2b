"""The run flags' effects, for every kind whose work splits: shards, resume, time limits,
kill -9 and Ctrl-C all give the same content as one uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.core import files
from epcg_spec.core.context import RunContext
from epcg_spec.core.errors import UsageError
from epcg_spec.core.result import without_timings
from epcg_spec.core.seal import sealed, unsealed
from epcg_spec.search import driver, items
from epcg_spec.spec.schema import validate_data
from tests.checkout import checkout_env
from tests.deadline import deadline
from tests.domains.space.helpers import SPECS

ITEM_SPECS = ["sudoku-4x4.epcg", "tracery-weather.epcg", "wfc-flowers.yaml", "ppg-escape-room.yaml"]
LISTS = ("best", "outputs", "puzzles")  # the per-item lists of the item kinds' results


def _build(spec: str, out: Path, *flags: str) -> int:
    return main(["build", str(SPECS / spec), "--out", str(out), "-q", *flags])


def _result(out: Path) -> dict:
    return without_timings(json.loads((out / "result.json").read_text()))


def _files(out: Path) -> dict[str, bytes]:
    # the content: not result.json, the gallery page (it names its own folder's files) nor the
    # bookkeeping (.checkpoint.json, the output set's manifest)
    pages = ("result.json", "index.html")
    return {
        p.name: p.read_bytes()
        for p in out.iterdir()
        if p.name not in pages and not p.name.startswith(".")
    }


@pytest.mark.parametrize("spec", ITEM_SPECS)
def test_item_shards_together_are_the_single_run(spec, tmp_path):
    assert _build(spec, tmp_path / "one") == 0
    assert _build(spec, tmp_path / "s0", "--shard", "0/2") == 0
    assert _build(spec, tmp_path / "s1", "--shard", "1/2") == 0
    one, s0, s1 = (_result(tmp_path / n) for n in ("one", "s0", "s1"))
    for key in LISTS:
        if key in one:
            assert s0[key] + s1[key] == one[key]
    assert s0["shard"]["hi"] == s1["shard"]["lo"] and s1["shard"]["hi"] == one["shard"]["hi"]
    whole, first, second = (_files(tmp_path / n) for n in ("one", "s0", "s1"))
    if "outputs.txt" in whole:  # tracery: one text file of every output, in order
        joined = first.pop("outputs.txt") + second.pop("outputs.txt")
        assert joined == whole.pop("outputs.txt")
    assert {**first, **second} == whole
    merged = tmp_path / "merged"
    assert main(["merge", str(tmp_path / "s1"), str(tmp_path / "s0"), "--out", str(merged)]) == 0
    assert _result(merged) == one
    assert _files(merged) == _files(tmp_path / "one")


def test_shards_on_other_thread_counts_merge_and_say_so_where_they_agree(tmp_path):
    for threads in ("1", "2"):
        for i in range(2):
            out = tmp_path / f"t{threads}-s{i}"
            assert _build("n-queens.yaml", out, "--shard", f"{i}/2", "--threads", threads) == 0
    for name, threads in (("m1", 1), ("m2", 2), ("mixed", None)):
        pair = ("t1-s0", "t1-s1") if name == "m1" else ("t2-s0", "t2-s1")
        pair = ("t1-s0", "t2-s1") if name == "mixed" else pair
        argv = ["merge", *(str(tmp_path / p) for p in pair), "--out", str(tmp_path / name)]
        assert main(argv) == 0
        merged = json.loads((tmp_path / name / "result.json").read_text())
        assert merged.get("threads") == threads
    assert _result(tmp_path / "mixed") == _result(tmp_path / "m1")


def test_shards_of_different_runs_are_refused(tmp_path, capsys):
    """Two origins of one grammar with as many outputs each (4 verbs, 4 names): merge
    checked a few fields only, and joined verbs and names under the first origin."""
    for i, origin in enumerate(("#verb#", "#name#")):
        flags = ("--shard", f"{i}/2", "--origin", origin)
        assert _build("tracery-heroes.yaml", tmp_path / f"s{i}", *flags) == 0
    merged = tmp_path / "merged"
    assert main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(merged)]) == 2
    assert capsys.readouterr().err == "usage error: cannot merge: the results differ in 'origin'\n"
    assert not merged.exists()


def test_shards_that_do_not_tile_the_units_are_refused(tmp_path, capsys):
    """Prefix pruning cuts 9-queens into 1 block, not 6: shard 1/2 with it covers every rank,
    which shard 0/2 without it covered in part. merge added them up: 552 solutions of 352."""
    run = ["build", str(SPECS / "n-queens.yaml"), "--param", "n=9", "-q"]
    assert main([*run, "--shard", "0/2", "--no-prune", "--out", str(tmp_path / "s0")]) == 0
    assert main([*run, "--shard", "1/2", "--out", str(tmp_path / "s1")]) == 0
    merged = tmp_path / "merged"
    assert main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(merged)]) == 2
    assert capsys.readouterr().err == (
        "usage error: cannot merge: shard 1 starts at unit 0, but shard 0 ends at 196,608; "
        "the shards must be of one run\n"
    )
    assert not merged.exists()


def test_a_merge_writes_one_gallery_page_of_every_item(tmp_path):
    """merge joined the shards' pages into one file, each page showing its own shard."""
    shards = [tmp_path / f"s{i}" for i in range(2)]
    for i, out in enumerate(shards):
        assert _build("tracery-heroes.yaml", out, "--shard", f"{i}/2") == 0
    merged = tmp_path / "merged"
    assert main(["merge", *map(str, shards), "--out", str(merged)]) == 0
    page = (merged / "index.html").read_text()
    assert page.count("<html") == 1
    outputs = (merged / "outputs.txt").read_text().splitlines()
    assert len(outputs) == 12 and all(text in page for text in outputs)


def test_a_merge_names_the_count_it_prints(tmp_path, capsys):
    """It printed `merged 2 shards (12 units): 12`, a number without a name."""
    shards = [tmp_path / f"s{i}" for i in range(2)]
    for i, out in enumerate(shards):
        assert _build("tracery-heroes.yaml", out, "--shard", f"{i}/2") == 0
    capsys.readouterr()
    assert main(["merge", *map(str, shards), "--out", str(tmp_path / "merged")]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "tracery-heroes: merged 2 shards (12 units): count 12"


def test_space_shards_that_each_find_fewer_than_top_merge_to_the_single_run(tmp_path):
    """9-queens unpruned in 6 blocks, top 1000: each shard keeps every one of its
    solutions, and the merge keeps all 352 (the spec's top), not one shard's number."""
    spec = tmp_path / "queens.yaml"
    spec.write_text((SPECS / "n-queens.yaml").read_text().replace("top: 3", "top: 1000"))
    run = ["build", str(spec), "-q", "--param", "n=9", "--no-prune"]
    assert main([*run, "--out", str(tmp_path / "one")]) == 0
    for i in range(2):
        assert main([*run, "--shard", f"{i}/2", "--out", str(tmp_path / f"s{i}")]) == 0
    merged = tmp_path / "merged"
    assert main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(merged)]) == 0
    one = _result(tmp_path / "one")
    assert len(one["best"]) == one["count"] == 352
    assert max(len(_result(tmp_path / f"s{i}")["best"]) for i in range(2)) < 352
    assert _result(merged) == one and _files(merged) == _files(tmp_path / "one")
    assert (merged / "index.html").is_file()  # a space merge wrote no page


def test_witness_shards_merge_to_the_single_run_with_its_pictures(tmp_path):
    """Most solutions: the best panels lie in different shards, so merging renumbers
    the files each shard drew."""
    text = (SPECS / "witness-must-cross.yaml").read_text()
    text = text.replace("fewest-solutions", "most-solutions").replace("top: 3", "top: 4")
    spec = tmp_path / "most.yaml"
    spec.write_text(text)
    run = ["build", str(spec), "-q", "--param", "hexagons=2"]
    assert main([*run, "--out", str(tmp_path / "one")]) == 0
    shards = [tmp_path / f"s{i}" for i in range(8)]
    for i, out in enumerate(shards):
        assert main([*run, "--shard", f"{i}/8", "--out", str(out)]) == 0
    merged = tmp_path / "merged"
    assert main(["merge", *map(str, reversed(shards)), "--out", str(merged)]) == 0
    one = _result(tmp_path / "one")
    assert _result(merged) == one
    assert _files(merged) == _files(tmp_path / "one")
    holding = {i for i, out in enumerate(shards) for b in _result(out)["best"] if b in one["best"]}
    assert len(holding) > 1 and len(one["best"]) == 4 and one["evaluated"] == 780  # C(40, 2)


@pytest.mark.parametrize("spec", ITEM_SPECS)
def test_an_interrupted_item_build_resumes_to_the_same_content(spec, tmp_path, monkeypatch):
    assert _build(spec, tmp_path / "one") == 0
    real, calls = items.ItemJob.work, []

    def ctrl_c_on_second_chunk(self, lo, hi):
        calls.append(lo)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self, lo, hi)

    monkeypatch.setattr(items.ItemJob, "work", ctrl_c_on_second_chunk)
    monkeypatch.setattr(driver, "CHECKPOINT_SECONDS", 0.0)
    out = tmp_path / "two"
    assert _build(spec, out) == 130
    partial = _result(out)
    assert partial["partial"] == {"stopped": "interrupted", "units_done": 1}
    assert _build(spec, out) == 2  # a checkpoint is never discarded silently
    monkeypatch.setattr(items.ItemJob, "work", real)
    assert _build(spec, out, "--resume") == 0
    assert _result(out) == _result(tmp_path / "one")
    assert _files(out) == _files(tmp_path / "one")
    assert not (out / driver.CHECKPOINT_NAME).exists()


@pytest.mark.parametrize(("shard", "indices"), [((0, 1), [0, 1, 2, 3, 4]), ((1, 2), [2, 3, 4])])
def test_the_item_made_while_compiling_is_made_again_and_timed_apart(shard, indices):
    """The run's first item was made while the kernels compiled and kept, its own time (a
    Sudoku puzzle's 'seconds', shown per puzzle and sorted by in the gallery) holding the
    compile: 1,483.6 ms for a puzzle of 0.5 ms."""
    made = []

    def make(i: int) -> items.Item:
        began = time.perf_counter()
        if not made:
            time.sleep(0.2)  # the first call compiles
        made.append(i)
        return items.Item({"index": i, "seconds": time.perf_counter() - began})

    job = items.ItemJob("five", 5, make)
    report = driver.run(job, RunContext(shard=shard), None)
    assert report.complete and report.compile_seconds >= 0.2
    assert [item.record["index"] for item in job.items] == indices
    assert made == [indices[0], *indices]
    assert max(item.record["seconds"] for item in job.items) < 0.2


def test_a_time_limit_stops_between_units_and_resume_finishes(tmp_path):
    spec, out = "sudoku-4x4.epcg", tmp_path / "limited"
    assert _build(spec, tmp_path / "one") == 0
    assert _build(spec, out, "--time-limit", "1e-9") == 0
    assert _result(out)["partial"]["stopped"] == "time limit"
    for _ in range(5):  # each resume under the same limit makes at least one more unit
        assert _build(spec, out, "--time-limit", "1e-9", "--resume") == 0
        if "partial" not in _result(out):
            break
    assert _result(out) == _result(tmp_path / "one")


def test_each_item_is_saved_once_in_parts_beside_the_checkpoint(tmp_path, monkeypatch):
    """A save writes only the items made since the last one, as a part; a resumed run reads
    the parts back and goes on adding its own (so saving stays linear in the items)."""
    monkeypatch.setattr(driver, "CHECKPOINT_SECONDS", 0.0)
    saved, as_state = [], items.Item.as_state
    monkeypatch.setattr(
        items.Item, "as_state", lambda item: saved.append(item.record["i"]) or as_state(item)
    )

    def job() -> items.ItemJob:
        return items.ItemJob(
            "ten", 10, lambda i: items.Item({"i": i}, {f"{i}.txt": str(i)}), fixed=2
        )

    assert driver.run(job(), RunContext(work_dir=tmp_path, unit_limit=6), "k").stopped
    parts = tmp_path / driver.PARTS_NAME
    assert sorted(p.name for p in parts.iterdir()) == [f"items-{n:012d}.json" for n in (0, 2, 4)]
    assert saved == [0, 1, 2, 3, 4, 5]
    resumed = job()
    assert driver.run(resumed, RunContext(work_dir=tmp_path, resume=True), "k").complete
    assert saved == list(range(10))
    assert [(i.record, i.files) for i in resumed.items] == [
        ({"i": i}, {f"{i}.txt": str(i)}) for i in range(10)
    ]
    saved_last = json.loads((tmp_path / driver.CHECKPOINT_NAME).read_text())
    assert saved_last["next"] == 10  # complete, kept until the caller has written the output
    driver.discard(tmp_path)
    assert not parts.exists() and not (tmp_path / driver.CHECKPOINT_NAME).exists()


def test_lists_inside_a_snapshot_are_kept_in_parts_too(tmp_path):
    """A search's tally (ppg's orders and canonical forms) nests its growing lists."""
    saving = driver.OutCheckpoint(tmp_path / driver.CHECKPOINT_NAME, "k")
    seen = [b"\x01", b"\x02"]
    for following in (3, 4):
        tally = {"count": len(seen), "seen": driver.Appended(seen, bytes.hex)}
        saving.save(following, {"taken": tally, "ended": False})
        seen.append(b"\x03")
    parts = sorted(p.name for p in (tmp_path / driver.PARTS_NAME).iterdir())
    assert parts == ["taken.seen-000000000000.json", "taken.seen-000000000002.json"]
    loaded = driver.OutCheckpoint(tmp_path / driver.CHECKPOINT_NAME, "k")
    saved = loaded.load(RunContext(work_dir=tmp_path, resume=True))
    assert saved["next"] == 4
    assert saved["state"] == {"taken": {"count": 3, "seen": ["01", "02", "03"]}, "ended": False}


@pytest.mark.parametrize("text", ["[{", "7"])
def test_a_damaged_part_asks_for_fresh(text, tmp_path, monkeypatch):
    """A part that is no JSON, or no list (which was an internal error)."""
    monkeypatch.setattr(driver, "CHECKPOINT_SECONDS", 0.0)
    job = items.ItemJob("four", 4, lambda i: items.Item({"i": i}), fixed=1)
    assert driver.run(job, RunContext(work_dir=tmp_path, unit_limit=2), "k").stopped
    (tmp_path / driver.PARTS_NAME / "items-000000000001.json").write_text(text)
    with pytest.raises(UsageError, match=r"items-000000000001\.json cannot be read.*--fresh"):
        driver.run(
            items.ItemJob("four", 4, job.make), RunContext(work_dir=tmp_path, resume=True), "k"
        )


@pytest.mark.parametrize(
    "names",
    [[["../../secret.json", "0" * 64]], [[str(Path("/etc/passwd")), "0" * 64]], "items", [3]],
)
def test_a_checkpoint_naming_parts_elsewhere_is_refused_unread(names, tmp_path, monkeypatch):
    """A checkpoint with the right key but part names with a folder in them read files
    outside the output folder on --resume (a list there joined the run's items). Sealed
    again here, as by someone who forges one: the seal catches edits, not forgeries."""
    secret = tmp_path / "secret.json"
    secret.write_text('[{"i": 99}]')
    folder = tmp_path / "a" / "b"
    monkeypatch.setattr(driver, "CHECKPOINT_SECONDS", 0.0)
    job = items.ItemJob("four", 4, lambda i: items.Item({"i": i}), fixed=1)
    assert driver.run(job, RunContext(work_dir=folder, unit_limit=2), "k").stopped
    saved = unsealed(json.loads((folder / driver.CHECKPOINT_NAME).read_text()))
    saved["state"]["items"]["$parts"] = names
    (folder / driver.CHECKPOINT_NAME).write_text(json.dumps(sealed(saved)))
    with pytest.raises(UsageError, match=r"is damaged: its parts are named by plain file names"):
        driver.run(
            items.ItemJob("four", 4, job.make), RunContext(work_dir=folder, resume=True), "k"
        )


@pytest.mark.parametrize("text", ["[1, 2]", '{"format": 3, "key": "k", "inputs": [1]}'])
def test_a_damaged_checkpoint_asks_for_fresh(text, tmp_path):
    """A checkpoint that was a list, or listed its input files as one, was an internal
    error (AttributeError)."""
    (tmp_path / driver.CHECKPOINT_NAME).write_text(text)
    job = items.ItemJob("four", 4, lambda i: items.Item({"i": i}))
    with pytest.raises(UsageError, match=r"checkpoint\.json is damaged; run with --fresh"):
        driver.run(job, RunContext(work_dir=tmp_path, resume=True), "k")


EDITED_CHECKPOINTS = {  # each was exit 3, or a result that was not the run's
    "its next unit past the end": lambda saved: {**saved, "next": 10**30},
    "its count as text": lambda saved: {**saved, "state": {**saved["state"], "count": "x"}},
    "its state emptied": lambda saved: {**saved, "state": {}},
    "its seal taken out": lambda saved: {k: v for k, v in saved.items() if k != "seal"},
}


@pytest.mark.parametrize("edit", EDITED_CHECKPOINTS)
def test_an_edited_checkpoint_is_refused_in_one_line(edit, tmp_path, capsys):
    """Its next unit past the end gave a complete result of the units done so far."""
    run = ["build", str(SPECS / "n-queens.yaml"), "--param", "n=10", "--out", str(tmp_path), "-q"]
    assert main([*run, "--time-limit", "1e-9"]) == 0
    path = tmp_path / driver.CHECKPOINT_NAME
    path.write_text(json.dumps(EDITED_CHECKPOINTS[edit](json.loads(path.read_text()))))
    partial = _result(tmp_path)
    capsys.readouterr()
    assert main([*run, "--resume"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"usage error: {path} is damaged: it is not what its run saved (its seal differs); "
        "run with --fresh to start over"
    )
    assert _result(tmp_path) == partial
    assert main([*run, "--fresh"]) == 0 and _result(tmp_path)["count"] == 724  # 10-queens


FORGED_CHECKPOINTS = {  # edited and sealed again, as anyone can: each was exit 3, or a
    # result that was not the run's
    "its next unit past the end": (
        lambda saved: {**saved, "next": 10**30},
        "its next unit is not one of this run's 0..",
    ),
    "its next unit as text": (lambda saved: {**saved, "next": "3"}, "its next unit is not one"),
    "its count as text": (
        lambda saved: {**saved, "state": {**saved["state"], "count": "x"}},
        "its state holds 'x' where a count goes",
    ),
    "its state emptied": (
        lambda saved: {**saved, "state": {}},
        "its state is not what this run saves (KeyError",
    ),
}


@pytest.mark.parametrize("forge", FORGED_CHECKPOINTS)
def test_a_forged_checkpoint_is_refused_in_one_line(forge, tmp_path, capsys):
    run = ["build", str(SPECS / "n-queens.yaml"), "--param", "n=10", "--out", str(tmp_path), "-q"]
    assert main([*run, "--time-limit", "1e-9"]) == 0
    path = tmp_path / driver.CHECKPOINT_NAME
    change, why = FORGED_CHECKPOINTS[forge]
    path.write_text(json.dumps(sealed(change(unsealed(json.loads(path.read_text()))))))
    partial = _result(tmp_path)
    capsys.readouterr()
    assert main([*run, "--resume"]) == 2
    line = capsys.readouterr().err.strip()
    assert line.startswith(f"usage error: {path} cannot be resumed: {why}"), line
    assert "\n" not in line and line.endswith("; run with --fresh")
    assert _result(tmp_path) == partial


def test_a_part_whose_bytes_changed_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(driver, "CHECKPOINT_SECONDS", 0.0)
    job = items.ItemJob("four", 4, lambda i: items.Item({"i": i}), fixed=1)
    assert driver.run(job, RunContext(work_dir=tmp_path, unit_limit=2), "k").stopped
    (tmp_path / driver.PARTS_NAME / "items-000000000001.json").write_text('[{"i": 7}]')
    with pytest.raises(
        UsageError,
        match=r"part items-000000000001\.json cannot be read \(it is not what its run saved",
    ):
        driver.run(
            items.ItemJob("four", 4, job.make), RunContext(work_dir=tmp_path, resume=True), "k"
        )


@pytest.mark.parametrize("pipe", [driver.CHECKPOINT_NAME, "part"])
def test_a_checkpoint_or_part_that_is_a_pipe_is_refused_not_read(pipe, tmp_path, monkeypatch):
    """A folder from elsewhere with a pipe in the checkpoint's place: --resume waited forever."""
    monkeypatch.setattr(driver, "CHECKPOINT_SECONDS", 0.0)
    job = items.ItemJob("four", 4, lambda i: items.Item({"i": i}), fixed=1)
    assert driver.run(job, RunContext(work_dir=tmp_path, unit_limit=2), "k").stopped
    if pipe == "part":
        pipe = f"{driver.PARTS_NAME}/items-000000000001.json"
    (tmp_path / pipe).unlink()
    os.mkfifo(tmp_path / pipe)
    with deadline(10), pytest.raises(UsageError, match=r"is not a regular file.*--fresh"):
        driver.run(
            items.ItemJob("four", 4, job.make), RunContext(work_dir=tmp_path, resume=True), "k"
        )


def test_a_stop_while_the_files_are_written_keeps_the_checkpoint(tmp_path, monkeypatch, capsys):
    """The driver removed the checkpoint once the work was done, before the files were
    written: Ctrl-C (or a kill) while writing a large output set lost the whole run."""
    spec, out = "sudoku-4x4.epcg", tmp_path / "out"
    assert _build(spec, tmp_path / "one") == 0
    write_outputs = epcg_spec.api.write_outputs

    def ctrl_c_while_writing(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(epcg_spec.api, "write_outputs", ctrl_c_while_writing)
    assert _build(spec, out) == 130
    assert (out / driver.CHECKPOINT_NAME).exists()
    assert f"continue with: epcg-spec build {SPECS / spec} --out {out} -q --resume" in (
        capsys.readouterr().err
    )
    monkeypatch.setattr(epcg_spec.api, "write_outputs", write_outputs)
    made = []
    monkeypatch.setattr(items.ItemJob, "work", lambda job, lo, hi: made.append(lo) or [])
    assert _build(spec, out, "--resume") == 0
    assert made == []  # every puzzle was in the checkpoint
    assert _result(out) == _result(tmp_path / "one") and _files(out) == _files(tmp_path / "one")
    assert not (out / driver.CHECKPOINT_NAME).exists()


def test_fresh_discards_a_checkpoint(tmp_path):
    out = tmp_path / "out"
    assert _build("sudoku-4x4.epcg", out, "--time-limit", "1e-9") == 0
    assert (out / driver.CHECKPOINT_NAME).exists()
    assert _build("sudoku-4x4.epcg", out, "--fresh") == 0
    assert "partial" not in _result(out)


def test_a_spec_that_names_no_file_keeps_its_result_and_checkpoint_as_they_were(tmp_path):
    """Only a spec that reads files beside it (a sample image, a map) gets `inputs`."""
    out = tmp_path / "out"
    assert _build("sudoku-4x4.epcg", out, "--time-limit", "1e-9") == 0
    assert set(json.loads((out / driver.CHECKPOINT_NAME).read_text())) == {
        "format", "key", "next", "state", "seal"
    }  # fmt: skip
    assert _build("sudoku-4x4.epcg", out, "--resume") == 0
    assert _build("sudoku-4x4.epcg", tmp_path / "one") == 0
    assert "inputs" not in _result(out) and _result(out) == _result(tmp_path / "one")


def test_a_checkpoint_of_other_params_is_refused(tmp_path, capsys):
    """A kind's key held the spec's document, whose params are the defaults, not the values
    given: a resume with another --param took the checkpoint (witness, wfc, sudoku, ppg)."""
    out = tmp_path / "out"
    run = ["build", str(SPECS / "witness-must-cross.yaml"), "--out", str(out), "-q"]
    assert main([*run, "--param", "hexagons=3", "--time-limit", "1e-9"]) == 0
    assert (out / driver.CHECKPOINT_NAME).exists()
    capsys.readouterr()
    assert main([*run, "--param", "hexagons=2", "--resume"]) == 2
    assert "belongs to another spec, params" in capsys.readouterr().err
    spec = epcg_spec.load(SPECS / "witness-must-cross.yaml", params={"hexagons": 3})
    assert spec.build(out=out, resume=True).data["evaluated"] == 9880  # C(40, 3)


def test_a_checkpoint_of_other_options_names_them(tmp_path, capsys):
    """A resume with --no-prune (or another --origin) was refused as belonging to "another
    spec, params, seed, shard or version": none of which had changed."""
    out = tmp_path / "out"
    run = ["build", str(SPECS / "n-queens.yaml"), "--param", "n=10", "--out", str(out), "-q"]
    assert main([*run, "--no-prune", "--time-limit", "1e-9"]) == 0
    capsys.readouterr()
    assert main([*run, "--resume"]) == 2
    assert "belongs to another spec, params, options, seed, shard or version" in (
        capsys.readouterr().err
    )


def test_count_stops_at_a_time_limit_with_a_partial_count(capsys):
    argv = ["count", str(SPECS / "n-queens.yaml"), "--constrained", "--param", "n=12"]
    assert main([*argv, "--no-prune", "--threads", "1", "--time-limit", "0.2", "--json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["partial"]["stopped"] == "time limit"
    assert 0 <= result["count"] < 14200  # 14,200 solutions in all
    assert "lower bound" in err


@pytest.mark.parametrize("spec", ["rooms-house.yaml", "wfc-loop.yaml"])
def test_a_search_count_stopped_by_its_time_limit_says_so_in_its_json(spec, capsys):
    """A search's count kept only "complete": false, the same as at --limit: the stop's
    reason and the units done were missing (a space count has them)."""
    assert main(["count", str(SPECS / spec), "--time-limit", "0.05", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["partial"]["stopped"] == "time limit" and result["partial"]["units_done"] > 0
    assert validate_data(result, "result.schema.json") == []


def _spawn(out: Path, *flags: str) -> subprocess.Popen:
    env = checkout_env(EPCG_SPEC_CHECKPOINT_SECONDS="0.05")
    argv = [sys.executable, "-m", "epcg_spec", "build", str(SPECS / "n-queens.yaml")]
    argv += ["--param", "n=12", "--no-prune", "--threads", "1", "--out", str(out), "-q"]
    return subprocess.Popen(
        [*argv, *flags], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _wait_for(path: Path, process: subprocess.Popen, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < end, "no checkpoint appeared"
        time.sleep(0.01)


def test_kill_9_then_resume_equals_an_uninterrupted_run(tmp_path):
    shard = ("--shard", "0/8")
    whole = _spawn(tmp_path / "whole", *shard)
    assert whole.wait(300) == 0, whole.communicate()
    killed = _spawn(tmp_path / "killed", *shard)
    _wait_for(tmp_path / "killed" / driver.CHECKPOINT_NAME, killed)
    killed.kill()
    killed.wait()
    resumed = _spawn(tmp_path / "killed", *shard, "--resume")
    assert resumed.wait(300) == 0, resumed.communicate()
    assert _result(tmp_path / "killed") == _result(tmp_path / "whole")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_exits_130_within_3_s_with_a_checkpoint_and_the_resume_command(stop, tmp_path):
    out = tmp_path / "out"
    run = _spawn(out)
    _wait_for(out / driver.CHECKPOINT_NAME, run)
    sent = time.monotonic()
    run.send_signal(stop)
    code = run.wait(30)
    took = time.monotonic() - sent
    _, err = run.communicate()
    assert code == 130 and took < 3.0, (code, took, err)
    assert "--resume" in err and (out / driver.CHECKPOINT_NAME).exists()
    assert _result(out)["partial"]["stopped"] == "interrupted"


def test_sigterm_while_compiling_leaves_no_folder(tmp_path):
    """Before the work starts, SIGTERM stops as Ctrl-C does: exit 130, nothing left."""
    out = tmp_path / "out"
    cold = checkout_env(EPCG_CACHE_DIR=str(tmp_path / "cache"))
    argv = ["-m", "epcg_spec", "build", str(SPECS / "wfc-pipes.yaml"), "--out", str(out)]
    run = subprocess.Popen([sys.executable, *argv, "-q"], env=cold, stderr=subprocess.PIPE)
    _wait_for(out / files.LOCK, run)  # the folder is held: kernels compile now
    run.send_signal(signal.SIGTERM)
    assert run.wait(60) == 130, run.communicate()
    assert not out.exists()


def test_a_count_that_would_take_days_says_so_within_seconds(capsys):
    argv = ["count", str(SPECS / "n-queens.yaml"), "--constrained", "--param", "n=17"]
    began = time.monotonic()
    assert main([*argv, "--no-prune", "--threads", "1"]) == 2
    assert time.monotonic() - began < 30  # a second of measuring, plus compile
    err = capsys.readouterr().err
    assert "would take about" in err and "355,687,428,096,000 states" in err
    assert "--time-limit" in err


def test_result_json_holds_every_param_the_run_used(tmp_path):
    """Given with --param or the spec's default; none where the spec has no params."""
    assert _build("n-queens.yaml", tmp_path / "q", "--param", "n=6") == 0
    assert list(_result(tmp_path / "q"))[4:6] == ["seed", "params"]
    assert _result(tmp_path / "q")["params"] == {"n": 6}
    assert _build("langford.yaml", tmp_path / "l") == 0
    assert _result(tmp_path / "l")["params"] == {"n": 7}
    assert _build("sudoku-4x4.epcg", tmp_path / "s") == 0
    assert "params" not in _result(tmp_path / "s")
