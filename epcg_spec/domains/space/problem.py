"""A compiled space spec: the exhaustive back end over its ranked space."""

from __future__ import annotations

import inspect
import re
import sys
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
from numba.core.errors import NumbaError

from ...compile.budget import Estimate
from ...compile.connector import generated_module
from ...compile.flags import refuse_more_distinct
from ...core.context import RunContext, RunOutput
from ...core.errors import SpecError, UsageError
from ...core.result import base_result
from ...core.rng import numpy_stream
from ...core.sizes import counted
from ...output.result import format_state
from ...search import exhaustive, gpu
from ...search.driver import checkpoint_key
from ...spaces import space_kernel_args
from .kernels import gpu_module_source, module_source
from .load import import_user_functions, user_functions
from .model import Condition, SpaceSpec
from .render import best_pictures

STATES_PER_SECOND = 1.0e8  # the exhaustive back end's rate that estimates assume


class SpaceProblem:
    """Generator (the ranked space) + evaluators (constraints, objective) + exhaustive."""

    kind = "space"
    backend = "exhaustive"

    def __init__(self, spec: SpaceSpec):
        self.spec = spec
        self.name = spec.name
        self._kernels: exhaustive.Kernels | None = None
        self._gpu_kernels: exhaustive.Kernels | None = None

    # ---- describing ----

    def space_size(self) -> int:
        return self.spec.space.max_rank

    def explain(self) -> list[tuple[str, str]]:
        spec = self.spec
        rows = [
            ("spec", f"{spec.name} (kind: space)"),
            ("space", spec.space.describe()),
            (
                "state",
                ", ".join(f"{a.name}[{a.length}] values {a.lo}..{a.hi}" for a in spec.arrays),
            ),
            ("params", ", ".join(f"{k} = {v}" for k, v in spec.params.items()) or "none"),
            ("back end", f"exhaustive, {'with' if spec.prune else 'without'} prefix pruning"),
        ]
        if not spec.space.prefix_ordered:
            rows.append(("pruning", "off: this space's order does not fix positions in order"))
        for i, condition in enumerate(spec.constraints):
            text = condition.text or f"python {condition.user.module}:{condition.user.function}"
            rows.append((f"constraint {condition.name}", text))
            if spec.prune:
                rows.append(("  usable on prefixes", spec.pruning.usable[i]))
        if spec.objective is not None:
            text = spec.objective.text or f"python {spec.objective.user.module}"
            rows.append(("objective", f"{spec.sense} {text}"))
        rows.append(("keeps", f"the best {spec.top} states, ties broken by rank"))
        refusal = self.gpu_refusal()
        rows.append(("devices", f"cpu only: {refusal}" if refusal else "cpu, or gpu (--device)"))
        rows += self._estimates()
        return rows

    def _estimates(self) -> list[tuple[str, str]]:
        estimate = self.estimate(RunContext())
        unpruned = self.space_size() / STATES_PER_SECOND
        time = (
            f"at most {unpruned:,.1f} s at 100 million states/s; pruning usually cuts this"
            if self.spec.prune
            else f"about {unpruned:,.1f} s at 100 million states/s"
        )
        memory = f"{estimate.memory / 2**20:,.1f} MiB"
        return [("estimated time", time), ("estimated memory", memory)]

    def estimate(self, ctx: RunContext) -> Estimate:
        """Memory of the block results and prefix tables; time only without pruning (with
        it, the bound is no forecast a build should be refused on)."""
        size = self.space_size()
        terms = sum(len(f.rows) + len(f.bounds) for f in self.spec.pruning.terms)
        items = sum(len(f.rows) for f in self.spec.pruning.distincts)
        top, length = max(self.spec.top, 1), self.spec.space.length
        memory = min(size, exhaustive.chunk_most(top, length)) * exhaustive.result_bytes(
            top, length
        )
        memory += (terms + items) * 8 * 4
        prune = self.spec.prune and not ctx.options.get("no_prune", False)
        seconds = None if prune else size / ctx.shard[1] / STATES_PER_SECOND
        return Estimate(memory=float(memory), seconds=seconds)

    # ---- running ----

    def kernels(self, allow_python: bool = False, device: str = "cpu") -> exhaustive.Kernels:
        """Generate, import (and on first use compile) the connector module, and for `device`
        "gpu" the GPU's module over it (which imports the first's loops and kernels); a spec
        with Python functions needs `allow_python` (--allow-python), as they run as user
        code."""
        if device == "gpu":
            if self._gpu_kernels is None:
                cpu = self.kernels(allow_python)
                source = gpu_module_source(self.spec, cpu.module.__name__, cpu.groups)
                module = generated_module("a space spec, on the GPU", *source)
                self._gpu_kernels = replace(cpu, module=module, device=device)
            return self._gpu_kernels
        if self._kernels is None:
            spec = self.spec
            users = user_functions(spec)
            if users and not allow_python:
                condition, user = users[0]
                where = spec.document.pos((*condition.path, "python"))
                raise UsageError(
                    f"{where}: this spec runs Python code ({user.module}:{user.function}); "
                    f"pass --allow-python if you trust it (see docs/trust.md)"
                )
            import_user_functions(spec)
            imports, parts, tables, groups, constants, _ = module_source(spec)
            folders = [
                str(c.user.folder) for c in (*spec.constraints, spec.objective) if c and c.user
            ]
            sys.path[:0] = folders
            try:
                module = generated_module("a space spec", imports, parts)
            finally:
                for folder in folders:
                    sys.path.remove(folder)
            self._kernels = exhaustive.Kernels(
                module=module,
                length=spec.space.length,
                params=np.array([*spec.params.values(), *constants] or [0], dtype=np.int64),
                space_args=space_kernel_args(spec.space),
                tables=tables,
                groups=groups,
                scored=spec.objective is not None,
            )
        return self._kernels

    def refused(self, command: str) -> dict[str, str]:
        """Run flags this spec cannot honour, with the reason: the GPU, for kernels it
        cannot run."""
        why = self.gpu_refusal()
        return {"--device": why} if why is not None and command in ("build", "count") else {}

    def gpu_refusal(self) -> str | None:
        """Why this spec cannot run on the GPU; None: it can."""
        if user_functions(self.spec):
            return "this spec's Python functions run on the CPU only"
        if module_source(self.spec).allocates:
            return (
                "a distinct() here spans 64 values or more and needs a buffer; the GPU runs "
                "only kernels that allocate nothing"
            )
        return None

    def _blame_user_functions(self) -> None:
        """After the kernels failed to compile: raise a located error for the first Python
        function of the spec that numba cannot compile on its own (else return: our bug)."""
        spec = self.spec
        for condition in (*spec.constraints, spec.objective):
            if condition is not None and condition.user is not None:
                reason = _numba_refuses(condition)
                if reason:
                    raise SpecError(spec.document.diag((*condition.path, "python"), reason))

    def job(self, name: str, args: dict, ctx: RunContext) -> exhaustive.ExhaustiveJob:
        """The driver's job `name` ("enumerate": every rank), here or on a cluster worker."""
        prune = self.spec.prune and not ctx.options.get("no_prune", False)
        top = max(self.spec.top, 1)
        job = exhaustive.job(self.kernels(device=ctx.device), self.space_size(), prune, top)
        job.remote = (name, args)
        return job

    def _key(self, ctx: RunContext, prune: bool) -> str:
        return checkpoint_key(self.spec.document.data, self.spec.params, ctx.shard, prune)

    def run(self, ctx: RunContext) -> RunOutput:
        spec = self.spec
        prune = spec.prune and not ctx.options.get("no_prune", False)
        key = self._key(ctx, prune)
        where = gpu.describe() if ctx.device == "gpu" else "cpu"  # refused(): it can
        try:
            self.kernels(ctx.allow_python, ctx.device)
            outcome = exhaustive.run(self.job("enumerate", {}, ctx), ctx, key)
        except NumbaError:
            self._blame_user_functions()
            raise
        tally, report = outcome.tally, outcome.report
        sign = 1.0 if spec.sense == "maximize" else -1.0
        best = [
            {
                "rank": rank,
                "score": sign * value if spec.objective is not None else None,
                "state": format_state(spec.arrays, state),
            }
            for value, rank, state in tally.best[: spec.top]
        ]
        result = base_result(spec.name, self.kind, self.backend, ctx)
        result.update(
            space=spec.space.describe(),
            space_size=self.space_size(),
            shard={
                "index": ctx.shard[0],
                "count": ctx.shard[1],
                "lo": outcome.lo,
                "hi": outcome.hi,
            },
            evaluated=tally.evaluated,
            pruned=tally.pruned,
            count=tally.count,
            objective=(
                {"sense": spec.sense, "expr": spec.objective.text} if spec.objective else None
            ),
            top=spec.top,
            best=best,
            seconds=round(report.seconds, 3),
            **report.fields(),
        )
        covered = tally.evaluated + tally.pruned
        rate = covered / report.seconds if report.seconds > 0 else 0.0
        partial = "" if report.complete else f" so far (stopped: {report.stopped}; partial)"
        summary = [
            f"{spec.name}: {spec.space.describe()}",
            f"  {tally.count:,} states meet every constraint{partial} "
            f"({tally.evaluated:,} evaluated, {tally.pruned:,} pruned on prefixes)",
            f"  {report.seconds:.3f} s, {rate:,.0f} ranks/s over "
            f"{counted(outcome.blocks, 'block')} on {where} "
            f"(kernels ready in {report.compile_seconds:.1f} s; compiled once, then cached)",
        ]
        if best:
            top = best[0]
            score = f" score {top['score']:g}" if top["score"] is not None else ""
            summary.append(f"  best: rank {top['rank']}{score}: {_show(top['state'])}")
        return RunOutput(result, best_pictures(best), summary, report.stopped)

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput:
        size = self.space_size()
        result = base_result(self.spec.name, self.kind, self.backend, ctx)
        result.update(space=self.spec.space.describe(), space_size=size)
        summary = [f"{self.spec.name}: {self.spec.space.describe()}"]
        if not constrained:
            return RunOutput(result=result, summary=summary)
        ran = self.run(ctx)
        keep = ("count", "evaluated", "pruned", "seconds", "compile_seconds", "partial")
        result.update({k: ran.result[k] for k in keep if k in ran.result})
        partial = f" so far (partial: {ran.stopped})" if ran.stopped else ""
        summary.append(f"  {ran.result['count']:,} meet every constraint{partial}")
        return RunOutput(result=result, summary=summary, stopped=ran.stopped)

    def sample(self, ctx: RunContext, ranks: list[int] | None, n: int, distinct: bool) -> RunOutput:
        size = self.space_size()
        if ranks is None:
            if distinct:
                refuse_more_distinct(n, size, "states in the space")
            ranks = _random_ranks(numpy_stream(ctx.seed), size, n, distinct)
        bad = [r for r in ranks if not -size <= r < size]
        if bad:
            raise UsageError(
                f"rank {bad[0]} is out of range: the space has ranks 0..{size - 1} "
                f"(negative ranks count from the end)"
            )
        chosen = [r + size if r < 0 else r for r in ranks]
        samples = [
            {"rank": r, "state": format_state(self.spec.arrays, self.spec.space.unrank(r).tolist())}
            for r in chosen
        ]
        result = base_result(self.spec.name, self.kind, self.backend, ctx)
        result.update(space_size=size, samples=samples)
        return RunOutput(
            result=result, summary=[f"{s['rank']}: {_show(s['state'])}" for s in samples]
        )


