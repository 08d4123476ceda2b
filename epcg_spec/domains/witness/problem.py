"""A compiled witness spec: solve one panel, enumerate layouts, or find joint panel sets."""

from __future__ import annotations

import json
import time
from math import comb
from typing import Any

from ...compile.budget import Estimate
from ...compile.flags import refuse_more_distinct
from ...core.context import RunContext, RunOutput
from ...core.errors import UsageError
from ...core.result import base_result
from ...core.rng import numpy_stream
from ...core.sizes import counted
from ...search.driver import count_bound
from ...spec.yaml_writer import dump_yaml
from .estimate import explain_rows, layout_estimate
from .joint import search_joint
from .layouts import (
    LayoutJob,
    LayoutPlan,
    Library,
    Outcome,
    layout_job,
    layout_plan,
    run_layouts,
)
from .lines import (
    MAX_LINES,
    LineSet,
    cached_count,
    enumerate_lines,
    line_count,
    line_path,
    line_set,
)
from .model import Panel, WitnessSpec
from .render import panel_svg, panels_svg
from .rules import solve

NO_LIMIT = 1 << 62


class WitnessProblem:
    """A panel's lines (exhaustive), every layout (exhaustive) or joint sets (branch and bound)."""

    kind = "witness"

    def __init__(self, spec: WitnessSpec):
        self.spec = spec
        self.name = spec.name
        self.backend = spec.backend
        self._plan: LayoutPlan | None = layout_plan(spec) if spec.placements else None

    # ---- describing ----

    def space_size(self) -> int | None:
        if self._plan is not None:
            return self._plan.space.max_rank
        return line_count(self.spec.grid)

    def explain(self) -> list[tuple[str, str]]:
        spec, grid = self.spec, self.spec.grid
        cached, lines = cached_count(grid) is not None, line_count(grid)
        rows = [
            ("spec", f"{spec.name} (kind: witness)"),
            ("panel", f"{grid.width}x{grid.height} cells, line from {grid.start} to {grid.goal}"),
            (
                "candidate lines",
                f"more than {MAX_LINES:,}: too many to search"
                if lines > MAX_LINES
                else f"{lines:,} ({'cached' if cached else 'counted; listed on the first build'})",
            ),
            ("symbols", _symbol_summary(spec.panel) or "none"),
            (
                "pieces",
                f"{len(spec.pieces)}: "
                + ", ".join(f"{p.name} {'/'.join(p.rows)}" for p in spec.pieces),
            ),
        ]
        if self._plan is None:
            rows.append(("back end", "exhaustive: every candidate line is checked"))
            return rows
        for p in spec.placements:
            _, size = grid.domain(p.domain)
            rows.append(
                (
                    "layout",
                    f"{p.count} {p.kind} on {p.domain}: C({size}, {p.count}) positions x "
                    f"{len(p.values)}^{p.count} values",
                )
            )
        rows.append(("space", self._plan.space.describe()))
        if spec.joint is None:
            rows.append(
                ("back end", f"exhaustive: every layout, keeping the {spec.objective} solutions")
            )
        else:
            rows.append(
                (
                    "back end",
                    f"branch_and_bound: {spec.joint.panels} of the panels with "
                    f"{spec.joint.min_solutions}..{spec.joint.max_solutions or 'any'} solutions, "
                    "exactly one joint solution; best: the most joint solutions left by every "
                    "proper subset",
                )
            )
        rows.append(("keeps", f"the best {spec.top}"))
        return rows + explain_rows(self._plan)

    def estimate(self, ctx: RunContext) -> Estimate:
        """Floors on a layout or joint search's time and memory (estimate.py); a single
        panel's check has none."""
        return Estimate() if self._plan is None else layout_estimate(self._plan, ctx)

    # ---- running ----

    def run(self, ctx: RunContext) -> RunOutput:
        lines = line_set(self.spec.grid)
        if self.spec.mode == "solve":
            return self._solve(ctx, lines)
        if self.spec.mode == "layouts":
            return self._layouts(ctx, lines)
        return self._joint(ctx, lines)

    def job(self, name: str, args: dict, ctx: RunContext) -> LayoutJob:
        """The driver's job ("layouts": every layout, keeping the panels whose solution
        count lies in args["library"] if given), here or on a cluster worker."""
        library = Library(*args["library"]) if args.get("library") else None
        job = layout_job(self._plan, line_set(self.spec.grid), library)
        job.remote = (name, args)
        return job

    def refused(self, command: str) -> dict[str, str]:
        """Run flags this spec's mode cannot honour, with the reason."""
        flags = ("--shard", "--resume", "--fresh", "--time-limit", "--threads", "--scheduler")
        if self.spec.mode == "solve" and command in ("build", "count"):
            why = "mode solve checks one panel in a single search"
            return {**dict.fromkeys(flags, why), "--force": f"{why}: there is no estimate"}
        if self.spec.mode == "joint" and command == "build":
            why = "a joint search's first phase (collecting candidates) keeps no checkpoint"
            return {
                "--time-limit": why,
                "--shard": "a joint search needs every candidate panel in one run",
            }
        return {}

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput:
        size = self.space_size()
        result = base_result(self.name, self.kind, self.backend, ctx)
        what = "layouts" if self._plan is not None else "candidate lines"
        summary = [f"{self.name}: {size:,} {what}"]
        result.update(space_size=size)
        if not constrained:
            return RunOutput(result=result, summary=summary)
        lines = line_set(self.spec.grid)
        if self._plan is None:
            ran = self._solve(ctx, lines)
        else:
            ran = self._layouts(ctx, lines, draw=False)
        keep = ("count", "evaluated", "seconds", "compile_seconds", "partial")
        result.update({k: ran.result[k] for k in keep if k in ran.result})
        noun = "solution" if self._plan is None else "solvable panel"
        if ran.result.get("limited"):  # a single panel's solutions, up to search.limit
            bound, stopped = count_bound(False, self.spec.limit, None), "limit"
        else:
            bound = f" so far (partial: {ran.stopped})" if ran.stopped else ""
            stopped = ran.stopped
        summary.append(f"  {counted(ran.result['count'], noun)}{bound}")
        return RunOutput(result=result, summary=summary, stopped=stopped)

    def sample(self, ctx: RunContext, ranks: list[int] | None, n: int, distinct: bool) -> RunOutput:
        size = self.space_size()
        if ranks is None:
            rng = numpy_stream(ctx.seed)
            if distinct:
                refuse_more_distinct(n, size, "candidates")
            ranks = (
                [int(r) for r in rng.choice(size, size=n, replace=False)]
                if distinct
                else [int(r) for r in rng.integers(0, size, size=n)]
            )
        bad = [r for r in ranks if not -size <= r < size]
        if bad:
            raise UsageError(f"rank {bad[0]} is out of range: ranks are 0..{size - 1}")
        chosen = [r + size if r < 0 else r for r in ranks]
        samples = [{"rank": r, "state": self._state_of(r)} for r in chosen]
        result = base_result(self.name, self.kind, self.backend, ctx)
        result.update(space_size=size, samples=samples)
        return RunOutput(
            result=result, summary=[f"{s['rank']}: {json.dumps(s['state'])}" for s in samples]
        )

    def _state_of(self, rank: int) -> Any:
        if self._plan is None:
            bits = enumerate_lines(self.spec.grid)
            return {"line": [list(v) for v in line_path(self.spec.grid, bits[rank])]}
        panel = self._plan.panel(rank)
        if panel is None:
            return {"panel": None, "why": "two symbols share a cell or a slot"}
        return {"panel": panel.to_data(self.spec.pieces)}

    # ---- the three modes ----

    def _solve(self, ctx: RunContext, lines: LineSet) -> RunOutput:
        spec = self.spec
        limit = spec.limit or NO_LIMIT
        began = time.perf_counter()
        solved = solve(spec.panel, spec.pieces, lines, limit, spec.top)
        seconds = time.perf_counter() - began
        count, found = solved.count, solved.found
        paths = [line_path(spec.grid, lines.bits[i]) for i in found]
        result = base_result(self.name, self.kind, self.backend, ctx)
        result.update(
            space_size=lines.count,
            evaluated=solved.checked,
            count=count,
            limited=count >= limit,
            panel=spec.panel.to_data(spec.pieces),
            best=[
                {"rank": i, "score": None, "state": {"line": [list(v) for v in path]}}
                for i, path in zip(found, paths, strict=True)
            ],
            seconds=round(seconds, 3),
        )
        artifacts = {"panel.svg": panel_svg(spec.panel, spec.pieces, title=spec.name)}
        more = "+" if count >= limit else ""
        for k, path in enumerate(paths):  # files count from 0, as every kind's do
            artifacts[f"solution-{k}.svg"] = panel_svg(
                spec.panel,
                spec.pieces,
                path,
                title=f"solution {k} of {count:,}{more} (numbered from 0)",
            )
        summary = [
            f"{spec.name}: {spec.grid.width}x{spec.grid.height} panel, {lines.count:,} "
            f"candidate lines, {count:,}{more} solution{'s' if count != 1 or more else ''}",
        ]
        return RunOutput(result=result, artifacts=artifacts, summary=summary)

    def _layouts(self, ctx: RunContext, lines: LineSet, draw: bool = True) -> RunOutput:
        spec = self.spec
        outcome = run_layouts(self.job("layouts", {}, ctx), ctx)
        tally = outcome.tally
        result = self._layout_result(ctx, outcome)
        best, artifacts = [], {}
        for k, (solutions, rank) in enumerate(tally.best):
            panel = self._plan.panel(rank)
            best.append({"rank": rank, "score": solutions, "state": panel.to_data(spec.pieces)})
            if draw:
                artifacts.update(self._drawings(f"best-{k}", panel, lines, solutions, rank))
        result["best"] = best
        summary = [
            f"{spec.name}: {self._plan.space.describe()}",
            f"  {tally.solvable:,} solvable, {tally.unique:,} with exactly one solution"
            + (f", {tally.invalid:,} with two symbols in one place" if tally.invalid else ""),
            f"  {_lines_left(outcome.lines, line_count(spec.grid))}; "
            f"{outcome.report.seconds:.3f} s "
            f"(kernels ready in {outcome.report.compile_seconds:.1f} s)",
        ]
        if not outcome.report.complete:
            summary.append(f"  partial: stopped by {outcome.report.stopped}")
        if best:
            score = counted(best[0]["score"], "solution")
            summary.append(f"  best: rank {best[0]['rank']} with {score}")
        stopped = outcome.report.stopped
        return RunOutput(result=result, artifacts=artifacts, summary=summary, stopped=stopped)

    def _layout_result(self, ctx: RunContext, outcome: Outcome) -> dict[str, Any]:
        tally = outcome.tally
        result = base_result(self.name, self.kind, self.backend, ctx)
        result.update(
            space=self._plan.space.describe(),
            space_size=self._plan.space.max_rank,
            evaluated=tally.evaluated,
            count=tally.solvable,
            unique=tally.unique,
            invalid=tally.invalid,
            lines=outcome.lines,
            solutions_histogram={str(c): n for c, n in enumerate(tally.histogram) if n},
            objective={
                "sense": "minimize" if self.spec.objective == "fewest" else "maximize",
                "expr": "solutions",
            },
            best=[],
            top=self.spec.top,
            shard=outcome.report.shard_field(),
            seconds=round(outcome.report.seconds, 3),
            **outcome.report.fields(),
        )
        return result

    def _drawings(self, stem: str, panel: Panel, lines: LineSet, solutions: int, rank: int):
        """The panel, its first solution, and a spec that re-checks it with `build`."""
        spec = self.spec
        first = solve(panel, spec.pieces, lines, 1, 1).found[0]
        path = line_path(spec.grid, lines.bits[first])
        label = f"rank {rank}: {solutions} solution{'s' if solutions != 1 else ''}"
        return {
            f"{stem}.svg": panel_svg(panel, spec.pieces, title=label),
            f"{stem}-solution.svg": panel_svg(panel, spec.pieces, path, title=label),
            f"{stem}.yaml": self._recheck_spec(f"{spec.name}-{stem}", panel),
        }

    def _recheck_spec(self, name: str, panel: Panel) -> str:
        data: dict[str, Any] = {
            "kind": "witness",
            "name": name,
            "panel": panel.to_data(self.spec.pieces),
        }
        if "pieces" in self.spec.document.data:
            data["pieces"] = self.spec.document.data["pieces"]
        return dump_yaml(data)

    def _joint(self, ctx: RunContext, lines: LineSet) -> RunOutput:
        spec, joint = self.spec, self.spec.joint
        library = [joint.min_solutions, joint.max_solutions]
        search = search_joint(self.job("layouts", {"library": library}, ctx), lines, ctx)
        found, tally = search.found, search.layouts.tally
        unpruned = comb(len(search.ranks), joint.panels)
        result = self._layout_result(ctx, search.layouts)
        result.update(
            space_size=comb(search.candidates, joint.panels),
            evaluated=found.nodes,
            count=len(found.best),
            solvable=tally.solvable,
            layouts_evaluated=tally.evaluated,
            candidates=search.candidates,
            distinct_candidates=len(search.ranks),
            nodes=found.nodes,
            unpruned=unpruned,
            objective={
                "sense": "maximize",
                "expr": "fewest joint solutions over the proper subsets, of sets with one",
            },
            seconds=round(search.layouts.report.seconds + found.report.seconds, 3),
            **found.report.fields(),
        )
        best, artifacts = [], {}
        for k, (value, chosen) in enumerate(found.best):
            ranks = [int(search.ranks[i]) for i in chosen]
            panels = [self._plan.panel(r) for r in ranks]
            path = line_path(spec.grid, lines.bits[search.joint_line(chosen)])
            state = {
                "ranks": ranks,
                "panels": [p.to_data(spec.pieces) for p in panels],
                "line": [list(v) for v in path],
            }
            best.append({"rank": None, "score": value, "state": state})
            titles = [
                f"rank {ranks[m]}: {counted(search.sizes[i], 'solution')}"
                for m, i in enumerate(chosen)
            ]
            artifacts[f"joint-{k}.svg"] = panels_svg(panels, spec.pieces, None, titles)
            artifacts[f"joint-{k}-solution.svg"] = panels_svg(panels, spec.pieces, path, titles)
            for m, panel in enumerate(panels):
                artifacts[f"joint-{k}-panel-{m}.yaml"] = self._recheck_spec(
                    f"{spec.name}-{k}-panel-{m}", panel
                )
        result["best"] = best
        summary = [
            f"{spec.name}: {tally.solvable:,} solvable panels of {self._plan.space.max_rank:,} "
            f"layouts; the {len(search.ranks):,} with different solution sets are candidates",
            f"  branch and bound: {found.nodes:,} nodes expanded; the unpruned tree has "
            f"{unpruned:,} sets of {joint.panels} ({found.report.seconds:.2f} s)",
        ]
        if best:
            summary.append(
                f"  best: ranks {best[0]['state']['ranks']}: one joint solution, and every "
                f"proper subset leaves at least {best[0]['score']:g}"
            )
        else:
            summary.append("  no set has exactly one joint solution")
        stopped = found.report.stopped
        return RunOutput(result=result, artifacts=artifacts, summary=summary, stopped=stopped)


def _symbol_summary(panel: Panel) -> str:
    kinds: dict[str, int] = {}
    for symbol in panel.symbols:
        kinds[symbol.kind] = kinds.get(symbol.kind, 0) + 1
    return ", ".join(f"{n} {kind}" for kind, n in kinds.items())


def _lines_left(kept: int, total: int) -> str:
    """How many candidate lines the layouts were checked against, of the panel's."""
    if kept == total:
        return f"{total:,} candidate lines"
    return f"{kept:,} of the {total:,} candidate lines meet the fixed symbols"
