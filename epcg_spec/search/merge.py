"""Merging the result.json files of the shards of one exhaustive run."""

from __future__ import annotations

from typing import Any

from ..compile.protocols import RunOutput
from ..errors import UsageError

SAME = ("spec", "kind", "backend", "version", "seed", "space_size", "objective")


def merge_results(results: list[dict[str, Any]]) -> RunOutput:
    """One result equal to what a single run over all shards would have written."""
    first = results[0]
    if first.get("backend") != "exhaustive":
        raise UsageError(
            f"merge combines shards of exhaustive runs; this result is from {first.get('backend')}"
        )
    for other in results[1:]:
        for key in SAME:
            if other.get(key) != first.get(key):
                raise UsageError(f"cannot merge: the results differ in '{key}'")
    shards = sorted((r.get("shard") or {}).get("index", -1) for r in results)
    count = (first.get("shard") or {}).get("count", 1)
    if shards != list(range(count)):
        raise UsageError(
            f"cannot merge: need each of the {count} shards exactly once, got {shards}"
        )
    objective = first.get("objective")
    sign = -1.0 if objective and objective.get("sense") == "minimize" else 1.0
    top = max(len(r["best"]) for r in results)
    best = sorted(
        (b for r in results for b in r["best"]),
        key=lambda b: (-(sign * b["score"]) if b["score"] is not None else 0.0, b["rank"]),
    )[:top]
    merged = {key: first[key] for key in first if key not in ("shard", "best")}
    merged.update(
        shard={"index": 0, "count": 1, "lo": 0, "hi": first["space_size"]},
        evaluated=sum(r["evaluated"] for r in results),
        pruned=sum(r.get("pruned", 0) for r in results),
        count=sum(r["count"] for r in results),
        best=best,
        seconds=round(sum(r["seconds"] for r in results), 3),
    )
    summary = [
        f"{first['spec']}: merged {count} shards: {merged['count']:,} states meet every constraint"
    ]
    return RunOutput(result=merged, summary=summary)
