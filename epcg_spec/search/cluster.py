"""The driver's units on a Dask cluster (`--scheduler local:N` or `tcp://HOST:PORT`).

The client keeps the job's tally and folds partial results in unit order, as a local run
does; workers get the spec's text and the job's name and arguments (a Recipe), rebuild the
job once per worker thread (compiling or loading its kernels in a warm-up task, timed per
worker) and return the partial result of each range of units they are handed. Nothing
compiled is ever pickled. Because the partials are pure and folded in order, the result is
the same, byte for byte, whatever the workers, their number or their failures: a task of a
worker that dies is run again elsewhere by Dask.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import inputs
from ..core.context import RunContext, SpecSource
from ..core.errors import BuildError, UsageError, shortened
from ..core.files import atomic_write, read_bounded
from ..core.sizes import digits_value
from ..core.version import __version__
from .driver import CHUNK_SECONDS, Job, interruptible, resize_chunk

EXTRA = "pip install 'epcg-spec[dask]'"
TASK_SECONDS = 2 * CHUNK_SECONDS  # Dask spends a few milliseconds a task: far under 5 %
WORKERS_PER_CPU = 4  # the most local:N starts per CPU: each worker is a process of its own
TASKS_PER_THREAD = 2  # tasks in flight per worker thread: one running, one queued
CONNECT_SECONDS = 10


@dataclass(frozen=True)
class Recipe:
    """What a worker rebuilds a job from: never compiled code, only data."""

    source: SpecSource
    name: str  # the job, as the problem's `job(name, args, ctx)` knows it
    args: dict[str, Any]
    seed: int
    options: dict[str, Any]  # the run's options (the kind's own, and no_prune)
    threads: int | None  # numba threads per worker task (None: the worker's default)
    key: str = field(default="", compare=False)

    @classmethod
    def of(cls, job: Job, ctx: RunContext) -> Recipe:
        if ctx.source is None:
            raise RuntimeError("a cluster run needs the spec's source in its RunContext")
        name, args = job.remote
        parts = (ctx.source, name, args, ctx.seed, ctx.options, ctx.threads)
        payload = json.dumps([__version__, *parts], sort_keys=True, default=repr)
        return cls(*parts, key=hashlib.sha256(payload.encode()).hexdigest())

    def context(self) -> RunContext:
        """The run context a worker builds the job with."""
        return RunContext(seed=self.seed, threads=self.threads, options=self.options)


def parse_scheduler(text: str) -> tuple[str, Any]:
    """("local", workers) for local:N, ("address", text) for tcp://HOST:PORT and the like."""
    if not isinstance(text, str):  # from the Python API: neither a string nor a Client
        raise UsageError(f"--scheduler {text!r}: write local:N or a scheduler's address")
    if text.startswith("local:"):
        workers = digits_value(text.removeprefix("local:"))
        most = WORKERS_PER_CPU * (os.cpu_count() or 1)
        if workers is not None and workers > most:
            raise UsageError(
                f"--scheduler {shortened(text)!r}: at most local:{most} here ({WORKERS_PER_CPU} "
                f"worker processes a CPU; local:N starts N processes on this machine)"
            )
        if workers is not None and workers >= 1:
            return "local", workers
    elif "://" in text and text.split("://", 1)[1]:
        return "address", text
    raise UsageError(
        f"--scheduler {shortened(text)!r}: write local:N (N worker processes here) or the "
        "address of a running scheduler, e.g. tcp://10.0.0.5:8786"
    )


