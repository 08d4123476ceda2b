"""The fields every result.json opens with, and which of its fields are timings."""

from __future__ import annotations

from typing import Any

from .context import RunContext
from .version import __version__

# how a run ran, not what it made: its times, and the threads its kernels ran on
TIMING_FIELDS = frozenset({"seconds", "compile_seconds", "cpu_seconds", "threads"})


def base_result(name: str, kind: str, backend: str, ctx: RunContext) -> dict[str, Any]:
    """The fields that open every result.json; `params` (every param's value, given or
    not) only where the spec has params, `inputs` only where it read files (sample images,
    maps, grammars: {path relative to the spec: "sha256:..."})."""
    fields = {
        "spec": name,
        "kind": kind,
        "backend": backend,
        "version": __version__,
        "seed": ctx.seed,
    }
    if ctx.source is not None and ctx.source.params:
        fields["params"] = dict(ctx.source.params)
    if ctx.source is not None and ctx.source.inputs:
        fields["inputs"] = dict(ctx.source.inputs)
    return fields


def without_timings(value: Any) -> Any:
    """`value` (a result or part of one) with every timing field left out, at any depth:
    what must be identical between runs of the same spec and seed."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMING_FIELDS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value
