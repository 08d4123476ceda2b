"""The retrograde back end's driver: layered dynamic programming over ranked states.

Layer m holds the states of m pieces, ranked 0..size(m) - 1. From the goal layer up, one
bit per state says whether it is solvable (some move leads to a solvable state of layer
m - 1), and the unique states of each layer, under each asked rule, are kept as a sorted
list of ranks. Solvable bits come from a scan of the whole layer (`scan_blocks`, then
`fill_blocks` for the states that are not canonical; see retrograde_loop). Unique states
either come out of the same scan, or are found among the predecessors of the unique
states of layer m - 1 (`predecessor_blocks`), which never looks at the rest of layer m:
both give the same states.

Layers live in a LayerStore (layer_store.py) under `store/<space name>-r<FORMAT>/`:
`solvable-<m>.bits` (raw uint64 words) and `unique-<rule>-<m>.npy` (sorted int64 ranks),
each published with a manifest (its count and checksum) once it is complete, so a later run
reuses them, and a damaged one is computed again. One run at a time computes a layer, under
that layer's lock; another run that needs it waits, then reuses it. Work runs in chunks of
blocks; between chunks the progress is shown, a checkpoint is written every few seconds (an
interrupted layer goes on where it stopped when the same command runs again) and Ctrl-C is
honoured. The outcome never depends on the number of threads or on the chunking.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numba
import numpy as np

from ..compile.connector import generated_module, loop_template
from ..core.context import RunContext
from ..core.errors import BuildError, Interrupted
from ..core.files import atomic_write, bounded_bytes
from ..core.seal import sealed, unsealed
from . import driver, gpu, retrograde_gpu
from .blocks import sorted_side_by_side, use_threads
from .layer_store import Damaged, LayerStore

FORMAT = 2  # of the stored layers and of what they mean: bump it when either changes
RULES = ("moves", "boards")
SCAN_BLOCK = 1 << 18  # ranks per scan block, a multiple of 64: blocks own whole words
PREDECESSOR_BLOCK = 256  # unique states per predecessor block
KERNEL_NAMES = (
    "layer_unrank",
    "layer_next",
    "layer_rank",
    "layer_moves",
    "layer_successor_rank",
    "layer_predecessors",
    "layer_is_canonical",
    "layer_canonical",
    "MAX_MOVES",
    "MAX_PREDECESSORS",
    "STATE_TYPE",
)
EMPTY = np.zeros(0, np.uint64)


@dataclass(frozen=True)
class LayeredSpace:
    """What a domain hands to the retrograde back end.

    `kernels` names the module defining every name of KERNEL_NAMES (see the template's
    docstring); `tables` reaches each kernel as G; `name` names the store folder and must
    change whenever the states, the moves or the ranking change.
    """

    name: str
    kernels: str
    tables: tuple
    layer_size: Callable[[int], int]
    goal: int = 1


@dataclass(frozen=True)
class Plan:
    """Solvable bits for layers up to `solvable`, unique states up to `unique` (at most
    solvable + 1), under `rules`, found by "predecessors" or by "scan"."""

    solvable: int
    unique: int
    rules: tuple[str, ...]
    unique_by: str


@dataclass
class LayerReport:
    """What one layer holds, and what this run spent on it."""

    pieces: int
    size: int
    solvable: int | None = None
    unique: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # over all threads: the work done, however busy the machine
    evaluated: int = 0
    computed: bool = False  # by this run (the goal layer's states are not judged: all solved)

    def as_dict(self) -> dict:
        return {
            "pieces": self.pieces,
            "boards": self.size,
            "solvable": self.solvable,
            "unique": dict(self.unique),
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "computed": self.computed,
        }


class Retrograde:
    """The layers of one layered space in one store folder, computed on demand."""

    def __init__(self, space: LayeredSpace, store: Path, ctx: RunContext):
        self.space = space
        self.folder = Path(store) / f"{space.name}-r{FORMAT}"
        self.store = LayerStore(self.folder)
        self.ctx = ctx
        self._module: ModuleType | None = None
        self._plan: Plan | None = None
        self._reports: dict[int, LayerReport] = {}
        self.compile_seconds = 0.0  # the compile step's (_compile), apart from every layer's
        self._compiled = False

    # ---- what is stored ----

    def _path(self, name: str) -> Path:
        return self.folder / name

    def _record(self, name: str) -> dict | None:
        """A checkpoint of work under way (None if there is none, or it is unreadable or
        not what was saved: its seal differs)."""
        path = self._path(name + ".json")
        if not path.exists():
            return None
        try:  # bounded: a pipe in its place waited forever
            saved = json.loads(bounded_bytes(path))
        except (OSError, ValueError):
            saved = None
        record = unsealed(saved)
        if record is None:
            self.store.say(f"damaged: {path} is unreadable or edited; starting that work over")
        return record

    def _write_record(self, name: str, record: dict) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write(self._path(name + ".json"), json.dumps(sealed(record)))

    def solvable_count(self, m: int, full: bool = False) -> int | None:
        """How many states of layer m are solvable, if that layer is stored and sound."""
        record = self.store.record(f"solvable-{m}.bits", full)
        return None if record is None else record["count"]

    def unique_count(self, rule: str, m: int, full: bool = False) -> int | None:
        """How many states of layer m are unique under `rule`, if that list is stored and
        sound."""
        record = self.store.record(f"unique-{rule}-{m}.npy", full)
        return None if record is None else record["count"]

    def solvable_bits(self, m: int) -> np.ndarray:
        """Layer m's solvable bits, read into memory (raises Damaged if they are)."""
        return self.store.read_bits(f"solvable-{m}.bits")

    def unique_ranks(self, rule: str, m: int) -> np.ndarray:
        """Layer m's unique ranks under `rule`, ascending (memory-mapped); after `run`, a
        damaged list is computed again first."""
        try:
            return self.store.read_array(f"unique-{rule}-{m}.npy")
        except Damaged:
            if m not in self._reports:
                raise
        self._layer(m, full=True)
        return self.store.read_array(f"unique-{rule}-{m}.npy")

    def _counts(self, m: int, full: bool) -> dict[str, int | None]:
        """The count of each file layer m must hold under the plan (None: missing)."""
        counts = {rule: self.unique_count(rule, m, full) for rule in self._plan.rules}
        if m <= self._plan.solvable:
            counts["solvable"] = self.solvable_count(m, full)
        return counts

    def _save_solvable(self, m: int, work: Path, count: int, spent: dict) -> None:
        self.store.publish(f"solvable-{m}.bits", work, {"count": count, **spent})

    def _save_unique(self, rule: str, m: int, ranks: np.ndarray, spent: dict) -> None:
        self.store.publish_array(f"unique-{rule}-{m}.npy", ranks, {"count": len(ranks), **spent})

    # ---- computing ----

    @property
    def module(self) -> ModuleType:
        """The generated module: the template's loops over the domain's kernels."""
        if self._module is None:
            imports = [f"from {self.space.kernels} import {', '.join(KERNEL_NAMES)}"]
            # named by the kernels' module, not the space: every shape shares one compilation
            self._module = generated_module(
                f"retrograde over {self.space.kernels}", imports, [loop_template("retrograde_loop")]
            )
        return self._module

    def _loops(self):
        """What runs a pass's block loops: the module, or on --device gpu the GPU's module
        (which imports the module's block loops) through GpuLoops."""
        if self.ctx.device != "gpu":
            return self.module
        names = ", ".join(retrograde_gpu.CPU_NAMES)
        imports = ["from numba import cuda", f"from {self.module.__name__} import {names}"]
        module = generated_module(
            f"retrograde over {self.space.kernels}, on the GPU",
            imports,
            [loop_template("retrograde_gpu_loop")],
        )
        return retrograde_gpu.GpuLoops(module)

    def _rule_code(self, rule: str) -> int:
        """The loops' code of a rule (RULE_MOVES, RULE_BOARDS of the template)."""
        return getattr(self.module, f"RULE_{rule.upper()}")

    def run(self, plan: Plan) -> list[LayerReport]:
        """Compute (or reuse) every layer the plan asks for; one report per layer."""
        if self.ctx.device == "gpu":
            gpu.cuda()  # no device: exit 2 at once, even where every layer is stored
        use_threads(self.ctx.threads)
        self._plan = plan
        sizes = range(self.space.goal, plan.unique + 1)
        self._reports = {m: LayerReport(m, self.space.layer_size(m)) for m in sizes}
        for m in self._reports:
            self._layer(m)
        return list(self._reports.values())

    def _layer(self, m: int, full: bool = False) -> None:
        """Layer m as the plan asks: reused if it is stored and sound (checked whole if
        `full`), else computed under its lock (layer m - 1 first, if a file of it read
        while computing layer m proves damaged); its counts go into its report."""
        counts = self._counts(m, full)
        if None in counts.values():
            if m > self.space.goal:
                self._compile()
            with self.store.lock(f"layer-{m}", f"layer {m}"):
                try:
                    self._compute(m, full)
                except Damaged:
                    self._layer(m - 1, full=True)
                    self._compute(m, full)
            counts = self._counts(m, False)
            if None in counts.values():
                raise BuildError(
                    f"layer {m} was computed but cannot be read back from {self.folder}: "
                    f"is another program changing that folder?"
                )
        report = self._reports[m]
        report.solvable = counts.pop("solvable", None)
        report.unique.update(counts)

    def _compile(self) -> None:
        """Compile (or load) the block loops of every pass the plan has, in one step before
        the first layer this run computes: said once, and timed apart from every layer (a
        cluster's workers compile theirs before each pass instead: cluster.py)."""
        if self._compiled or self.ctx.cluster is not None:
            return
        self.compile_seconds += driver.compile_step(self.ctx, self._compile_loops)
        self._compiled = True

    def _compile_loops(self) -> None:
        """Each block loop the plan uses, called with no block on empty arrays of the types
        a pass gives it (unique ranks are read-only maps), so that no pass compiles again."""
        plan, m = self._plan, self.space.goal + 1
        none = np.zeros(0, np.int64)
        if plan.solvable >= m:
            scan = _ScanWork(
                self._loops(), m, "", none, none, EMPTY, [EMPTY for _ in RULES],
                self.module.SOLVABLE_ONLY, True, self.space.tables, {}, {}, (EMPTY,) * 3,
            )  # fmt: skip
            scan.judge(0, 0)
            scan.fill(0, 0)
        if plan.unique_by == "predecessors" or plan.unique > plan.solvable:
            ranks = none.copy()
            ranks.flags.writeable = False
            self._predecessor_blocks(plan.rules[0], m, ranks, EMPTY)[2](0, 0)

    def _compute(self, m: int, full: bool) -> None:
        """Compute what layer m lacks (the caller holds its lock)."""
        plan, report = self._plan, self._reports[m]
        missing = {key for key, count in self._counts(m, full).items() if count is None}
        report.computed |= bool(missing)
        if m == self.space.goal:
            self._goal_layer(missing, report)
            return
        by_scan = plan.unique_by == "scan" and m <= plan.solvable
        if (missing and by_scan) or "solvable" in missing:
            self._scan(m, plan.rules if by_scan else (), report)
        for rule in plan.rules if not by_scan else ():
            if rule in missing:
                self._predecessors(rule, m, report)

    def _goal_layer(self, missing: set[str], report: LayerReport) -> None:
        """Every state of the goal layer is solved, and unique."""
        m, size = report.pieces, report.size
        everything = np.arange(size, dtype=np.int64)
        if "solvable" in missing:
            bits = np.zeros(_words(size), np.uint64)
            _set_bits(bits, everything)
            self.store.publish_array(
                f"solvable-{m}.bits", bits, {"count": size, **_Clock().spent()}
            )
        for rule in self._plan.rules:
            if rule in missing:
                self._save_unique(rule, m, everything, _Clock().spent())

    def _scan(self, m: int, rules: tuple[str, ...], report: LayerReport) -> None:
        """Solvable bits of layer m (and its unique states under `rules`) by a full scan,
        into work files named after the job, published once both passes are done."""
        size = report.size
        _, job, paths = self._scan_names(m, rules)
        state = self._record(job)  # its work files looked at before they are made
        if state is None or not all(_holds_bits(path, size) for path in paths.values()):
            state = {"pass": 1, "next": 0, "tally": [0]}
        scan = self._scan_work(m, rules)
        files = scan.files
        clock = _Clock(state.get("seconds", 0.0), state.get("cpu_seconds", 0.0))

        def save(pass_no: int, done: dict) -> None:
            for array in files.values():
                array.flush()
            record = {"pass": pass_no, "next": done["block"], "tally": [done["count"]]}
            self._write_record(job, record | clock.spent())

        for pass_no, label, name in ((1, "judging", "judge"), (2, "filling in", "fill")):
            if state["pass"] == pass_no:
                count = self._chunks(
                    f"layer {m}: {label} {size:,} boards",
                    (scan.starts, scan.ends),
                    state["next"],
                    state["tally"][0],
                    getattr(scan, name),
                    lambda done, p=pass_no: save(p, done),
                    (name, {"m": m, "rules": list(rules)}),
                )
                state.update({"pass": pass_no + 1, "next": 0, "tally": [count]})
                save(pass_no + 1, {"block": 0, "count": count})
        for rule in rules:
            self._save_unique(rule, m, _set_ranks(scan.out[1 + RULES.index(rule)]), clock.spent())
        self._save_solvable(m, paths.pop("solvable"), state["tally"][0], clock.spent())
        self._path(job + ".json").unlink()
        for path in paths.values():
            path.unlink()
        clock.charge(report)
        report.evaluated += size

    def _scan_names(self, m: int, rules: tuple[str, ...]) -> tuple[int, str, dict[str, Path]]:
        """A scan's code of rules, its name (of its record) and its work files' paths, by
        the bits they hold."""
        code = sum(self._rule_code(r) for r in rules) or self.module.SOLVABLE_ONLY
        name = f"scan-{m}-{code}"
        return code, name, {key: self._path(f"{name}-{key}.bits") for key in ("solvable", *rules)}

    def _scan_work(self, m: int, rules: tuple[str, ...]) -> _ScanWork:
        """The two passes of a scan of layer m over its work files (here, or on a cluster
        worker that sees the same store)."""
        size = self.space.layer_size(m)
        code, name, paths = self._scan_names(m, rules)
        files = {key: self._bits_file(path, size) for key, path in paths.items()}
        below_unique = [self._unique_bits(r, m - 1) if r in rules else EMPTY for r in RULES]
        return _ScanWork(
            self._loops(),
            m,
            name,
            np.arange(0, size, SCAN_BLOCK, dtype=np.int64),
            np.minimum(np.arange(0, size, SCAN_BLOCK, dtype=np.int64) + SCAN_BLOCK, size),
            self.solvable_bits(m - 1),
            below_unique,
            code,
            m == self.space.goal + 1,
            self.space.tables,
            paths,
            files,
            tuple(np.asarray(files[k]) if k in files else EMPTY for k in ("solvable", *RULES)),
        )

    def job(self, name: str, args: dict) -> _BlocksJob:
        """A pass's job as a cluster worker rebuilds it: its blocks, and each task's bits
        flushed to the shared store before the task returns."""
        if name == "predecessors":
            starts, ends, do = self._predecessor_work(args["rule"], args["m"])
        else:
            scan = self._scan_work(args["m"], tuple(args["rules"]))
            starts, ends, do = scan.starts, scan.ends, scan.flushed(getattr(scan, name))
        return _BlocksJob(name, starts, ends, do, remote=(name, args))

    def _bits_file(self, path: Path, size: int) -> np.memmap:
        """A work file of `size` bits: kept as it is if it has the right size, else zeros."""
        self.folder.mkdir(parents=True, exist_ok=True)
        _only_a_file(path)
        words = _words(size)
        if not _holds_bits(path, size):
            with open(path, "wb") as handle:
                handle.truncate(words * 8)
        return np.memmap(path, np.uint64, mode="r+", shape=(words,))

    def _unique_bits(self, rule: str, m: int) -> np.ndarray:
        bits = np.zeros(_words(self.space.layer_size(m)), np.uint64)
        _set_bits(bits, np.asarray(self.store.read_array(f"unique-{rule}-{m}.npy")))
        return bits

    def _predecessors(self, rule: str, m: int, report: LayerReport) -> None:
        """Layer m's unique states under `rule`, among predecessors of layer m - 1's."""
        starts, ends, work = self._predecessor_work(rule, m)
        n = int(ends[-1]) if len(ends) else 0
        job = f"predecessors-{rule}-{m}"
        part = self._path(f"unique-{rule}-{m}.part")
        state = self._record(job)
        _only_a_file(part)
        if state is None or not part.exists() or part.stat().st_size < state["found"] * 8:
            state = {"next": 0, "found": 0}
            self.folder.mkdir(parents=True, exist_ok=True)
            part.write_bytes(b"")
        with open(part, "r+b") as handle:
            handle.truncate(state["found"] * 8)
        clock = _Clock(state.get("seconds", 0.0), state.get("cpu_seconds", 0.0))

        def save(done: dict) -> None:
            """Append the ranks found since the last save; the record says how many count
            (a resumed run cuts the file back to that, so nothing is counted twice)."""
            with open(part, "ab") as handle:
                for ranks in done.get("pending", ()):
                    handle.write(ranks.tobytes())
            record = {"next": done["block"], "found": done["count"]}
            self._write_record(job, record | clock.spent())
            done["pending"].clear()  # the job's list: these ranks are in the file now

        self._chunks(
            f"layer {m}: unique ({rule}) among predecessors of {n:,} boards",
            (starts, ends),
            state["next"],
            state["found"],
            work,
            save,
            ("predecessors", {"rule": rule, "m": m}),
        )
        ranks = sorted_side_by_side(np.fromfile(part, np.int64))
        self._save_unique(rule, m, ranks, clock.spent())
        part.unlink()
        self._path(job + ".json").unlink()
        clock.charge(report)
        report.evaluated += n

    def _predecessor_work(self, rule: str, m: int):
        """The blocks of layer m - 1's unique states under `rule`, and work(lo, hi) giving
        how many unique states of layer m blocks lo..hi - 1 found, and their ranks."""
        unique_below = np.asarray(self.store.read_array(f"unique-{rule}-{m - 1}.npy"))
        return self._predecessor_blocks(rule, m, unique_below, self.solvable_bits(m - 1))

    def _predecessor_blocks(self, rule: str, m: int, unique_below: np.ndarray, below: np.ndarray):
        """`_predecessor_work` over the given unique ranks and solvable bits of layer m - 1."""
        free_last = m == self.space.goal + 1
        n = len(unique_below)
        starts = np.arange(0, n, PREDECESSOR_BLOCK, dtype=np.int64)
        ends = np.minimum(starts + PREDECESSOR_BLOCK, n)
        loops = self._loops()
        code = self._rule_code(rule)
        capacity = PREDECESSOR_BLOCK * int(self.module.MAX_PREDECESSORS)

        def work(lo: int, hi: int) -> tuple[int, list]:
            out = np.empty((hi - lo, capacity), np.int64)
            found = np.zeros(hi - lo, np.int64)
            loops.predecessor_blocks(
                m, unique_below, starts[lo:hi], ends[lo:hi], below, code, free_last,
                self.space.tables, out, found,
            )  # fmt: skip
            ranks = [row[:k] for row, k in zip(out, found, strict=True)]
            return int(found.sum()), [np.concatenate(ranks)] if ranks else []

        return starts, ends, work

    def _chunks(self, label: str, blocks, first: int, count: int, work, save, remote: tuple) -> int:
        """Run work(lo, hi) -> (count, results) over the blocks from `first` on, through the
        driver, adding up the counts; save(done) keeps `done` in the store: the next block,
        the count so far and the results not saved yet, which change together in one call,
        so that Ctrl-C never finds them out of step."""
        starts, ends = blocks
        if 0 < first < len(starts):
            share = 1 - int(ends[-1] - starts[first]) / int(ends[-1] - starts[0])
            label += f" (going on from {share:.1%})"
        job = _BlocksJob(label, starts, ends, work, remote=remote)
        report = driver.run(job, self.ctx, None, _StoreCheckpoint(first, count, save))
        if report.stopped:
            raise Interrupted(
                f"{label}: stopped after {report.lo + report.done:,} of {len(starts):,} blocks; "
                f"the work done is kept in {self.folder}: run the same command again to go on"
            )
        return job.count


