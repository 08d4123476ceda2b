"""A compiled Tracery spec: count, rank, sample and enumerate its derivations."""

from __future__ import annotations

import bisect
import time
from functools import cache
from typing import Any

from ...compile.budget import Estimate, bounded
from ...compile.flags import refuse_more_distinct
from ...core.context import RunContext, RunOutput
from ...core.errors import BuildError, UsageError
from ...core.result import base_result
from ...core.rng import SplitMix64
from ...core.sizes import count_text, counted
from ...search import driver
from ...search.driver import checkpoint_key, shard_units
from ...search.items import Item, ItemJob
from ...spec.grammar import MAX_NESTING
from .expansion import Expansion
from .load import NESTED_TOO_DEEP, origin_problem
from .model import MAX_DEPTH, TracerySpec
from .parse import too_deep

SHOW_DIGITS = 30
SHOW_OUTPUTS = 5  # outputs a build's summary shows; the rest are counted
# Lower bounds per output for build estimates. Measured on tracery-heroes.yaml with count
# 200,000 (contended 2-core machine): 1,500 outputs/s, about 1 KiB of peak memory and 194
# bytes of outputs.txt + result.json per output.
MIN_MEMORY_PER_OUTPUT = 200
MIN_DISK_PER_OUTPUT = 40
MAX_OUTPUTS_PER_SECOND = 10_000


