"""Constraints checked on complete results: `acyclic` and `distance`.

Neither is propagated: the search finds a result meeting every other rule, this module checks
it, and a result that fails is rejected like a contradiction (the next attempt starts with its
own seed; `count` keeps only the results that pass). So a tight one costs attempts.

acyclic: the cells holding the given tiles, joined where neighbours are both such cells (and,
with `exits`, both open towards each other), contain no cycle. distance: the shortest path
between two cells through such cells has a length (steps) within [min, max]; no path fails.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator

import numpy as np

from ...search import backtrack
from ...search.propagate import Model, State
from .model import Connection, Distance, WfcRun


def _joins(run: WfcRun, through: Connection, values: np.ndarray):
    """Every pair of neighbouring map cells joined through the path tiles, once each."""
    topology = run.topology
    on = np.zeros(run.values, dtype=bool)
    on[through.values] = True
    for d in topology.forward:
        u, v = topology.links(d)
        a, b = values[u], values[v]
        ok = (a >= 0) & (b >= 0)
        ok[ok] &= on[a[ok]] & on[b[ok]]
        if through.exits is not None:
            ok[ok] &= through.exits[d][a[ok]] & through.exits[topology.opposite(d)][b[ok]]
        yield from zip(u[ok].tolist(), v[ok].tolist(), strict=True)


def acyclic(run: WfcRun, through: Connection, values: np.ndarray) -> bool:
    """No cycle among the joined path cells (`values` per grid cell)."""
    parent = list(range(len(values)))

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for u, v in _joins(run, through, values):
        ru, rv = root(u), root(v)
        if ru == rv:
            return False
        parent[ru] = rv
    return True


def within(run: WfcRun, rule: Distance, values: np.ndarray) -> bool:
    """The shortest joined path from rule.start to rule.end has lo..hi steps."""
    near: dict[int, list[int]] = {}
    for u, v in _joins(run, rule.through, values):
        near.setdefault(u, []).append(v)
        near.setdefault(v, []).append(u)
    steps = {rule.start: 0}
    todo = deque([rule.start])
    while todo:
        c = todo.popleft()
        for n in near.get(c, ()):
            if n not in steps:
                steps[n] = steps[c] + 1
                todo.append(n)
    return rule.end in steps and rule.lo <= steps[rule.end] <= rule.hi


def passes(run: WfcRun, values: np.ndarray) -> bool:
    """True if the result (one value per grid cell) meets every checked constraint."""
    return all(acyclic(run, c, values) for c in run.acyclic) and all(
        within(run, d, values) for d in run.distances
    )


def solve(
    run: WfcRun,
    model: Model,
    seed: int,
    policy: backtrack.Policy,
    base: State,
    spread: Callable[[np.ndarray], np.ndarray],
    on_chunk: Callable[[backtrack.Search], None] | None = None,
) -> tuple[backtrack.Outcome, int]:
    """(backtrack.solve's outcome with failing results rejected, how many were rejected).
    `spread` turns the search's values (one per map cell) into one per grid cell."""
    if not (run.acyclic or run.distances):
        return backtrack.solve(model, seed, policy, base, on_chunk), 0
    one = backtrack.Policy(
        policy.heuristic, policy.rules, policy.max_backtracks, 1, policy.decision_limit
    )
    total = backtrack.Outcome("failed", None, 0)
    rejected = 0
    for attempt in range(policy.attempts):
        outcome = backtrack.solve(model, backtrack.attempt_seed(seed, attempt), one, base, on_chunk)
        total.attempts += 1
        total.attempt_seeds += outcome.attempt_seeds
        for key in ("decisions", "contradictions", "backtracks", "seconds"):
            setattr(total, key, getattr(total, key) + getattr(outcome, key))
        total.last = outcome.last
        if outcome.status == "solved" and not passes(run, spread(outcome.values)):
            rejected += 1
            continue
        if outcome.status != "failed":
            total.status, total.values = outcome.status, outcome.values
            break
    return total, rejected


def solutions(run: WfcRun, model: Model, base: State, spread) -> Iterator[np.ndarray]:
    """Every complete result that meets the checked constraints, in search order."""
    for values in backtrack.solutions(model, base=base):
        if passes(run, spread(values)):
            yield values