@dataclass
class _BlocksJob:
    """The driver's job for one pass over a layer's blocks: `do(lo, hi)` gives the count and
    the results of blocks lo..hi - 1; results wait in `pending` until the store saves them
    (the store's save empties that list)."""

    label: str
    starts: np.ndarray
    ends: np.ndarray
    do: Callable[[int, int], tuple[int, list]]
    count: int = 0
    pending: list = field(default_factory=list)
    noun: str = "blocks"
    fixed: int = 0
    finished: bool = False
    remote: tuple[str, dict] | None = None

    @property
    def units(self) -> int:
        return len(self.starts)

    @property
    def most(self) -> int:
        return len(self.starts)

    def prepare(self, first: int) -> None:
        self.do(first, first)  # no blocks: compiles the loops

    def work(self, lo: int, hi: int) -> tuple[int, list]:
        return self.do(lo, hi)

    def fold(self, partial: tuple[int, list]) -> None:
        found, results = partial
        self.count += found
        self.pending += results

    def snapshot(self) -> dict:
        return {"count": self.count, "pending": self.pending}

    def restore(self, state: dict) -> None:
        self.count, self.pending = state["count"], state["pending"]

    def weight(self, lo: int, hi: int) -> int:
        return int(self.ends[hi - 1] - self.starts[lo]) if hi > lo else 0


