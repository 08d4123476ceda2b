"""The guess-and-test stack: stepping, pausing, snapshots and --resume change nothing."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from epcg_spec.core.seal import sealed, unsealed
from epcg_spec.search import backtrack
from epcg_spec.spec.load import load_spec

SPECS = Path(__file__).parents[3] / "specs"
CAVES = SPECS / "rooms-caves.yaml"


@pytest.fixture(scope="module")
def caves():
    loaded = load_spec(CAVES)
    problem = loaded.domain.compile(loaded.spec)
    model, _ = problem.network()
    return model, backtrack.prepare(model)


def fresh(caves, seed=4):
    model, base = caves
    return backtrack.Search(model, base, backtrack.attempt_seed(seed, 0), "scanline")


def test_uninterrupted_run_needs_undos(caves):
    run = fresh(caves)
    assert run.run() == backtrack.SOLVED
    stats = run.stats()
    assert stats["backtracks"] > 0 and stats["decisions"] > 40


def test_stepping_gives_the_same_map(caves):
    whole = fresh(caves)
    whole.run()
    stepped = fresh(caves)
    steps = 0
    while stepped.step() == backtrack.PAUSED:
        steps += 1
    assert np.array_equal(whole.values(), stepped.values())
    assert whole.stats() == stepped.stats()


@pytest.mark.parametrize("pause", [1, 7, 30, 61])
def test_snapshot_and_restore_give_the_same_map(caves, pause):
    model, _ = caves
    whole = fresh(caves)
    whole.run()
    paused = fresh(caves)
    assert paused.run(pause) == backtrack.PAUSED
    resumed = backtrack.Search.restore(model, paused.snapshot())
    assert resumed.run() == backtrack.SOLVED
    assert np.array_equal(whole.values(), resumed.values())
    assert whole.stats() == resumed.stats()


def test_stack_needs_far_fewer_guesses_than_restarts(build, tmp_path):
    """The must-show comparison, on the example spec at its own seed."""
    _, stack = build(CAVES, out="stack")
    restart_spec = tmp_path / "rooms-caves-restart.yaml"
    restart_spec.write_text(CAVES.read_text().replace("strategy: stack", "strategy: restart"))
    _, restart = build(restart_spec, out="restart")
    assert stack["status"] == restart["status"] == "solved"
    assert stack["attempts"] == 1 and stack["undos"] > 0
    assert restart["attempts"] > 100
    assert restart["guesses"] > 10 * stack["guesses"]


def test_cli_pause_and_resume(build, tmp_path):
    _, whole = build(CAVES, out="whole")
    code, paused = build(CAVES, "--steps", "25", out="paused")
    assert code == 0 and paused["status"] == "paused" and paused["rooms"] == []
    assert (tmp_path / "paused" / ".checkpoint.json").exists()
    code, resumed = build(CAVES, "--resume", "--steps", "20", out="paused")
    assert code == 0 and resumed["status"] == "paused"
    code, resumed = build(CAVES, "--resume", out="paused")
    assert code == 0 and resumed["status"] == "solved"
    assert resumed["rooms"] == whole["rooms"]
    assert resumed["guesses"] == whole["guesses"] and resumed["undos"] == whole["undos"]
    assert not (tmp_path / "paused" / ".checkpoint.json").exists()


def test_the_file_the_rooms_page_says_a_pause_keeps_is_kept(build, tmp_path):
    page = (SPECS.parent / "docs" / "kinds" / "rooms.md").read_text("utf-8")
    named = re.search(r"keeps the run in `OUT/([^`]+)`", page)[1]
    build(CAVES, "--steps", "5", out="p")
    assert (tmp_path / "p" / named).is_file()


def test_resume_refuses_another_seed(build, capsys):
    build(CAVES, "--steps", "5", out="p")
    code, _ = build(CAVES, "--resume", "--seed", "9", out="p")
    assert code == 2
    assert "belongs to another spec" in capsys.readouterr().err


@pytest.mark.parametrize("field", ["heap", "ctr", "trail_var"])
def test_a_forged_checkpoint_is_refused_in_one_line(build, tmp_path, capsys, field):
    """A paused search's arrays edited and the checkpoint sealed again, as anyone can: the
    resume names the checkpoint and --fresh, where the kernels read and wrote outside their
    arrays before (a crash, or a corrupted heap)."""
    build(CAVES, "--steps", "25", out="p")
    path = tmp_path / "p" / ".checkpoint.json"
    record = unsealed(json.loads(path.read_text()))
    arrays = dict(np.load(io.BytesIO(base64.b64decode(record["state"]["search"]))))
    arrays[field][...] = 1 << 20
    forged = io.BytesIO()
    np.savez(forged, **arrays)
    record["state"]["search"] = base64.b64encode(forged.getvalue()).decode()
    path.write_text(json.dumps(sealed(record)))
    capsys.readouterr()
    code, _ = build(CAVES, "--resume", out="p")
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(lines) == 1
    assert f"{path} cannot be resumed: its search state is not one a search leaves" in lines[0]
    assert lines[0].endswith("run with --fresh")


def test_a_failure_undoes_to_a_recent_room_not_to_the_start(caves):
    """Stepping one guess at a time: after each failure the rooms placed before the undone
    room keep their placements, and the run goes on from there (one attempt, no restart)."""
    run = fresh(caves)
    before = run.values()
    kept_after_failure = []
    while True:
        failures = run.stats()["contradictions"]
        status = run.step()
        after = run.values()
        if run.stats()["contradictions"] > failures:
            placed = np.flatnonzero(before >= 0)
            kept = placed[after[placed] == before[placed]]
            # tree order: what stays placed is the prefix of the rooms placed before
            assert np.array_equal(kept, np.arange(len(kept)))
            kept_after_failure.append(len(kept))
        before = after
        if status != backtrack.PAUSED:
            break
    assert status == backtrack.SOLVED
    assert kept_after_failure and min(kept_after_failure) > 0
    assert max(kept_after_failure) >= 30  # deep in the chain, only the last rooms are undone