def _random_ranks(rng: np.random.Generator, size: int, n: int, distinct: bool) -> list[int]:
    """n ranks drawn uniformly (without repeats if `distinct`), in the order drawn."""
    if not distinct:
        return [int(r) for r in rng.integers(0, size, size=n)]
    chosen: dict[int, None] = {}
    while len(chosen) < n:
        chosen.setdefault(int(rng.integers(0, size)))
    return list(chosen)


def _show(state: dict) -> str:
    return "  ".join(f"{k} = {' '.join(map(str, v))}" for k, v in state.items())


ANSI = re.compile(r"\x1b\[[0-9;]*m")
STATE_TYPE = numba.types.Array(numba.types.int64, 1, "C")  # the state array the kernels pass


def _numba_refuses(condition: Condition) -> str | None:
    """Why numba cannot compile a user function alone on the state array, in one line
    naming the function, its file and line; None if it compiles."""
    user = condition.user
    function = getattr(sys.modules[user.module], user.function)
    try:
        numba.njit(function).compile((STATE_TYPE,))
    except NumbaError as exc:
        text = ANSI.sub("", str(exc))
        lines = [line.strip() for line in text.splitlines()]
        reason = next(
            (line for line in lines if line and not line.startswith("Failed in ")), "unknown"
        )
        file = inspect.getsourcefile(function) or function.__code__.co_filename
        name = re.escape(Path(file).name)
        at = re.search(rf'File "[^"]*{name}", line (\d+)', text)
        line = int(at.group(1)) if at else function.__code__.co_firstlineno
        return (
            f"numba cannot compile the Python function {user.module}:{user.function} "
            f"({file}:{line}): {reason.rstrip('.')}; a constraint or objective in Python must "
            "be nopython code on the state array (numba's supported Python and NumPy)"
        )
    return None
