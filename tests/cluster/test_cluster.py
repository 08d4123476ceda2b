"""Runs on a Dask LocalCluster of 2 worker processes equal local runs, byte for byte."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from distributed import Client

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.core.errors import BuildError, UsageError
from epcg_spec.core.result import without_timings
from epcg_spec.search import cluster
from tests.checkout import checkout_env
from tests.domains.space.helpers import SPECS

EVERY_KIND = [
    ("n-queens.yaml", {"n": 8}),
    ("witness-pieces-3x3.yaml", {}),
    ("wfc-maze.yaml", {}),
    ("sudoku-4x4.epcg", {}),
    ("ppg-escape-room.yaml", {}),
    ("tracery-weather.epcg", {}),
]
LONG = ("n-queens.yaml", {"n": 11})  # 39.9 M ranks unpruned: about a second a worker


@pytest.fixture(scope="module")
def client():
    with cluster.local_cluster(2) as local, Client(local) as connected:
        yield connected


def _contents(folder: Path) -> dict[str, bytes]:
    """Every file written but the timings (result.json) and the gallery page."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name not in ("result.json", "index.html")
    }


def _same(a: epcg_spec.Result, b: epcg_spec.Result, a_out: Path, b_out: Path) -> None:
    assert without_timings(a.data) == without_timings(b.data)
    assert _contents(a_out) == _contents(b_out)


@pytest.mark.parametrize(("name", "params"), EVERY_KIND)
def test_a_cluster_build_equals_a_local_one(client, tmp_path, name, params):
    spec = epcg_spec.load(SPECS / name, params=params)
    local = spec.build(tmp_path / "local")
    remote = spec.build(tmp_path / "cluster", scheduler=client)
    _same(local, remote, tmp_path / "local", tmp_path / "cluster")
    assert remote.complete and remote.count == local.count > 0


def test_a_joint_search_collects_its_candidates_on_the_cluster(client, tmp_path):
    """The layouts run on the workers; branch and bound (its bound flows from chunk to
    chunk) runs on the client."""
    text = (SPECS / "witness-joint-3x3.epcg").read_text()
    text = text.replace("count: 3}]", "count: 2}]").replace("panels: 3", "panels: 2")
    spec = epcg_spec.loads(text, format="dsl")
    local = spec.build(tmp_path / "local")
    remote = spec.build(tmp_path / "cluster", scheduler=client)
    _same(local, remote, tmp_path / "local", tmp_path / "cluster")
    assert remote.data["evaluated"] == 62_790 and remote.count == 1  # nodes, as here


def test_fling_layers_computed_on_the_cluster_are_the_same_bytes(client, tmp_path):
    local_store, cluster_store = tmp_path / "layers-here", tmp_path / "layers-there"
    local = epcg_spec.load(
        SPECS / "fling.yaml", params={"pieces": 4}, options={"layers_dir": str(local_store)}
    ).build(tmp_path / "local")
    spec = epcg_spec.load(
        SPECS / "fling.yaml", params={"pieces": 4}, options={"layers_dir": str(cluster_store)}
    )
    remote = spec.build(tmp_path / "cluster", scheduler=client)
    _same(local, remote, tmp_path / "local", tmp_path / "cluster")
    layers = sorted(p.relative_to(local_store) for p in local_store.rglob("*.bits"))
    layers += sorted(p.relative_to(local_store) for p in local_store.rglob("*.npy"))
    assert len(layers) == 11  # solvable 1..3, unique 1..4 under both rules
    for layer in layers:
        assert (local_store / layer).read_bytes() == (cluster_store / layer).read_bytes()
    assert [r["unique"]["moves"] for r in remote.data["layers"]] == [56, 267, 2110, 15724]


def test_a_cluster_count_equals_a_local_one(client):
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 9})
    assert spec.count(constrained=True, scheduler=client).count == 352
    spec = epcg_spec.load(SPECS / "witness-pieces-3x3.yaml")
    local = spec.count(constrained=True)
    assert spec.count(constrained=True, scheduler=client).count == local.count