@contextmanager
def connected(scheduler: Any, ctx: RunContext) -> Iterator[None]:
    """Sets ctx.cluster to a client of `scheduler` (a string as --scheduler takes, or a
    dask.distributed Client) for the duration; a local cluster is shut down afterwards."""
    if scheduler is None:
        yield
        return
    try:
        import distributed
    except ImportError:
        raise UsageError(f"--scheduler needs Dask: {EXTRA}") from None
    if isinstance(scheduler, distributed.Client):
        ctx.cluster = scheduler
        try:
            _check_workers(scheduler, ctx)
            yield
        finally:
            ctx.cluster = None
        return
    how, value = parse_scheduler(scheduler)
    if how == "local" and ctx.threads is None:  # the cores shared among the workers
        ctx.threads = max(1, (os.cpu_count() or 1) // value)
    with _client(how, value) as client:
        ctx.cluster = client
        try:
            _check_workers(client, ctx)
            if ctx.progress and _has_dashboard(client):
                ctx.progress.note(f"Dask dashboard: {client.dashboard_link}")
            yield
        finally:
            ctx.cluster = None


def local_cluster(workers: int) -> Any:
    """A dask LocalCluster of `workers` processes here, one task at a time each, its logs
    quiet but for errors, its dashboard (if bokeh is installed) on a free port."""
    import distributed

    started = None
    with interruptible() as interrupted:  # Ctrl-C is taken once the workers have started
        try:
            started = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
                preload=[__name__],  # dask_setup below, in each worker process
            )
        except RuntimeError as exc:  # "Nanny failed to start": the cause is in their log
            if not interrupted.is_set():  # else a worker took the terminal's Ctrl-C
                raise BuildError(
                    f"--scheduler local:{workers}: the worker processes did not start ({exc}); "
                    "a Python script that starts them must run its code under "
                    '`if __name__ == "__main__":`, as any script that starts processes, since '
                    "each worker imports the script again"
                ) from None
        stopped = interrupted.is_set()
    if stopped:  # stopped half-way, Dask left them to an exit handler that failed loudly
        if started is not None:
            started.close()
        raise KeyboardInterrupt
    return started


def dask_setup(worker: Any) -> None:
    """Run by each worker process of `local_cluster` as it starts (a Dask preload): the
    terminal's Ctrl-C reaches every process of its group, and only the client stops the run.
    A worker that took it died, and the client waited for its tasks for ever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _client(how: str, value: Any) -> Iterator[Any]:
    import distributed

    if how == "local":
        with local_cluster(value) as cluster, distributed.Client(cluster) as client:
            yield client
        return
    try:
        client = distributed.Client(value, timeout=f"{CONNECT_SECONDS}s")
    except (OSError, TimeoutError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UsageError(
            f"cannot reach the Dask scheduler at {value} ({reason}); start one with "
            "`dask scheduler`, or use --scheduler local:N"
        ) from None
    with client:
        yield client


def _check_workers(client: Any, ctx: RunContext) -> None:
    """There is at least one worker; every one has this version of the package and reads
    the files the spec names as they were when it was loaded."""
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise UsageError(
            f"no workers have joined the scheduler at {client.scheduler.address}; start "
            "some with `dask worker ADDRESS`"
        ) from None
    for address, answer in client.run(_worker_version, on_error="return").items():
        if isinstance(answer, BaseException):
            raise UsageError(
                f"Dask worker {address} cannot run epcg-spec ({type(answer).__name__}: "
                f"{answer}); install epcg-spec {__version__} on every worker ({EXTRA})"
            )
        if answer != __version__:
            raise UsageError(
                f"Dask worker {address} has epcg-spec {answer}, this client {__version__}: "
                "install the same version on every worker"
            )
    read = ctx.source.inputs if ctx.source is not None else {}
    if not read:
        return
    folder = str(Path(ctx.source.name).parent)
    for address, answer in client.run(_worker_inputs, folder, sorted(read)).items():
        changed = inputs.changed_file(read, answer)
        if changed is not None:
            raise UsageError(
                f"Dask worker {address} reads another {changed} (beside {folder}) than this "
                "client loaded, or none: give every worker the same files at the same path"
            )


def _worker_version() -> str:
    return __version__


def _worker_inputs(folder: str, names: list[str]) -> dict[str, str]:
    """The digests of the files `names` in `folder` as this worker reads them (a file it
    cannot read left out), the spec's files, which it reads when it rebuilds a job."""
    with inputs.recording() as reads:
        for name in names:
            try:
                read_bounded(Path(folder) / name)
            except FileNotFoundError:
                inputs.note(Path(folder) / name, None)
            except OSError:
                pass  # unreadable: left out, so the client reports it
    return inputs.relative_to(reads, Path(folder))


def shared_folder(client: Any, folder: Path, option: str) -> None:
    """Every worker sees `folder` (a token written here is read back by each of them)."""
    folder.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(16)
    path = folder / f".cluster-{token}"
    atomic_write(path, token)
    try:
        seen = client.run(_read_token, str(path), on_error="return")
    finally:
        path.unlink(missing_ok=True)
    for address, answer in seen.items():
        if answer != token:
            raise UsageError(
                f"Dask worker {address} cannot see {folder}; give {option} a folder every "
                "worker sees at the same path (a shared file system)"
            )


