"""The retrograde back end: thread counts, chunking, interruption and reuse never change a
byte of the layers it writes (run on the fling domain's layered space)."""

import json
import os
from contextlib import contextmanager

import numpy as np
import pytest

from epcg_spec.core.context import RunContext
from epcg_spec.core.errors import Interrupted
from epcg_spec.domains.fling.problem import layered_space
from epcg_spec.search import retrograde
from epcg_spec.search.retrograde import Plan, Retrograde
from tests.deadline import deadline

SHAPE = (5, 5)
PLAN = Plan(solvable=6, unique=7, rules=("moves", "boards"), unique_by="predecessors")


class StopAfter:
    """A progress that presses Ctrl-C after `advances` steps."""

    def __init__(self, advances: int):
        self.left = advances

    def start(self, label, total):
        pass

    def advance(self, units):
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt

    def finish(self):
        pass

    @contextmanager
    def compiling(self, kind):
        yield


def contents(folder) -> dict[str, bytes]:
    return {
        p.name: p.read_bytes() for p in sorted(folder.rglob("*")) if p.suffix in (".bits", ".npy")
    }


def run(folder, threads=None, progress=None, plan=PLAN):
    retro = Retrograde(
        layered_space(*SHAPE), folder, RunContext(threads=threads, progress=progress)
    )
    return retro.run(plan)


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Many blocks and chunks even on small layers."""
    monkeypatch.setattr(retrograde, "SCAN_BLOCK", 64 * 7)
    monkeypatch.setattr(retrograde, "PREDECESSOR_BLOCK", 5)


def test_one_thread_and_two_write_the_same_layers(tmp_path):
    one = run(tmp_path / "one", threads=1)
    two = run(tmp_path / "two", threads=2)
    timeless = {"seconds": 0, "cpu_seconds": 0}
    assert [r.as_dict() | timeless for r in one] == [r.as_dict() | timeless for r in two]
    assert contents(tmp_path / "one") == contents(tmp_path / "two")


@pytest.mark.parametrize("advances", [1, 3, 7, 12])
def test_an_interrupted_run_goes_on_where_it_stopped(tmp_path, advances):
    fresh = run(tmp_path / "fresh")
    with pytest.raises(Interrupted, match="run the same command again"):
        run(tmp_path / "resumed", progress=StopAfter(advances))
    again = run(tmp_path / "resumed")
    assert [r.solvable for r in again] == [r.solvable for r in fresh]
    assert [r.unique for r in again] == [r.unique for r in fresh]
    assert contents(tmp_path / "resumed") == contents(tmp_path / "fresh")
    leftovers = [p.name for p in (tmp_path / "resumed").rglob("*") if p.suffix == ".part"]
    assert leftovers == []


@pytest.mark.parametrize(
    "edit",
    [
        lambda record: {**record, "next": "x"},  # was a TypeError: exit 3
        lambda record: {**record, "next": record["next"] + 1},  # a block skipped: wrong layers
        lambda record: [record],  # was an AttributeError: exit 3
    ],
    ids=["next as text", "a block skipped", "a list"],
)
def test_an_edited_record_of_work_under_way_is_started_over(tmp_path, edit, capsys):
    fresh = run(tmp_path / "fresh")
    with pytest.raises(Interrupted):
        run(tmp_path / "resumed", progress=StopAfter(3))
    (record,) = (tmp_path / "resumed").rglob("*.json")
    record.write_text(json.dumps(edit(json.loads(record.read_text()))))
    capsys.readouterr()
    again = run(tmp_path / "resumed")
    assert f"damaged: {record} is unreadable or edited; starting that work over" in (
        capsys.readouterr().err
    )
    assert [r.unique for r in again] == [r.unique for r in fresh]
    assert contents(tmp_path / "resumed") == contents(tmp_path / "fresh")


def test_a_record_of_work_under_way_that_is_a_pipe_is_started_over(tmp_path, capsys):
    """A store shared by others with a pipe in a record's place: the run waited forever."""
    fresh = run(tmp_path / "fresh")
    with pytest.raises(Interrupted):
        run(tmp_path / "resumed", progress=StopAfter(3))
    (record,) = (tmp_path / "resumed").rglob("*.json")
    record.unlink()
    os.mkfifo(record)
    with deadline(20):
        again = run(tmp_path / "resumed")
    assert f"damaged: {record} is unreadable or edited" in capsys.readouterr().err
    assert [r.unique for r in again] == [r.unique for r in fresh]
    assert contents(tmp_path / "resumed") == contents(tmp_path / "fresh")


