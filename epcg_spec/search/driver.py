"""The run driver: the one loop that runs every job, whatever its kind or back end.

A job cuts its work into *units* fixed by the spec (rank blocks, layout blocks, items),
computes any run of them with a pure `work(lo, hi)`, and folds those partial results into
its tally in unit order. The driver alone decides how units are grouped into chunks (by
time, so that progress, checkpoints and Ctrl-C come about every CHUNK_SECONDS), shows
progress with the compile time apart, saves and restores checkpoints, and honours
`--shard`, `--resume`, `--fresh` and `--time-limit`. Because the fold runs in unit order
over pure partials, neither the chunking nor a resume changes a byte of the result.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .. import __version__
from ..core.context import RunContext
from ..core.errors import UsageError
from ..core.files import atomic_write, plain_name, read_bounded
from ..core.inputs import changed_file
from ..core.seal import sealed, unsealed
from .resumed import NotResumable, mapping

CHUNK_SECONDS = 0.5
# how often a running job saves its checkpoint; tests that kill a run shorten it
CHECKPOINT_SECONDS = float(os.environ.get("EPCG_SPEC_CHECKPOINT_SECONDS", "5"))
ESTIMATE_AFTER_SECONDS = 1.0  # a run with a time budget measures its rate this long first
CHECKPOINT_FORMAT = 3  # 2: Appended lists kept in parts, beside the file; 3: sealed
CHECKPOINT_NAME = ".checkpoint.json"
PARTS_NAME = ".checkpoint-parts"  # the parts of the Appended lists, beside the checkpoint
MAX_CHECKPOINT_BYTES = 2 << 30  # a checkpoint or one of its parts, read (as a result.json is)

P = TypeVar("P")


class Job(Protocol[P]):
    """What a domain hands the driver: units of work, how to do them and fold them."""

    label: str  # what the progress line says, e.g. "enumerating ranks 0..92"
    noun: str  # what a unit is, e.g. "blocks"
    units: int  # how many units the whole (unsharded) job has
    most: int  # the most units one chunk may hold (memory bound)
    fixed: int  # 0: chunks sized by time; else every chunk holds this many (results depend on it)
    finished: bool  # set by an open-ended job (units: a budget) once its work has ended
    # (job name, arguments) from which a cluster worker rebuilds this job (see cluster.py);
    # None: the job runs here only
    remote: tuple[str, dict[str, Any]] | None

    def prepare(self, first: int) -> None:
        """Compile or load the kernels before unit `first`; timed apart from the work."""

    def work(self, lo: int, hi: int) -> P:
        """The partial result of units [lo, hi): pure, the same on any executor."""

    def fold(self, partial: P) -> None:
        """Fold the partial result of the next units (in unit order) into the tally."""

    def snapshot(self) -> dict[str, Any]:
        """The tally as JSON-ready data, for a checkpoint."""

    def restore(self, state: dict[str, Any]) -> None:
        """Set the tally from a checkpoint's `snapshot()`; NotResumable (search/resumed.py)
        where `state` is not one this job saves."""

    def weight(self, lo: int, hi: int) -> int:
        """How much progress units [lo, hi) are worth (ranks, cells, items)."""

    # A job may also have `skip(lo, hi) -> (stop, partial) | None`: units [lo, stop) of
    # [lo, hi) that it knows hold nothing without working them, and their partial (the
    # exhaustive job's failing prefixes over many blocks). The executors ask before each
    # chunk or task they hand out (the partials are those working the units would give).


@dataclass
class Report:
    """How a run went: the units it covered, how far it got and why it stopped."""

    shard: tuple[int, int]
    lo: int
    hi: int
    done: int  # units of [lo, hi) folded in (lo + done is the next unit)
    seconds: float
    compile_seconds: float
    stopped: str | None = None  # None (complete), "time limit", "interrupted", "too long",
    # "time budget" (work of unknown size that ran its budget_seconds), "paused"
    estimate: float | None = None  # seconds the whole run would take, where measured

    @property
    def complete(self) -> bool:
        return self.stopped is None

    def shard_field(self) -> dict[str, int]:
        """result.json's `shard`: which shard, and the units it covers."""
        return {"index": self.shard[0], "count": self.shard[1], "lo": self.lo, "hi": self.hi}

    def fields(self) -> dict[str, Any]:
        """The driver's fields of result.json."""
        fields: dict[str, Any] = {"compile_seconds": round(self.compile_seconds, 3)}
        if not self.complete:
            fields["partial"] = {"stopped": self.stopped, "units_done": self.done}
            if self.estimate is not None:
                fields["partial"]["estimated_seconds"] = round(self.estimate, 1)
        return fields