def _read_token(path: str) -> str | None:
    try:
        return Path(path).read_text()
    except OSError:
        return None


def _has_dashboard(client: Any) -> bool:
    return "dashboard" in client.scheduler_info().get("services", {})


class ClusterExecutor:
    """The driver's executor on a cluster: warm-up per worker, then ranges of units."""

    def __init__(self, job: Job, ctx: RunContext):
        self.job, self.client, self.progress = job, ctx.cluster, ctx.progress
        self.recipe = Recipe.of(job, ctx)

    def prepare(self, first: int) -> None:
        """Each worker builds the job and compiles (or loads) its kernels once."""
        workers = list(self.client.scheduler_info()["workers"])
        warm = [
            self.client.submit(
                _warm, self.recipe, first, workers=[w], allow_other_workers=False, pure=False
            )
            for w in workers
        ]
        for address, seconds in zip(workers, self.client.gather(warm), strict=True):
            if self.progress and seconds >= 1.0:
                self.progress.note(f"worker {address}: kernels ready in {seconds:.1f} s")

    @contextmanager
    def partials(self, lo: int, hi: int) -> Iterator[Iterator[tuple[int, Any]]]:
        pending: dict[int, tuple[int, Any]] = {}
        try:
            yield self._in_order(lo, hi, pending)
        finally:
            self.client.cancel([future for _, future in pending.values()])

    def _in_order(self, following: int, hi: int, pending: dict) -> Iterator[tuple[int, Any]]:
        """Partials in unit order; tasks sized by the time workers report for them."""
        from distributed import as_completed

        job, client = self.job, self.client
        threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
        slots, size = TASKS_PER_THREAD * max(threads, 1), job.fixed or 1
        done: dict[int, tuple[int, Any]] = {}
        arrivals = as_completed()
        submitted = following
        skip = getattr(job, "skip", None)  # units known to hold nothing: folded, not sent
        while following < hi:
            while submitted < hi and len(pending) < slots:
                skipped = skip(submitted, hi) if skip else None
                if skipped:
                    done[submitted], submitted = skipped, skipped[0]
                    continue
                share = size if job.fixed else task_units(size, hi - submitted, slots)
                stop = min(submitted + share, hi)
                future = client.submit(_work, self.recipe, submitted, stop, pure=False)
                pending[submitted] = (stop, future)
                arrivals.add(future)
                submitted = stop
            if following not in done:  # skipped units go ahead of tasks still out
                future = next(arrivals)
                start = next(k for k, (_, f) in pending.items() if f is future)
                stop, _ = pending.pop(start)
                partial, seconds = future.result()
                done[start] = (stop, partial)
                if not job.fixed:
                    size = resize_chunk(size, seconds, TASK_SECONDS, most=job.most)
            while following in done:
                stop, partial = done.pop(following)
                yield stop, partial
                following = stop


def task_units(size: int, left: int, slots: int) -> int:
    """Units in the next task: `size` (sized by time), but never so many that the `left`
    units would not fill every task slot: a short run keeps every worker busy."""
    return min(size, max(1, left // slots))


_jobs: dict[int, tuple[str, Job]] = {}  # on a worker: each thread's latest job, by recipe


def _worker_job(recipe: Recipe, first: int) -> tuple[Job, float]:
    """This worker thread's job for `recipe` (built and prepared on first use, replacing
    the thread's job of another recipe), and the seconds its preparation took."""
    thread = threading.get_ident()
    _threads(recipe.threads)
    held = _jobs.get(thread)
    if held is not None and held[0] == recipe.key:
        return held[1], 0.0
    _jobs.pop(thread, None)  # one job a thread: a long run's passes do not pile up
    from ..api import compiled_source  # on the worker, not imported before it is needed

    began = time.perf_counter()
    job = compiled_source(recipe.source).job(recipe.name, recipe.args, recipe.context())
    job.prepare(first)
    _jobs[thread] = (recipe.key, job)
    return job, time.perf_counter() - began


def _threads(threads: int | None) -> None:
    from .blocks import use_threads  # here: numba only in the workers, not at a client's start

    use_threads(threads)


def _warm(recipe: Recipe, first: int) -> float:
    return _worker_job(recipe, first)[1]


def _work(recipe: Recipe, lo: int, hi: int) -> tuple[Any, float]:
    job, _ = _worker_job(recipe, lo)
    began = time.perf_counter()
    partial = job.work(lo, hi)
    return partial, time.perf_counter() - began