def test_blocks_a_failing_prefix_covers_are_skipped_not_sent(client, monkeypatch):
    from epcg_spec.search.exhaustive import ExhaustiveJob

    skipped, real_skip = [], ExhaustiveJob.skip

    def skip(job, lo, hi):
        found = real_skip(job, lo, hi)
        skipped.append(found[0] - lo if found else 0)
        return found

    monkeypatch.setattr(ExhaustiveJob, "skip", skip)
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 12})
    result = spec.count(constrained=True, scheduler=client)
    assert result.count == 14200 and result.data["evaluated"] + result.data["pruned"] == 479001600
    assert sum(skipped) > 0  # of the 457 blocks; those inside a task its threads skip


class _KillOnFirstResult:
    """A progress sink that sends `signum` to process `pid` once the first partial is
    folded: SIGKILL to a worker, or SIGINT (Ctrl-C) to this process."""

    def __init__(self, pid: int, signum: int = signal.SIGKILL):
        self.pid, self.signum, self.killed = pid, signum, False

    def start(self, label, total):
        pass

    def advance(self, units):
        if not self.killed:
            os.kill(self.pid, self.signum)
            self.killed = True

    def finish(self):
        pass

    def note(self, line):
        pass

    def compiling(self, kind):
        from contextlib import nullcontext

        return nullcontext()


def test_a_killed_worker_costs_only_time(client, tmp_path):
    spec = epcg_spec.load(SPECS / LONG[0], params=LONG[1])
    local = spec.build(tmp_path / "local", no_prune=True, threads=1)
    pid = next(iter(client.run(os.getpid).values()))
    progress = _KillOnFirstResult(pid)
    remote = spec.build(
        tmp_path / "cluster", no_prune=True, threads=1, scheduler=client, progress=progress
    )
    assert progress.killed
    _same(local, remote, tmp_path / "local", tmp_path / "cluster")
    assert remote.count == 2680
    client.wait_for_workers(2, timeout=60)  # the nanny starts a new one


def test_ctrl_c_on_the_client_keeps_a_checkpoint_the_cluster_resumes(client, tmp_path):
    spec = epcg_spec.load(SPECS / LONG[0], params=LONG[1])
    out = tmp_path / "out"
    ctrl_c = _KillOnFirstResult(os.getpid(), signal.SIGINT)
    first = spec.build(out, no_prune=True, threads=1, scheduler=client, progress=ctrl_c)
    assert first.stopped == "interrupted"
    assert 0 < first.data["partial"]["units_done"] < 609  # of 609 blocks
    resumed = spec.build(out, no_prune=True, threads=1, resume=True, scheduler=client)
    whole = spec.build(tmp_path / "whole", no_prune=True, threads=1)
    _same(whole, resumed, tmp_path / "whole", out)


def test_local_workers_leave_ctrl_c_to_the_client(client):
    assert set(client.run(signal.getsignal, signal.SIGINT).values()) == {signal.SIG_IGN}


def test_a_terminal_ctrl_c_stops_a_local_cluster_run_in_one_line(tmp_path):
    """A terminal sends Ctrl-C to every process of its group: each worker died of it (80
    lines of tracebacks), and the client waited for their tasks for ever (11 minutes, until
    a second Ctrl-C)."""
    out = tmp_path / "out"
    env = checkout_env(EPCG_SPEC_CHECKPOINT_SECONDS="0.05")
    argv = [sys.executable, "-m", "epcg_spec", "build", str(SPECS / LONG[0]), "--param", "n=11"]
    argv += ["--no-prune", "--threads", "1", "--scheduler", "local:2", "--out", str(out), "-q"]
    run = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        while not (out / ".checkpoint.json").exists():
            assert run.poll() is None, run.communicate()
            time.sleep(0.01)
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:  # hung: leave neither it nor its workers running
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130
    assert err.startswith("interrupted: partial result (interrupted)") and err.count("\n") == 1