class TraceryProblem:
    kind = "tracery"
    backend = "expand"

    def __init__(self, spec: TracerySpec, origin: str | None = None) -> None:
        self.spec = spec
        self.name = spec.name
        if origin is not None and too_deep(origin, MAX_NESTING) is not None:
            raise UsageError(f"--origin: {NESTED_TOO_DEEP}")
        self.origin = spec.origin if origin is None else origin  # --origin, if given
        wrong = None if origin is None else origin_problem(origin, spec.symbols, spec.compat)
        if wrong is not None:  # the spec's own origin is warned of; this would render silently
            raise UsageError(f"--origin {origin!r}: {wrong}")

    @cache  # noqa: B019 - one problem per run; the cache lives as long as it
    def expansion(self, origin: str | None = None) -> Expansion:
        spec = self.spec
        return Expansion(
            spec.symbols,
            self.origin if origin is None else origin,
            spec.compat,
            spec.no_repeat,
            spec.depth,
        )

    def _expansion(self, ctx: RunContext) -> Expansion:
        return self.expansion(ctx.options.get("origin"))

    def refused(self, command: str) -> dict[str, str]:
        """Run flags this spec's mode cannot honour, with the reason."""
        if command == "build" and self.spec.mode == "all":
            return {"--seed": "mode all writes every derivation in rank order: nothing is drawn"}
        return {}

    # ---- describing ----

    def space_size(self) -> int | None:
        expansion = self.expansion()
        return expansion.total if expansion.finite else None

    def explain(self) -> list[tuple[str, str]]:
        spec, expansion = self.spec, self.expansion()
        rules = sum(len(r) for r in spec.symbols.values())
        rows = [
            ("spec", f"{spec.name} (kind: tracery)"),
            ("grammar", f"{len(spec.symbols)} symbols, {rules} rules"),
            ("origin", expansion.origin),
            ("compat", "tracery2 (its known defects kept)" if spec.compat else "fixed"),
            ("derivations", _describe_total(expansion)),
            (
                "counting",
                "by structure: pushed values are plain text"
                if expansion.compiler.tame
                else "by text: some pushed text may read back as markup",
            ),
            ("depth bound", str(spec.depth)),
            ("back end", "expand (exact counts, lexicographic ranks)"),
            ("build writes", f"{counted(spec.count, 'output')}, mode {spec.mode}"),
        ]
        if spec.no_repeat:
            rows.append(("no repeats", ", ".join(sorted(spec.no_repeat))))
        rows += [("warning", str(w)) for w in spec.warnings]
        return rows

    def estimate(self, ctx: RunContext) -> Estimate:
        """Lower bounds for `build`: every output is held in memory (outputs.txt and
        result.json) before the set is written."""
        spec = self.spec
        total = self._expansion(ctx).total if spec.mode == "all" else spec.count
        lo, hi = shard_units(total, ctx.shard)
        outputs = bounded(min(hi - lo, spec.limit) if spec.mode == "all" else hi - lo)
        return Estimate(
            memory=outputs * MIN_MEMORY_PER_OUTPUT,
            disk=outputs * MIN_DISK_PER_OUTPUT,
            seconds=outputs / MAX_OUTPUTS_PER_SECOND,
            lower_bound=True,
        )

    # ---- commands ----

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput:
        began = time.perf_counter()
        expansion = self._expansion(ctx)
        total = expansion.total
        result = self._result(ctx, expansion)
        result.update(
            evaluated=0,
            count=total,
            infinite=not expansion.finite and bool(expansion.recursive_symbols),
            depth=self.spec.depth,
            recursive_symbols=expansion.recursive_symbols,
            best=[],
            seconds=round(time.perf_counter() - began, 3),
        )
        summary = [f"{self.name}: {expansion.origin}", f"  {_describe_total(expansion)}"]
        return RunOutput(result=result, summary=summary)

    def sample(self, ctx: RunContext, ranks: list[int] | None, n: int, distinct: bool) -> RunOutput:
        began = time.perf_counter()
        expansion = self._expansion(ctx)
        self._require_derivations(expansion)
        total = expansion.total
        if ranks is not None:
            bad = [r for r in ranks if not -total <= r < total]
            if bad:
                raise UsageError(
                    f"rank {bad[0]} is out of range: the grammar has derivations 0..{total - 1} "
                    f"(negative ranks count from the end)"
                )
            picked = [(r % total, expansion.at(r % total)) for r in ranks]
        elif distinct:
            picked = _distinct(expansion, ctx.seed, range(n), self.spec.limit)
            refuse_more_distinct(n, len(picked), "distinct outputs")  # fewer: all there are
        else:
            picked = [expansion.draw(ctx.seed, i) for i in range(n)]
        result = self._result(ctx, expansion)
        samples = [{"rank": r, "score": None, "state": text} for r, text in picked]
        result.update(
            evaluated=len(samples),
            count=len(samples),
            best=samples,
            seconds=round(time.perf_counter() - began, 3),
        )
        return RunOutput(result=result, summary=[text for _, text in picked])

    def job(self, name: str, args: dict, ctx: RunContext) -> ItemJob:
        """The driver's job ("outputs": output i of the mode, from the seed), here or on a
        worker."""
        spec = self.spec
        expansion = self._expansion(ctx)
        if spec.mode == "distinct":
            chosen = _distinct(expansion, ctx.seed, range(spec.count), spec.limit)
            units, pick = len(chosen), chosen.__getitem__
        else:
            if spec.mode != "all":
                self._require_derivations(expansion)
            units = expansion.total if spec.mode == "all" else spec.count
            pick = self._picker(expansion, ctx.seed)

        def make(i: int) -> Item:
            rank, text = pick(i)
            return Item({"rank": rank, "score": None, "state": text}, line=text)

        job = ItemJob(f"{spec.mode} outputs of {spec.name}", units, make, noun="outputs")
        job.remote = (name, args)
        return job

    def run(self, ctx: RunContext) -> RunOutput:
        spec = self.spec
        expansion = self._expansion(ctx)
        job = self.job("outputs", {}, ctx)
        units = job.units
        lo, hi = shard_units(units, ctx.shard)
        if spec.mode == "all" and hi - lo > spec.limit:
            raise BuildError(
                f"mode all would write {hi - lo:,} derivations, more than the limit "
                f"{spec.limit:,} (generate.limit); split it with --shard or raise the limit",
                at=(("generate", "limit"),),
            )

        grammar = repr(sorted(spec.symbols.items()))
        settings = (spec.origin, spec.compat, sorted(spec.no_repeat), spec.depth, spec.limit)
        key = checkpoint_key(grammar, settings, spec.mode, units, ctx.seed, ctx.shard, ctx.options)
        report = driver.run(job, ctx, key)
        best = [item.record for item in job.items]
        result = self._result(ctx, expansion)
        result.update(
            shard=report.shard_field(),
            mode=spec.mode,
            evaluated=len(best),
            count=len(best),
            best=best,
            seconds=round(report.seconds, 3),
            **report.fields(),
        )
        summary = [
            f"{spec.name}: {_describe_total(expansion)}",
            f"  {counted(len(best), 'output')} ({spec.mode}) in {report.seconds:.3f} s",
            *_shown_outputs(best),
        ]
        text = "".join(b["state"] + "\n" for b in best)
        return RunOutput(result, {"outputs.txt": text}, summary, report.stopped)

    def _require_derivations(self, expansion: Expansion) -> None:
        """Refuse to draw from a grammar with no derivation within the depth bound."""
        if expansion.total:
            return
        depth = expansion.depth
        shortest = self._shortest_depth(expansion.origin)
        hint = (
            f"the shortest needs depth {shortest}: raise depth to {shortest} or more"
            if shortest is not None
            else f"none ends within the largest depth {MAX_DEPTH} either: "
            "give each recursive symbol a rule that does not recurse"
        )
        symbol = expansion.origin.strip("#")
        origin = (("origin",), ("start",), ("grammar", symbol))
        raise BuildError(
            f"{self.name}: {expansion.origin} has no derivation within the depth bound "
            f"{depth}; {hint}",
            at=(("depth",), *origin) if shortest is not None else origin,
        )

    def _shortest_depth(self, origin: str) -> int | None:
        """The smallest depth bound under which `origin` has a derivation, if any does."""
        spec = self.spec

        def derivable(depth: int) -> bool:
            return bool(Expansion(spec.symbols, origin, spec.compat, spec.no_repeat, depth).total)

        depths = range(spec.depth + 1, MAX_DEPTH + 1)
        first = bisect.bisect_left(depths, True, key=derivable)
        return depths[first] if first < len(depths) else None

    def _picker(self, expansion: Expansion, seed: int):
        """Output i of the build (rank or None, text), whatever the shard or chunk."""
        mode = self.spec.mode
        if mode == "all":
            return lambda i: (i, expansion.at(i))
        return expansion.picker(seed, mode == "tracery", self.spec.count)

    def _result(self, ctx: RunContext, expansion: Expansion) -> dict[str, Any]:
        result = base_result(self.name, self.kind, self.backend, ctx)
        result.update(
            origin=expansion.origin,
            space_size=expansion.total if expansion.finite else None,
            derivations=expansion.total,
            warnings=[str(w) for w in self.spec.warnings],
        )
        return result