@dataclass
class _ScanWork:
    """One scan of a layer: its blocks, its work files, and its two passes."""

    loops: Any  # the module of the block loops, or on --device gpu its GpuLoops
    m: int
    name: str  # of the job, and of its work files and checkpoint record
    starts: np.ndarray
    ends: np.ndarray
    below: np.ndarray  # layer m - 1's solvable bits
    below_unique: list[np.ndarray]
    code: int
    free_last: bool
    tables: tuple
    paths: dict[str, Path]
    files: dict[str, np.memmap]
    out: tuple[np.ndarray, ...]

    def judge(self, lo: int, hi: int) -> tuple[int, list]:
        """Pass 1: the bits of the canonical boards of blocks lo..hi - 1."""
        tally = np.zeros((hi - lo, 3), np.int64)
        self.loops.scan_blocks(
            self.m, self.starts[lo:hi], self.ends[lo:hi], self.below, *self.below_unique,
            self.code, self.free_last, self.tables, self.out, tally,
        )  # fmt: skip
        return int(tally[:, 0].sum()), []

    def fill(self, lo: int, hi: int) -> tuple[int, list]:
        """Pass 2: every other board's bits, from its canonical board's."""
        tally = np.zeros((hi - lo, 3), np.int64)
        self.loops.fill_blocks(
            self.m, self.starts[lo:hi], self.ends[lo:hi], self.tables, self.out, tally
        )
        return int(tally[:, 0].sum()), []

    def flushed(self, work: Callable[[int, int], tuple[int, list]]):
        """`work`, with the work files flushed before it returns (for another process)."""

        def run(lo: int, hi: int) -> tuple[int, list]:
            result = work(lo, hi)
            for array in self.files.values():
                array.flush()
            return result

        return run


