"""A compiled Tracery spec: count, rank, sample and enumerate its derivations."""

from __future__ import annotations

import time
from functools import cache
from typing import Any

from ...compile.protocols import RunContext, RunOutput
from ...errors import BuildError, UsageError
from ...output.result import base_result
from ...search.blocks import shard_range
from ...search.expand import SampleRng
from ...sizes import count_text
from .expansion import Expansion
from .model import TracerySpec

SHOW_DIGITS = 30


class TraceryProblem:
    kind = "tracery"
    backend = "expand"

    def __init__(self, spec: TracerySpec) -> None:
        self.spec = spec
        self.name = spec.name

    @cache  # noqa: B019 - one problem per run; the cache lives as long as it
    def expansion(self, origin: str | None = None) -> Expansion:
        spec = self.spec
        return Expansion(
            spec.symbols, origin or spec.origin, spec.compat, spec.no_repeat, spec.depth
        )

    def _expansion(self, ctx: RunContext) -> Expansion:
        return self.expansion(ctx.options.get("origin"))

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
            ("origin", spec.origin),
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
            ("build writes", f"{spec.count} outputs, mode {spec.mode}"),
        ]
        if spec.no_repeat:
            rows.append(("no repeats", ", ".join(sorted(spec.no_repeat))))
        rows += [("warning", str(w)) for w in spec.warnings]
        return rows

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

    def run(self, ctx: RunContext) -> RunOutput:
        began = time.perf_counter()
        spec = self.spec
        expansion = self._expansion(ctx)
        total = expansion.total
        if spec.mode == "all":
            lo, hi = shard_range(total, ctx.shard)
            if hi - lo > spec.limit:
                raise BuildError(
                    f"mode all would write {hi - lo:,} derivations, more than the limit "
                    f"{spec.limit:,} (generate.limit); split it with --shard or raise the limit"
                )
        else:
            lo, hi = shard_range(spec.count, ctx.shard)
        picked = self._generate(expansion, ctx, lo, hi)
        result = self._result(ctx, expansion)
        best = [{"rank": r, "score": None, "state": text} for r, text in picked]
        result.update(
            shard={"index": ctx.shard[0], "count": ctx.shard[1], "lo": lo, "hi": hi},
            mode=spec.mode,
            evaluated=len(best),
            count=len(best),
            best=best,
            seconds=round(time.perf_counter() - began, 3),
        )
        seconds = time.perf_counter() - began
        summary = [
            f"{spec.name}: {_describe_total(expansion)}",
            f"  {len(best):,} outputs ({spec.mode}) in {seconds:.3f} s",
            *(f"  {text}" for _, text in picked[:5]),
        ]
        text = "".join(t + "\n" for _, t in picked)
        return RunOutput(result=result, artifacts={"outputs.txt": text}, summary=summary)

    def _generate(self, expansion: Expansion, ctx: RunContext, lo: int, hi: int):
        spec = self.spec
        progress = ctx.progress
        if progress:
            progress.start(f"{spec.mode} outputs {lo:,}..{hi:,}", hi - lo)
        try:
            if spec.mode == "all":
                out = []
                for derivation in expansion.engine.enumerate_from(lo):
                    if len(out) == hi - lo:
                        break
                    out.append((lo + len(out), expansion.text(derivation)))
                    if progress:
                        progress.advance(1)
                return out
            if spec.mode == "distinct":
                return _distinct(expansion, ctx.seed, range(lo, hi), spec.limit)
            out = []
            for i in range(lo, hi):
                if spec.mode == "tracery":
                    out.append(expansion.local(SampleRng(ctx.seed, i)))
                else:
                    out.append(expansion.draw(ctx.seed, i))
                if progress:
                    progress.advance(1)
            return out
        finally:
            if progress:
                progress.finish()

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
            f"{total:,}, more than the limit {limit:,} (generate.limit)"
        )
    first: dict[str, int] = {}
    for rank, derivation in enumerate(expansion.engine.enumerate_from(0)):
        first.setdefault(expansion.text(derivation), rank)
    outputs = list(first.items())
    rng = SampleRng(seed, 0)
    chosen = []
    for i in range(min(picks.stop, len(outputs))):
        j = i + rng.below(len(outputs) - i)
        outputs[i], outputs[j] = outputs[j], outputs[i]
        if i >= picks.start:
            chosen.append((outputs[i][1], outputs[i][0]))
    return chosen


def _describe_total(expansion: Expansion) -> str:
    total = _number(expansion.total)
    if expansion.finite:
        return f"{total} derivations (exact)"
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