@pytest.mark.parametrize(
    ("advances", "suffix", "how"),
    [(3, ".part", "link"), (7, "-solvable.bits", "link"), (7, "-solvable.bits", "gone")],
)
def test_a_work_file_taken_away_or_made_a_link_is_started_over(tmp_path, advances, suffix, how):
    """A store shared by others, with a link where an interrupted run's work file (the
    ranks found so far, a scan's bits) was: the resumed run truncated the file it led to.
    A scan's work file taken away was made again, zeros, before its record was read: the
    run went on from the record and published a layer without the blocks done before."""
    fresh = run(tmp_path / "fresh")
    with pytest.raises(Interrupted):
        run(tmp_path / "resumed", progress=StopAfter(advances))
    (work,) = (tmp_path / "resumed").rglob(f"*{suffix}")
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    work.unlink()
    if how == "link":
        work.symlink_to(victim)
    again = run(tmp_path / "resumed")
    assert victim.read_text() == "mine\n"
    assert [r.unique for r in again] == [r.unique for r in fresh]
    assert contents(tmp_path / "resumed") == contents(tmp_path / "fresh")


def test_stored_layers_are_reused(tmp_path):
    first = run(tmp_path)
    second = run(tmp_path)
    assert all(r.evaluated > 0 for r in first[1:])
    assert all(r.evaluated == 0 for r in second)
    assert [r.unique for r in second] == [r.unique for r in first]


def test_a_larger_plan_builds_on_the_stored_layers(tmp_path):
    small = run(tmp_path, plan=Plan(4, 5, ("moves", "boards"), "predecessors"))
    large = run(tmp_path, plan=PLAN)
    assert [r.evaluated for r in large[:4]] == [0, 0, 0, 0]
    assert large[4].unique["moves"] == small[4].unique["moves"]
    records = [json.loads(p.read_text()) for p in tmp_path.rglob("solvable-*.bits.manifest")]
    assert len(records) == PLAN.solvable


def test_scan_and_predecessors_find_the_same_unique_boards(tmp_path):
    by_scan = run(tmp_path / "scan", plan=Plan(6, 6, ("moves", "boards"), "scan"))
    by_predecessors = run(tmp_path / "pred", plan=Plan(6, 6, ("moves", "boards"), "predecessors"))
    assert [r.unique for r in by_scan] == [r.unique for r in by_predecessors]
    scan_files = {k: v for k, v in contents(tmp_path / "scan").items() if k.endswith(".npy")}
    pred_files = {k: v for k, v in contents(tmp_path / "pred").items() if k.endswith(".npy")}
    assert scan_files == pred_files
    assert np.load(next((tmp_path / "scan").rglob("unique-moves-6.npy"))).size > 0


class Recorder:
    """A progress that keeps what it is told."""

    def __init__(self):
        self.jobs: list[list] = []

    def start(self, label, total):
        self.jobs.append([label, total, 0])

    def advance(self, units):
        self.jobs[-1][2] += units

    def finish(self):
        pass

    @contextmanager
    def compiling(self, kind):
        yield


def test_progress_announces_only_the_work_left_so_a_resumed_eta_holds(tmp_path):
    fresh = Recorder()
    run(tmp_path / "fresh", progress=fresh)
    assert all(total == advanced > 0 for _, total, advanced in fresh.jobs)
    with pytest.raises(Interrupted):
        run(tmp_path / "resumed", progress=StopAfter(3))
    resumed = Recorder()
    run(tmp_path / "resumed", progress=resumed)
    label, total, advanced = resumed.jobs[0]
    assert "going on from" in label and total == advanced
    whole = next(t for name, t, _ in fresh.jobs if label.startswith(name))
    assert 0 < total < whole


def test_every_board_shape_shares_one_compiled_loop(tmp_path):
    """The generated module depends on the kernels' module only, never on the shape."""
    small = Retrograde(layered_space(5, 5), tmp_path, RunContext())
    game = Retrograde(layered_space(7, 8), tmp_path, RunContext())
    assert small.folder != game.folder
    assert small.module is game.module