def test_a_stopped_cluster_run_resumes_here(client, tmp_path):
    spec = epcg_spec.load(SPECS / LONG[0], params=LONG[1])
    out = tmp_path / "out"
    first = spec.build(out, no_prune=True, threads=1, time_limit=0.001, scheduler=client)
    assert first.stopped == "time limit"
    assert (out / ".checkpoint.json").exists()
    resumed = spec.build(out, no_prune=True, threads=1, resume=True)
    whole = spec.build(tmp_path / "whole", no_prune=True, threads=1)
    _same(whole, resumed, tmp_path / "whole", out)
    assert resumed.data["evaluated"] == 39_916_800


def test_the_command_line_starts_a_local_cluster(tmp_path, capsys):
    spec = str(SPECS / "n-queens.yaml")
    argv = ["build", spec, "--param", "n=7", "--scheduler", "local:1", "--json"]
    assert main([*argv, "--out", str(tmp_path / "c")]) == 0
    assert main(["build", spec, "--param", "n=7", "--json", "--out", str(tmp_path / "l")]) == 0
    remote, local = (tmp_path / "c" / "result.json"), (tmp_path / "l" / "result.json")
    assert without_timings(_json(remote)) == without_timings(_json(local))


def _json(path: Path):
    import json

    return json.loads(path.read_text())


@pytest.mark.parametrize("value", ["local:0", "local:x", "8786", "tcp://", "local:100000"])
def test_a_bad_scheduler_is_one_line_exit_2(value, tmp_path, capsys):
    out = tmp_path / "out"
    argv = ["build", str(SPECS / "n-queens.yaml"), "--scheduler", value, "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "local:N" in err[0], err
    assert not out.exists()


def test_an_unreachable_scheduler_is_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    out = tmp_path / "out"
    argv = ["build", str(SPECS / "n-queens.yaml"), "--out", str(out)]
    assert main([*argv, "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err[0]
    assert not out.exists()


def test_local_workers_that_do_not_start_say_why_in_one_line(monkeypatch, tmp_path):
    """As when a script without a __main__ guard is imported again by each worker."""

    def failing(**kwargs):
        raise RuntimeError("Nanny failed to start.")

    monkeypatch.setattr("distributed.LocalCluster", failing)
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 6})
    with pytest.raises(BuildError, match=r"local:2: the worker processes did not start .*__main__"):
        spec.build(tmp_path / "out", scheduler="local:2")
    assert not (tmp_path / "out").exists()


def test_ctrl_c_while_local_workers_start_closes_them_once_started(monkeypatch):
    """Ctrl-C inside LocalCluster's start left the half-started workers to Dask's exit
    handler, which failed on them: 72 lines of tracebacks after `interrupted`."""
    events = []

    class Starting:
        def __init__(self, **kwargs):
            signal.raise_signal(signal.SIGINT)  # Ctrl-C while the worker processes start
            events.append("started")

        def close(self):
            events.append("closed")

    monkeypatch.setattr("distributed.LocalCluster", Starting)
    with pytest.raises(KeyboardInterrupt):
        cluster.local_cluster(2)
    assert events == ["started", "closed"]


def test_without_dask_the_extra_is_named(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 6})
    with pytest.raises(UsageError, match=r"pip install 'epcg-spec\[dask\]'"):
        spec.build(tmp_path / "out", scheduler="local:1")
    assert not (tmp_path / "out").exists()


def test_python_functions_and_the_gpu_are_not_for_workers(tmp_path):
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 6})
    with pytest.raises(UsageError, match="--allow-python cannot go with --scheduler"):
        spec.build(tmp_path / "out", scheduler="local:1", allow_python=True)
    with pytest.raises(UsageError, match="--device gpu cannot go with --scheduler"):
        spec.build(tmp_path / "out", scheduler="local:1", device="gpu")
    assert not (tmp_path / "out").exists()


