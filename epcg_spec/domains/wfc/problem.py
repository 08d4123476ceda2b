"""A compiled wfc spec: each run's network on the propagate / backtrack back ends."""

from __future__ import annotations

import dataclasses
import math
import time

from ...compile.budget import Estimate
from ...core.context import RunContext, RunOutput
from ...core.errors import UsageError
from ...core.result import base_result
from ...core.rng import item_seed
from ...core.sizes import counted
from ...search import backtrack, driver
from ...search.driver import checkpoint_key, count_bound, count_stopped
from ...search.items import Item, ItemJob
from ...search.propagate import Model, State
from . import checks, diagnose
from .model import WfcRun, WfcSpec
from .network import build_network
from .outputs import picture_memory, pictures, written_files
from .render import cell_domains, cell_values, text_grid
from .topology import describe_grid


def policy_of(run: WfcRun, cells: int) -> backtrack.Policy:
    """Classic WFC (restart on a contradiction) or backtracking with a cap per attempt."""
    if not run.backtrack:
        limit = 0
    elif run.max_backtracks is not None:
        limit = run.max_backtracks
    else:
        limit = cells
    return backtrack.Policy(
        heuristic=run.heuristic,
        max_backtracks=limit,
        attempts=run.attempts,
        decision_limit=run.limit,
    )


class WfcProblem:
    """Wave Function Collapse runs: tiled or overlapping models on grids."""

    kind = "wfc"

    def __init__(self, spec: WfcSpec):
        self.spec = spec
        self.name = spec.name
        self.backend = "backtrack" if any(r.backtrack for r in spec.runs) else "propagate"
        self._models: dict[int, tuple[Model, State | None]] = {}

    def space_size(self) -> int | None:
        return None

    def network(self, index: int) -> tuple[Model, State | None]:
        """The run's model and its propagated start state (None if it contradicts)."""
        if index not in self._models:
            run = self.spec.runs[index]
            model = build_network(run)
            self._models[index] = (model, diagnose.start(run, model))
        return self._models[index]

    def explain(self) -> list[tuple[str, str]]:
        rows = [("spec", f"{self.spec.name} (kind: wfc)")]
        for run in self.spec.runs:
            what = (
                f"tiled, {len(run.tiled.tiles)} tiles, {run.values} variants"
                if run.tiled is not None
                else f"overlapping, N = {run.patterns.n}, {run.values} patterns, "
                f"{len(run.patterns.colors)} colours"
            )
            rows += [
                (f"run {run.name}", what),
                ("  grid", describe_grid(run.topology)),
                ("  heuristic", run.heuristic),
                ("  back end", _describe_policy(policy_of(run, run.cells))),
                ("  restrictions", f"{len(run.restrictions)} (fixed cells, borders, ground)"),
            ]
            for count in run.counts:
                rows.append(("  count", f"{count.lo} <= #{count.label} <= {count.hi}"))
            if run.connection is not None:
                how = "through tile exits" if run.connection.exits else "through adjacent cells"
                rows.append(("  connected", f"{len(run.connection.values)} variants, {how}"))
            if run.nogoods:
                forbidden = sum(len(n.cells) for n in run.nogoods)
                rows.append(("  non-local", f"{forbidden:,} nogoods (separation, runs, mirror)"))
            if run.acyclic or run.distances:
                rows.append(
                    (
                        "  checked",
                        f"{len(run.acyclic)} acyclic, {len(run.distances)} distance "
                        "(after every decision; a partial map that breaks one is undone)",
                    )
                )
            rows.append(("  estimated memory", f"{_memory(run) / 2**20:,.1f} MiB"))
        return rows

    def estimate(self, ctx: RunContext) -> Estimate:
        """The largest run's wave and propagation tables (runs go one at a time)."""
        return Estimate(memory=max(float(_memory(run)) for run in self.spec.runs))

    def job(self, name: str, args: dict, ctx: RunContext) -> ItemJob:
        """The driver's job ("outputs": output k of a run from seed + k), here or on a
        worker."""
        plan = [(index, k) for index, run in enumerate(self.spec.runs) for k in range(run.outputs)]
        single = len(plan) == 1

        def make(i: int) -> Item:
            index, k = plan[i]
            run = self.spec.runs[index]
            model, base = self.network(index)
            shared = self.spec.name if single else f"{index:02d}-{run.name}"  # the run's
            stem = shared if single else f"{shared}-{k}"
            record, files = self._output(run, model, base, item_seed(ctx.seed, k), stem, shared)
            line = (
                f"{run.name}: {record['status']} after {counted(record['attempts'], 'attempt')}, "
                f"{counted(record['contradictions'], 'contradiction')}, "
                f"{counted(record['backtracks'], 'backtrack')}, "
                f"{record['seconds']:.3f} s -> {', '.join(files)}"
            )
            return Item(record, files, line)

        job = ItemJob(f"wfc {self.spec.name}", len(plan), make, noun="outputs")
        job.remote = (name, args)
        return job

    def run(self, ctx: RunContext) -> RunOutput:
        job = self.job("outputs", {}, ctx)
        key = checkpoint_key(self.spec.document.data, ctx.seed, ctx.shard, ctx.options)
        report = driver.run(job, ctx, key)
        outputs = [item.record for item in job.items]
        result = base_result(self.spec.name, self.kind, self.backend, ctx)
        result.update(
            space_size=None,
            shard=report.shard_field(),
            evaluated=sum(o["attempts"] for o in outputs),
            count=len(outputs),
            best=[
                {"rank": None, "score": None, "state": {"image": o["image"], "seed": o["seed"]}}
                for o in outputs
            ],
            seconds=round(report.seconds, 3),
            **report.fields(),
            attempts=sum(o["attempts"] for o in outputs),
            contradictions=sum(o["contradictions"] for o in outputs),
            backtracks=sum(o["backtracks"] for o in outputs),
            outputs=outputs,
        )
        summary = [item.line for item in job.items]
        return RunOutput(result, job.files(), summary, report.stopped)

    def _output(self, run: WfcRun, model: Model, base, seed: int, stem: str, shared: str):
        if base is None:
            raise diagnose.contradiction(run)
        policy = policy_of(run, model.n_vars)
        outcome = backtrack.solve(model, seed, policy, base, check=checks.check_of(run))
        if outcome.status == "infeasible":
            raise diagnose.exhausted(run, outcome)
        if outcome.status not in ("solved", "paused"):
            raise diagnose.out_of_attempts(run, outcome)
        search = outcome.last
        values = cell_values(run, search.values())
        files = pictures(run, cell_domains(run, search.domains()), values, stem)
        if run.tiled is not None and run.text_output:
            files[f"{stem}.txt"] = text_grid(run, values)
        files.update(written_files(run, values, stem, shared))
        record = {
            "run": run.name,
            "seed": seed,
            "status": outcome.status,
            "attempts": outcome.attempts,
            "contradictions": outcome.contradictions,
            "backtracks": outcome.backtracks,
            "decisions": outcome.decisions,
            "seconds": round(outcome.seconds, 4),
            "grid": list(run.topology.shape[: 3 if run.topology.grid == "cube" else 2]),
            "image": f"{stem}.png",
            "text": f"{stem}.txt" if f"{stem}.txt" in files else None,
            "files": list(files),
        }
        return record, files

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput:
        """Exact number of complete outputs of each run (or up to --limit)."""
        limit = ctx.limit or 0
        if not limit and ctx.time_limit is None:
            _refuse_an_endless_count(self.spec.runs)
        began, counting = time.perf_counter(), 0.0  # the runs' counting alone
        counts, summary, stopped, fields = [], [], None, {"compile_seconds": 0.0}
        for index, run in enumerate(self.spec.runs):
            model, base = self.network(index)
            report = None
            if base is None:
                found, complete = 0, True
            else:
                check = checks.check_of(run)
                left = _time_left(ctx, counting)
                found, complete, report = backtrack.run_count(
                    model, left, limit, base=base, check=check
                )
            why = count_stopped(complete, report)
            stopped = why or stopped  # a later run's limit leaves an earlier run's
            if report:  # the driver's fields: the runs' compile time, the one that stopped
                counting += report.seconds
                compiled = fields["compile_seconds"] + report.compile_seconds
                fields = {**report.fields(), "compile_seconds": round(compiled, 3)}
            counts.append({"run": run.name, "count": found, "complete": complete})
            bound = count_bound(complete, limit, report)
            summary.append(f"{run.name}: {counted(found, 'complete output')}{bound}")
            if why not in (None, "limit"):  # the driver stopped: the runs share its limits
                break
        result = base_result(self.spec.name, self.kind, "backtrack", ctx)
        result.update(
            space_size=None,
            evaluated=len(counts),
            count=sum(c["count"] for c in counts),
            best=[],
            seconds=round(time.perf_counter() - began, 3),
            counts=counts,
            **fields,
        )
        return RunOutput(result=result, summary=summary, stopped=stopped)