@dataclass
class _StoreCheckpoint:
    """A pass's progress, kept in the layers store by `save` (no --resume needed)."""

    first: int
    count: int
    save_done: Callable[[dict], None]

    def load(self, ctx: RunContext) -> dict:
        return {"next": self.first, "state": {"count": self.count, "pending": []}}

    def save(self, following: int, state: dict) -> None:
        self.save_done({"block": following, **state})

    def finish(self, following: int, state: dict) -> None:
        self.save(following, state)


class _Clock:
    """Wall and CPU seconds spent on one job, counting those of earlier, interrupted runs."""

    def __init__(self, seconds: float = 0.0, cpu_seconds: float = 0.0):
        self.before = (seconds, cpu_seconds)
        self.began = (time.perf_counter(), time.process_time())

    def spent(self) -> dict[str, float]:
        return {
            "seconds": self.before[0] + time.perf_counter() - self.began[0],
            "cpu_seconds": self.before[1] + time.process_time() - self.began[1],
        }

    def charge(self, report: LayerReport) -> None:
        spent = self.spent()
        report.seconds += spent["seconds"]
        report.cpu_seconds += spent["cpu_seconds"]


def _words(size: int) -> int:
    return (size + 63) // 64


def _only_a_file(path: Path) -> None:
    """Take away what stands at a work file's `path` unless it is a plain file: through a
    link placed in a store others share, a run wrote over a file elsewhere; on a pipe, it
    waited forever."""
    if path.is_symlink() or (path.exists() and not path.is_file()):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def _holds_bits(path: Path, size: int) -> bool:
    """Whether `path` is a plain file (no link) of the right length for `size` bits."""
    plain = path.is_file() and not path.is_symlink()
    return plain and path.stat().st_size == _words(size) * 8


@numba.njit(cache=True)
def _set_bits(bits: np.ndarray, ranks: np.ndarray) -> None:
    for r in ranks:
        bits[r >> 6] |= np.uint64(1) << np.uint64(r & 63)


@numba.njit(cache=True)
def _count_bits(bits: np.ndarray) -> int:
    total = 0
    for word in bits:
        while word:
            word &= word - np.uint64(1)
            total += 1
    return total


@numba.njit(cache=True)
def _fill_ranks(bits: np.ndarray, out: np.ndarray) -> None:
    n = 0
    for w in range(bits.shape[0]):
        word = bits[w]
        r = w * 64
        while word:
            if word & np.uint64(1):
                out[n] = r
                n += 1
            word >>= np.uint64(1)
            r += 1


def _set_ranks(bits: np.ndarray) -> np.ndarray:
    """The ranks of the set bits, ascending."""
    out = np.empty(_count_bits(bits), np.int64)
    _fill_ranks(bits, out)
    return out