def shard_units(units: int, shard: tuple[int, int]) -> tuple[int, int]:
    """Units [lo, hi) of shard i of n: contiguous, and together they cover every unit."""
    index, count = shard
    return units * index // count, units * (index + 1) // count


def checkpoint_key(*parts: Any) -> str:
    """The fingerprint a checkpoint must match: spec, params, seed, shard, engine version."""
    payload = json.dumps([__version__, *parts], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


def run(job: Job, ctx: RunContext, key: str | None, checkpoint: Checkpoint | None = None) -> Report:
    """Run `job` over the units of this run's shard; see the module docstring.

    The checkpoint is OUT/.checkpoint.json when `key` is given, or the one passed in (the
    Fling layers store keeps its own, shared by every run of that store).
    """
    lo, hi = shard_units(job.units, ctx.shard)
    checkpoint = checkpoint or _checkpoint(ctx, key)
    following = lo
    if checkpoint is not None:
        saved = checkpoint.load(ctx)
        if saved is not None:
            following = _restored(job, checkpoint, saved, lo, hi)
    end = hi
    if ctx.unit_limit is not None:
        hi = min(hi, following + ctx.unit_limit)
    executor = _executor(job, ctx)
    compile_seconds = compile_step(ctx, lambda: executor.prepare(following))
    progress = ctx.progress if following < hi else None  # no work left: nothing to show
    if progress:
        # a resumed run announces only the work left, so that its rate (and ETA) is true
        progress.start(job.label, job.weight(following, hi))
    began = time.perf_counter()
    last_save, start, total = began, following, job.weight(following, hi)
    stopped, estimate = None, None
    try:
        with (
            interruptible() as interrupted,
            _time_limited(ctx.time_limit, began) as arm,
            executor.partials(following, hi) as partials,
        ):
            for stop, partial in partials:
                job.fold(partial)
                arm()
                done, following = following, stop  # the tally and `following` move together
                if progress:
                    progress.advance(job.weight(done, stop))
                now = time.perf_counter()
                if interrupted.is_set():  # in the last chunk too: a build of several runs
                    raise KeyboardInterrupt  # (Fling's layers) would go on to the next
                if ctx.time_limit is not None and now - began >= ctx.time_limit and following < hi:
                    stopped = "time limit"
                    break
                if ctx.budget_seconds is not None and now - began > ESTIMATE_AFTER_SECONDS:
                    estimate = _estimate(job, start, following, total, now - began)
                    if estimate is not None and estimate > ctx.budget_seconds:
                        stopped = "too long"
                        break
                    if estimate is None and now - began > ctx.budget_seconds:
                        stopped = "time budget"  # of unknown size: the budget is spent
                        break
                if checkpoint and now - last_save > CHECKPOINT_SECONDS:
                    checkpoint.save(following, job.snapshot())
                    last_save = now
    except KeyboardInterrupt:
        stopped = "interrupted"
    except TimeUp:
        stopped = "time limit"
    finally:
        if progress:
            progress.finish()
    if stopped is None and following < end and not job.finished:
        stopped = "paused"  # ctx.unit_limit ended this run before its work was done
    if checkpoint:
        if stopped:
            checkpoint.save(following, job.snapshot())
        else:
            checkpoint.finish(following, job.snapshot())
    seconds = time.perf_counter() - began
    return Report(ctx.shard, lo, end, following - lo, seconds, compile_seconds, stopped, estimate)


def _estimate(job: Job, start: int, following: int, total: int, elapsed: float) -> float | None:
    """Seconds the whole run would take at the rate so far (None where it cannot tell)."""
    done = job.weight(start, following)
    return elapsed * total / done if done > 0 and total > 0 else None


def _restored(job: Job, checkpoint: Checkpoint, saved: dict[str, Any], lo: int, hi: int) -> int:
    """The first unit not done, after `job` takes the checkpoint's state. A sealed
    checkpoint may still be forged (core/seal.py): what no run of this job saves is refused
    in one line (exit 2), never taken as progress nor handed to the kernels."""
    where = getattr(checkpoint, "path", "the checkpoint")
    following = saved.get("next")
    if type(following) is not int or not lo <= following <= hi:
        raise UsageError(
            f"{where} cannot be resumed: its next unit is not one of this run's "
            f"{lo}..{hi}; run with --fresh"
        )
    try:
        job.restore(mapping(saved["state"]))
    except NotResumable as exc:
        why = str(exc)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        why = f"its state is not what this run saves ({type(exc).__name__}: {exc})"
    else:
        return following
    raise UsageError(f"{where} cannot be resumed: {why}; run with --fresh")


def compile_step(ctx: RunContext, prepare: Callable[[], None]) -> float:
    """Seconds that prepare() took to compile or load kernels, shown as the run's compile
    step (a spinner, then the time where it took over a second)."""
    began = time.perf_counter()
    with ctx.progress.compiling(ctx.kind) if ctx.progress else nullcontext():
        prepare()
    return time.perf_counter() - began


class Executor(Protocol):
    """Where a job's units are worked: here (LocalExecutor) or on a cluster."""

    def prepare(self, first: int) -> None:
        """Compile or load the kernels before unit `first`."""

    def partials(self, lo: int, hi: int) -> AbstractContextManager[Iterator[tuple[int, Any]]]:
        """(stop, partial result of the units up to stop), in unit order from `lo`; leaving
        the context early drops the work not folded yet."""


def _executor(job: Job, ctx: RunContext) -> Executor:
    if ctx.cluster is not None and getattr(job, "remote", None) is not None:
        from .cluster import ClusterExecutor  # dask is an optional dependency

        return ClusterExecutor(job, ctx)
    return LocalExecutor(job)


@dataclass
class LocalExecutor:
    """Units worked in this process, in chunks sized so that each takes about
    CHUNK_SECONDS (the Ctrl-C, progress and checkpoint period)."""

    job: Job

    def prepare(self, first: int) -> None:
        self.job.prepare(first)

    @contextmanager
    def partials(self, lo: int, hi: int) -> Iterator[Iterator[tuple[int, Any]]]:
        yield self._chunks(lo, hi)

    def _chunks(self, following: int, hi: int) -> Iterator[tuple[int, Any]]:
        job = self.job
        size = job.fixed or 1
        skip = getattr(job, "skip", None)
        while following < hi and not job.finished:
            skipped = skip(following, hi) if skip else None
            if skipped:
                yield skipped
                following = skipped[0]
                continue
            stop = min(following + size, hi)
            t0 = time.perf_counter()
            partial = job.work(following, stop)
            if not job.fixed:
                size = resize_chunk(size, time.perf_counter() - t0, most=job.most)
            yield stop, partial
            following = stop


_INTERRUPTED = threading.Event()  # the first Ctrl-C of the run under way


class _Local(threading.local):
    """What one thread's runs hold: the units it makes are its own runs' alone."""

    warming = False  # this thread makes a unit to compile its kernels
    deadlines: list[float]  # when the --time-limit of each of its runs under way ends

    def __init__(self) -> None:
        self.deadlines = []


_local = _Local()


class TimeUp(BaseException):
    """A run's time limit, met inside a unit: the run stops there, as at Ctrl-C (not an
    Exception, so that no handler of a unit's errors takes it for one)."""


class Warmed(BaseException):
    """A unit made to compile its kernels (`warming`) reached its first pause: they are
    compiled by then, and the run makes the unit again, timed and under its limits."""


def interrupt_point() -> None:
    """Where a long unit pauses (a search, every few thousand decisions): stop at the first
    Ctrl-C, or once the run's time limit is met, there, as between chunks. The unit is not
    folded in: a resumed run makes it."""
    if _INTERRUPTED.is_set():
        raise KeyboardInterrupt
    if _local.warming:
        raise Warmed
    if _local.deadlines and time.perf_counter() >= min(_local.deadlines):
        raise TimeUp


@contextmanager
def warming() -> Iterator[None]:
    """Units made in this context, on this thread, stop at their first pause (`Warmed`)."""
    _local.warming = True
    try:
        yield
    finally:
        _local.warming = False


@contextmanager
def _time_limited(seconds: float | None, began: float) -> Iterator[Callable[[], None]]:
    """arm(): from then on `interrupt_point` sees the run's time limit (`seconds` from
    `began`). The run arms it once a unit is done, so that every run, resumed or not,
    finishes a unit at least: one unit longer than the limit would otherwise be begun
    again by every resumed run, and never done."""
    armed = False

    def arm() -> None:
        nonlocal armed
        if seconds is not None and not armed:
            armed = True
            _local.deadlines.append(began + seconds)

    try:
        yield arm
    finally:
        if armed:
            _local.deadlines.pop()  # a run inside a unit has popped its own by then


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)  # Ctrl-C; kill, a batch system's notice