def _time_left(ctx: RunContext, spent: float) -> RunContext:
    """`ctx` with what is left of its time limit and budget after `spent` seconds of
    counting: the runs of one count share them (as one run's, their networks and compiling
    are not counted)."""
    return dataclasses.replace(
        ctx,
        time_limit=None if ctx.time_limit is None else max(ctx.time_limit - spent, 1e-9),
        budget_seconds=None
        if ctx.budget_seconds is None
        else max(ctx.budget_seconds - spent, 1e-9),
    )


OPEN_COUNT_DIGITS = 9  # a map with up to 10**9 outputs is counted without being asked to stop


def _refuse_an_endless_count(runs: list[WfcRun]) -> None:
    """Say up front when counting every output may not end: values ** cells is too large."""
    for run in runs:
        cells, values = run.cells, run.values
        digits = cells * math.log10(max(values, 1))
        if digits > OPEN_COUNT_DIGITS:
            raise UsageError(
                f"{run.name}: a map of {cells:,} cells and {values} values can have "
                f"up to about 10^{digits:,.0f} outputs, too many to count to the end; give "
                "--limit N (stop after N) or --time-limit SECONDS (a partial count)"
            )


def _describe_policy(policy: backtrack.Policy) -> str:
    if policy.max_backtracks == 0:
        return f"propagate: restart on a contradiction, at most {policy.attempts} attempts"
    cap = "unlimited" if policy.max_backtracks < 0 else f"at most {policy.max_backtracks:,}"
    return (
        f"backtrack: undo to the last guess ({cap} backtracks per attempt), "
        f"at most {policy.attempts} attempts"
    )


def _memory(run: WfcRun) -> int:
    """Bytes of a run's wave, entropies and compatibility counts, its adjacency table, and
    an output's pictures while they are drawn."""
    search = run.cells * run.values * (4 * 4 + 8 + 1) + run.values**2 * 16
    return search + picture_memory(run)