WORKER_WITHOUT_THE_PACKAGE = textwrap.dedent(
    """
    import sys

    class NoEpcg:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "epcg_spec":
                raise ModuleNotFoundError(f"No module named {name!r}")

    sys.meta_path.insert(0, NoEpcg())
    from distributed.cli.dask_worker import main

    sys.argv = ["dask worker", sys.argv[1], "--no-nanny", "--nthreads", "1"]
    main()
    """
)


def test_a_worker_without_the_package_is_named(tmp_path):
    with (
        cluster.local_cluster(0) as empty,
        Client(empty) as bare,
    ):
        address = empty.scheduler_address
        worker = subprocess.Popen(
            [sys.executable, "-c", WORKER_WITHOUT_THE_PACKAGE, address],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            bare.wait_for_workers(1, timeout=60)
            spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 6})
            with pytest.raises(UsageError, match="cannot run epcg-spec") as caught:
                spec.build(tmp_path / "out", scheduler=bare)
            assert "install epcg-spec" in str(caught.value)
            assert len(str(caught.value).splitlines()) == 1
            assert not (tmp_path / "out").exists()
        finally:
            worker.kill()
            worker.wait()


def test_a_worker_that_reads_another_sample_image_is_one_line(client, tmp_path):
    """The sample changed between load and build: the workers, which read it again, would
    have learnt from another image than the one result.json names."""
    (tmp_path / "wfc-samples/samples").mkdir(parents=True)
    shutil.copy(SPECS / "wfc-maze.yaml", tmp_path)
    sample = tmp_path / "wfc-samples/samples/maze.png"
    shutil.copy(SPECS / "wfc-samples/samples/maze.png", sample)
    spec = epcg_spec.load(tmp_path / "wfc-maze.yaml")
    shutil.copy(SPECS / "wfc-samples/samples/ground.png", sample)
    with pytest.raises(UsageError) as caught:
        spec.build(tmp_path / "out", scheduler=client)
    assert re.fullmatch(
        rf"Dask worker \S+ reads another wfc-samples/samples/maze.png \(beside {tmp_path}\) "
        "than this client loaded, or none: give every worker the same files at the same path",
        str(caught.value),
    )
    assert not (tmp_path / "out").exists()


HIDDEN_STORE_WORKER = (
    "mount -t tmpfs none {hidden} && exec {python} -m distributed.cli.dask_worker {address} "
    "--no-nanny --nthreads 1"
)


def test_a_store_a_worker_cannot_see_is_one_line(tmp_path):
    """The worker runs in a mount namespace where the store's folder is an empty tmpfs."""
    probe = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "true"], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip("unshare -m is not permitted here: no way to hide a folder from a worker")
    hidden = tmp_path / "shared"
    hidden.mkdir()
    with (
        cluster.local_cluster(0) as empty,
        Client(empty) as bare,
    ):
        command = HIDDEN_STORE_WORKER.format(
            hidden=hidden, python=sys.executable, address=empty.scheduler_address
        )
        worker = subprocess.Popen(
            ["unshare", "-m", "--propagation", "private", "sh", "-c", command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            bare.wait_for_workers(1, timeout=60)
            options = {"layers_dir": str(hidden / "layers")}
            spec = epcg_spec.load(SPECS / "fling.yaml", params={"pieces": 3}, options=options)
            with pytest.raises(UsageError, match="cannot see") as caught:
                spec.build(tmp_path / "out", scheduler=bare)
            assert "--layers-dir" in str(caught.value)
            assert not (tmp_path / "out").exists()
        finally:
            worker.kill()
            worker.wait()


@pytest.mark.parametrize(
    ("size", "left", "slots", "units"),
    [
        (256, 20_000, 32, 256),  # much work left: tasks sized by time
        (256, 2_000, 32, 62),  # a short run: every slot gets a share
        (16, 2_000, 32, 16),
        (256, 10, 32, 1),  # the last units: one a task
    ],
)
def test_a_task_never_leaves_the_other_workers_idle(size, left, slots, units):
    assert cluster.task_units(size, left, slots) == units