@contextmanager
def interruptible() -> Iterator[threading.Event]:
    """Ctrl-C (or SIGTERM) sets a flag the loop reads between chunks (and
    `interrupt_point` inside a unit); a second one stops at once."""
    flag = _INTERRUPTED
    if threading.current_thread() is not threading.main_thread():
        yield flag  # only the main thread's run owns the flag: a Ctrl-C pending stays
        return
    flag.clear()

    def handler(signum, frame):
        if flag.is_set():
            raise KeyboardInterrupt
        flag.set()

    previous = {number: signal.signal(number, handler) for number in STOP_SIGNALS}
    try:
        yield flag
    finally:
        for number, action in previous.items():
            signal.signal(number, action)
        flag.clear()


def resize_chunk(
    size: int, elapsed: float, seconds: float = CHUNK_SECONDS, most: int = 1 << 14
) -> int:
    """The next chunk's size: after a chunk that took under half of `seconds`, grown
    towards `seconds` (at least doubled, at most 16 times, up to `most`; at most 256 times
    after a chunk of under a 64th of `seconds`, whose time is mostly the chunk's own cost:
    handing it to the threads, folding its result); halved after one that took over twice
    as long."""
    if elapsed < seconds / 2:
        most_growth = 256 if elapsed < seconds / 64 else 16
        grow = min(most_growth, max(2, int(seconds / max(elapsed, 1e-9))))
        return max(1, min(size * grow, most))
    if elapsed > seconds * 2 and size > 1:
        return size // 2
    return min(size, most)