def _distinct(expansion: Expansion, seed: int, picks: range, limit: int) -> list[tuple[int, str]]:
    """Picks number `picks` of a uniform draw without repeats from the distinct outputs.

    Every derivation is enumerated once (at most `limit`); each output is reported
    with the first rank that makes it.
    """
    total = expansion.total
    if total > limit:
        raise BuildError(
            f"sampling distinct outputs exactly enumerates every derivation, and there are "
            f"{total:,}, more than the limit {limit:,} (generate.limit)",
            at=(("generate", "limit"),),
        )
    first: dict[str, int] = {}
    for rank, derivation in enumerate(expansion.engine.enumerate_from(0)):
        first.setdefault(expansion.text(derivation), rank)
    outputs = list(first.items())
    rng = SplitMix64(seed, 0)
    chosen = []
    for i in range(min(picks.stop, len(outputs))):
        j = i + rng.below(len(outputs) - i)
        outputs[i], outputs[j] = outputs[j], outputs[i]
        if i >= picks.start:
            chosen.append((outputs[i][1], outputs[i][0]))
    return chosen


def _shown_outputs(best: list[dict]) -> list[str]:
    """The summary's lines for the outputs: the first few, and how many more there are."""
    more = len(best) - SHOW_OUTPUTS
    return [f"  {b['state']}" for b in best[:SHOW_OUTPUTS]] + (
        [f"  ... {more:,} more in outputs.txt"] if more > 0 else []
    )


def _describe_total(expansion: Expansion) -> str:
    total = _number(expansion.total)
    if expansion.finite:
        return f"{total} derivation{'' if expansion.total == 1 else 's'} (exact)"
    symbols = expansion.recursive_symbols
    if symbols:
        return (
            f"infinitely many derivations (recursion through {', '.join(symbols)}); "
            f"{total} up to depth {expansion.depth}"
        )
    return f"more than {total} derivations: some nest deeper than the depth bound {expansion.depth}"


def _number(value: int) -> str:
    text = count_text(value, 10**SHOW_DIGITS)
    return text if value < 10**SHOW_DIGITS else f"{text}; the exact value is in --json"