def _checkpoint(ctx: RunContext, key: str | None) -> OutCheckpoint | None:
    """The output folder's checkpoint, under the kind's `key` joined with what every run
    has: the spec's params (a kind's key may hold its document only), seed and shard, and
    the digests of the files the spec names (none for most specs: their keys stay as they
    were)."""
    if ctx.work_dir is None or key is None:
        return None
    params = ctx.source.params if ctx.source is not None else None
    read = ctx.source.inputs if ctx.source is not None else {}
    parts = (key, params, ctx.seed, ctx.shard, *([read] if read else []))
    return OutCheckpoint(Path(ctx.work_dir) / CHECKPOINT_NAME, checkpoint_key(*parts), read)


class Checkpoint(Protocol):
    """Where a job's progress is kept between runs."""

    def load(self, ctx: RunContext) -> dict[str, Any] | None:
        """{"next": first unit not done, "state": the job's snapshot}, or None."""

    def save(self, following: int, state: dict[str, Any]) -> None: ...

    def finish(self, following: int, state: dict[str, Any]) -> None:
        """The job is complete."""


@dataclass
class Appended:
    """A list in a job's snapshot that only grows while a run goes on (the items made so
    far): a checkpoint writes only the elements it has not written yet, each made ready for
    JSON by `state` then, so that saving costs the new elements, not all of them."""

    elements: list
    state: Callable[[Any], Any]


@dataclass
class OutCheckpoint:
    """`OUT/.checkpoint.json`: one versioned format for every job, written atomically and
    sealed (core.seal). The elements of a snapshot's `Appended` lists go to parts in
    `OUT/.checkpoint-parts/`, one part a save, which the JSON names with their SHA-256."""

    path: Path
    key: str
    inputs: dict[str, str] = field(default_factory=dict)  # the files the key holds, by name
    # key -> (name, n, SHA-256) of each part
    parts: dict[str, list[tuple[str, int, str]]] = field(default_factory=dict)

    def load(self, ctx: RunContext) -> dict[str, Any] | None:
        """The saved progress when resuming; an unasked-for checkpoint is never discarded
        silently: without --resume or --fresh it is a usage error."""
        if not self.path.exists():
            return None
        if ctx.fresh:
            self.clear()
            return None
        if not ctx.resume:
            raise UsageError(
                f"{self.path.parent} holds the checkpoint of an unfinished run; add --resume "
                "to continue it, or --fresh to discard it and start over"
            )
        try:
            saved = json.loads(read_bounded(self.path, MAX_CHECKPOINT_BYTES))
        except (OSError, ValueError) as exc:
            raise UsageError(
                f"{self.path} cannot be read ({exc}); run with --fresh to start over"
            ) from None
        if not isinstance(saved, dict) or not isinstance(saved.get("inputs", {}), dict):
            raise UsageError(f"{self.path} is damaged; run with --fresh to start over")
        if saved.get("format") != CHECKPOINT_FORMAT:
            raise UsageError(
                f"{self.path} has checkpoint format {saved.get('format')!r}, this version "
                f"reads {CHECKPOINT_FORMAT}; run with --fresh to start over"
            )
        saved = unsealed(saved)
        if saved is None:
            raise UsageError(
                f"{self.path} is damaged: it is not what its run saved (its seal differs); "
                "run with --fresh to start over"
            )
        changed = changed_file(saved.get("inputs", {}), self.inputs)
        if saved.get("key") != self.key and changed is not None:
            raise UsageError(
                f"{self.path} belongs to a run whose input file {changed} differs from the "
                "one there now; run with --fresh to discard it, or use another --out"
            )
        if saved.get("key") != self.key:
            raise UsageError(
                f"{self.path} belongs to another spec, params, options, seed, shard or version; "
                "run with --fresh to discard it, or use another --out"
            )
        saved["state"] = self._joined("", saved.get("state"))
        return saved

    def save(self, following: int, state: dict[str, Any]) -> None:
        record = {"format": CHECKPOINT_FORMAT, "key": self.key, "next": following}
        if self.inputs:
            record["inputs"] = self.inputs
        atomic_write(self.path, json.dumps(sealed({**record, "state": self._parted("", state)})))

    def finish(self, following: int, state: dict[str, Any]) -> None:
        """Saved as it is: the output is not written yet, and a run stopped while writing
        it resumes with no work left. Cleared (`discard`) once the output is written."""
        self.save(following, state)

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)
        shutil.rmtree(self.path.parent / PARTS_NAME, ignore_errors=True)
        self.parts.clear()

    def _parted(self, key: str, value: Any) -> Any:
        """`value` (at `key`, dotted, in the state) ready for the JSON: of each Appended list
        in it, the elements not written yet written as a part, and the list given as the
        names of its parts."""
        if isinstance(value, dict):
            return {k: self._parted(f"{key}.{k}".lstrip("."), v) for k, v in value.items()}
        if not isinstance(value, Appended):
            return value
        parts = self.parts.setdefault(key, [])
        written = sum(n for _, n, _ in parts)
        new = value.elements[written:]
        if new:
            name = f"{key}-{written:012d}.json"
            data = json.dumps(list(map(value.state, new))).encode()
            atomic_write(self.path.parent / PARTS_NAME / name, data)
            parts.append((name, len(new), hashlib.sha256(data).hexdigest()))
        return {"$parts": [[name, digest] for name, _, digest in parts]}

    def _joined(self, key: str, value: Any) -> Any:
        """A saved value (at `key` in the state), each list kept in parts read back whole."""
        if not isinstance(value, dict):
            return value
        if set(value) != {"$parts"}:
            return {k: self._joined(f"{key}.{k}".lstrip("."), v) for k, v in value.items()}
        elements: list = []
        listed = value["$parts"]
        if not isinstance(listed, list) or not all(_part_entry(entry) for entry in listed):
            raise UsageError(
                f"{self.path} is damaged: its parts are named by plain file names in "
                f"{PARTS_NAME}, each with its SHA-256; run with --fresh to start over"
            )
        for name, digest in listed:
            try:
                data = read_bounded(self.path.parent / PARTS_NAME / name, MAX_CHECKPOINT_BYTES)
                if hashlib.sha256(data).hexdigest() != digest:
                    raise ValueError("it is not what its run saved: its SHA-256 differs")
                part = json.loads(data)
                if not isinstance(part, list):
                    raise ValueError("not a list")
            except (OSError, ValueError) as exc:
                raise UsageError(
                    f"{self.path}: its part {name} cannot be read ({exc}); run with --fresh "
                    "to start over"
                ) from None
            elements += part
            self.parts.setdefault(key, []).append((name, len(part), digest))
        return elements


def _part_entry(entry: Any) -> bool:
    """Whether a checkpoint's entry for a part is [its plain file name, its SHA-256]."""
    return (
        isinstance(entry, list)
        and len(entry) == 2
        and all(isinstance(text, str) for text in entry)
        and plain_name(entry[0])
    )


def discard(folder: Path) -> None:
    """Remove the checkpoint in `folder`: the output of its completed run is written."""
    OutCheckpoint(Path(folder) / CHECKPOINT_NAME, "").clear()


def count_bound(complete: bool, limit: int, report: Report | None) -> str:
    """What a count's summary adds when the count stopped early (it is a lower bound)."""
    if report is not None and report.stopped:
        return f" so far (stopped: {report.stopped}; partial)"
    return "" if complete else f" (stopped at the limit {limit:,}; there may be more)"


def count_stopped(complete: bool, report: Report | None) -> str | None:
    """Why a count stopped before it was exact: the driver's reason, or "limit" where it
    found as many as --limit (or the spec's `limit`) asks for."""
    if report is not None and report.stopped:
        return report.stopped
    return None if complete else "limit"


def resume_command(argv: list[str]) -> str:
    """The command line that continues a stopped run: the same one, with --resume."""
    words = [w for w in argv if w not in ("--resume", "--fresh")]
    return " ".join(["epcg-spec", *map(shlex.quote, words), "--resume"])
