"""Guess-and-test back end: collapse, propagate, and undo to the last guess on a contradiction.

It runs any `propagate.Model` (see that module for building one). The search is a loop over
an explicit stack, never a recursion, so a run can stop after any number of decisions and go
on later, be stepped one decision at a time, or be saved and restored:

    base = prepare(model)                   # initial domains propagated once; None: infeasible
    run = Search(model, base, seed=7)       # one attempt: its own copy of the state
    run.run(budget=100)                     # at most 100 decisions -> PAUSED, SOLVED, FAILED...
    run.step()                              # exactly one decision
    blob = run.snapshot()                   # bytes; Search.restore(model, blob) continues it
    run.values()                            # value per variable, -1 where still undecided

A guess at variable v with value a pushes a frame (v, a, trail position) and bans every other
value of v. On a contradiction the state is undone to the last frame's trail position and the
refutation "v is not a" is banned there instead (binary branching), so a failed guess is never
retried, and an exhausted stack proves there is no solution (INFEASIBLE).

Policies (`Policy`): `max_backtracks` per attempt (0 is classic Wave Function Collapse: the
first contradiction ends the attempt; -1 is unlimited), `attempts` (restarts with a new
seed, capped), the choice heuristic and the group rules. Counting mode (`count`) takes every
branch: at a solution it counts and backtracks, until the stack is exhausted or `limit` is
reached (limit 2 decides uniqueness).

`solutions` walks the same counting search but stops at every solution and yields its
values, then undoes it and goes on: every complete assignment once, for listing a small
design space (PPG's valid relations).

A domain may add a constraint the propagators cannot state as a `check`: a function of the
propagated State that returns False only when no completion of the current domains can meet
the constraint (and, on a complete state, exactly when it is broken). The search calls it
every `check_every` decisions and at every solution; False counts as a contradiction and
undoes to the last guess, like one found by propagation (WFC's acyclic and distance rules).

Determinism: an attempt's random stream is a function of (seed, attempt) only.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from numba import njit

from ..compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ..core.context import RunContext
from ..core.rng import stream_state
from . import driver, resumed, snapshot
from .driver import Report
from .propagate import (
    ALL_RULES,
    BACKTRACKS,
    CONTRADICTIONS,
    DEPTH,
    GQHEAD,
    GQLEN,
    HEURISTICS,
    HSIZE,
    NTOUCHED,
    QHEAD,
    SOLUTIONS,
    STEPS,
    TRAIL_LEN,
    Model,
    State,
    ban,
    begin_attempt,
    choose_value,
    clone_state,
    connectivity_ok,
    decided_values,
    full_domains,
    initial_bans,
    new_state,
    propagate,
    restrict_to,
    settle,
    undo,
)

PAUSED, SOLVED, FAILED, INFEASIBLE, EXHAUSTED, LIMIT = 0, 1, 2, 3, 4, 5
STATUS_NAMES = {
    PAUSED: "paused",
    SOLVED: "solved",
    FAILED: "failed",
    INFEASIBLE: "infeasible",
    EXHAUSTED: "exhausted",
    LIMIT: "limit",
}
CHUNK = 4096
# "no cap on backtracks" as a numpy integer: numba types it int64, as the cap the Python side
# passes, so `_backtrack` compiles once (a literal -1 would compile it once more)
NO_CAP = np.int64(-1)
SEED_MASK = (1 << 63) - 1  # seeds travel as int64


# what `engine` does: its `op`
RESET, BEGIN, SEARCH, BACKTRACK = 0, 1, 2, 3


def _run(
    m: Model,
    s: State,
    op: int,
    heuristic: int = 0,
    rules: int = ALL_RULES,
    max_backtracks: int = -1,
    count_limit: int = 0,
    budget: int = 0,
    conn_every: int = 1,
    seed: int = 0,
) -> int:
    """`engine` from Python, every argument typed as every call types it (one compile)."""
    args = (heuristic, rules, max_backtracks, count_limit, budget, conn_every, np.uint64(seed))
    return int(engine(m, s, op, *args))


def reset(m: Model, s: State, rules: int) -> bool:
    """Full domains, then the initial restrictions, propagated; False if contradictory."""
    full_domains(m, s)
    ok = _run(m, s, RESET, rules=rules)
    s.gflag[:] = 0  # the trail and both queues emptied
    s.ctr[[TRAIL_LEN, QHEAD, NTOUCHED, GQHEAD, GQLEN]] = 0
    s.tflag[:] = 0
    return bool(ok)


def undo_guess(m: Model, s: State, max_backtracks: int) -> bool:
    """Undo to the last guess and ban it (`_backtrack`, from Python)."""
    return bool(_run(m, s, BACKTRACK, max_backtracks=max_backtracks))


@njit(cache=True, _nrt=False, inline="always")
def _backtrack(m, s, max_backtracks):
    """Undo to the last guess and ban it; False if the stack is empty or the cap is reached.
    Inlined into `engine`, at its one call."""
    while s.ctr[DEPTH] > 0:
        if max_backtracks >= 0 and s.ctr[BACKTRACKS] >= max_backtracks:
            return False
        d = s.ctr[DEPTH] - 1
        s.ctr[DEPTH] = d
        undo(m, s, s.fr_trail[d])
        s.ctr[BACKTRACKS] += 1
        ban(m, s, s.fr_var[d], s.fr_val[d])
        if s.size[s.fr_var[d]] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def engine(m, s, op, heuristic, rules, max_backtracks, count_limit, budget, conn_every, seed):
    """The one engine kernel Python calls (and Sudoku's proofs): by `op`, the initial bans
    propagated (RESET: 1 if they hold, else 0), an attempt's start (BEGIN), the search
    (SEARCH: decide, propagate, undo; a status after at most `budget` decisions) or one
    `_backtrack` (BACKTRACK: 1 if it went back, else 0); arguments an op does not read are
    moot. One kernel, calling `propagate` at one place: a cold start compiles one Python
    wrapper of the Model and State tuples, one copy of the loop, and optimises the kernels
    they share in one module (docs/benchmarks.md, "Cold compile")."""
    if op == BEGIN:
        begin_attempt(s, seed, heuristic)
        return np.int64(0)
    if op == RESET:
        initial_bans(m, s)
    back = op == BACKTRACK  # go back first (at a solution: beyond any cap)
    found = False
    while True:
        if back:
            went = _backtrack(m, s, NO_CAP if found else max_backtracks)
            if op == BACKTRACK:
                return np.int64(went)
            if not went:
                if count_limit > 0:
                    return EXHAUSTED
                return INFEASIBLE if s.ctr[DEPTH] == 0 else FAILED
            back = found = False
        ok = propagate(m, s, rules)
        if ok and m.conn_on != 0 and s.ctr[STEPS] % conn_every == 0:
            ok = connectivity_ok(m, s)
        if op == RESET:
            return np.int64(ok)
        if ok:
            settle(
                s.heap, s.hpos, s.hkey, s.ctr, s.sumw, s.sumwlw, s.size, s.noise, s.touched,
                s.tflag, heuristic,
            )  # fmt: skip
            if s.ctr[HSIZE] == 0:
                if connectivity_ok(m, s):
                    s.ctr[SOLUTIONS] += 1
                    if count_limit <= 0:
                        return SOLVED
                    if s.ctr[SOLUTIONS] >= count_limit:
                        return LIMIT
                    back = found = True
                    continue
                ok = False
        if not ok:
            s.ctr[CONTRADICTIONS] += 1
            if s.ctr[DEPTH] == 0:
                return EXHAUSTED if count_limit > 0 else INFEASIBLE
            back = True
            continue
        if budget == 0:
            return PAUSED
        budget -= 1
        v = s.heap[0]
        a = choose_value(s.rng, s.sumw, s.dom, m.weights, v)
        d = s.ctr[DEPTH]
        s.fr_var[d] = v
        s.fr_val[d] = a
        s.fr_trail[d] = s.ctr[TRAIL_LEN]
        s.ctr[DEPTH] = d + 1
        restrict_to(m, s, v, a)
        s.ctr[STEPS] += 1


def prepare(model: Model, rules: int = ALL_RULES) -> State | None:
    """The state after the initial domains are propagated; None if they contradict."""
    state = new_state(model)
    return state if reset(model, state, rules) else None


def attempt_seed(seed: int, attempt: int) -> int:
    """The seed of attempt `attempt` of a run seeded `seed` (a fixed function of both)."""
    return stream_state(seed, attempt) & SEED_MASK


def connectivity_interval(model: Model) -> int:
    """Check connectivity every k decisions: every one on small maps, rarer on large ones."""
    return max(1, model.n_vars // 1024)


class Search:
    """One attempt's run state: pause, resume, step, snapshot; never a recursion."""

    def __init__(
        self,
        model: Model,
        base: State,
        seed: int = 0,
        heuristic: str = "entropy",
        rules: int = ALL_RULES,
        max_backtracks: int = -1,
        count_limit: int = 0,
        check: Callable[[State], bool] | None = None,
        check_every: int = 1,
    ):
        self.model = model
        self.check, self.check_every = check, check_every
        self.heuristic = HEURISTICS[heuristic]
        self.rules = rules
        self.max_backtracks = max_backtracks
        self.count_limit = count_limit
        self.status = PAUSED
        self.state = clone_state(base)
        _run(model, self.state, BEGIN, self.heuristic, seed=seed)

    def run(self, budget: int | None = None) -> int:
        """Run at most `budget` decisions (None: to the end); return the status."""
        limit = -1 if budget is None else budget
        if self.check is None:
            self.status = self._search(self.count_limit, limit)
        else:
            self.status = self._checked(limit)
        return self.status

    def _search(self, count_limit: int, budget: int) -> int:
        return _run(
            self.model,
            self.state,
            SEARCH,
            self.heuristic,
            self.rules,
            max_backtracks=self.max_backtracks,
            count_limit=count_limit,
            budget=budget,
            conn_every=connectivity_interval(self.model),
        )

    def _checked(self, budget: int) -> int:
        """`run` with the domain's check every `check_every` decisions and at every
        solution; a failed check is undone like a contradiction."""
        ctr, counting = self.state.ctr, self.count_limit > 0
        while True:
            step = self.check_every if budget < 0 else min(self.check_every, budget)
            before = ctr[STEPS]
            status = self._search(ctr[SOLUTIONS] + 1 if counting else 0, step)
            if budget >= 0:
                budget -= ctr[STEPS] - before
            if status not in (PAUSED, SOLVED, LIMIT):
                return status
            if self.check(self.state):
                if status == PAUSED and budget != 0:
                    continue
                if status != LIMIT or ctr[SOLUTIONS] >= self.count_limit:
                    return status
            else:
                ctr[CONTRADICTIONS] += 1
                if status == LIMIT:
                    ctr[SOLUTIONS] -= 1
            if not undo_guess(self.model, self.state, -1 if counting else self.max_backtracks):
                if counting:
                    return EXHAUSTED
                return INFEASIBLE if ctr[DEPTH] == 0 else FAILED

    def step(self) -> int:
        """Exactly one decision (or the end of the run)."""
        return self.run(1)

    @property
    def done(self) -> bool:
        return self.status != PAUSED

    def values(self) -> np.ndarray:
        """The value of every decided variable, -1 where undecided."""
        return decided_values(self.state)

    def domains(self) -> np.ndarray:
        """The current domains as a (variables x values) bool array."""
        words = self.state.dom
        bits = (words[:, :, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
        return bits.reshape(len(words), -1)[:, : self.model.n_values].astype(bool)

    def stats(self) -> dict[str, int]:
        ctr = self.state.ctr
        return {
            "decisions": int(ctr[STEPS]),
            "contradictions": int(ctr[CONTRADICTIONS]),
            "backtracks": int(ctr[BACKTRACKS]),
            "solutions": int(ctr[SOLUTIONS]),
            "depth": int(ctr[DEPTH]),
            "undecided": int(ctr[HSIZE]),
        }

    def snapshot(self) -> bytes:
        """The whole run state as bytes (numpy .npz)."""
        settings = (self.heuristic, self.rules, self.max_backtracks, self.count_limit)
        return snapshot.write(self.state, (*settings, self.status))

    @classmethod
    def restore(
        cls,
        model: Model,
        blob: bytes,
        check: Callable[[State], bool] | None = None,
        check_every: int = 1,
    ) -> Search:
        """A run continuing exactly where `snapshot` left it (give the same check, if any);
        resumed.NotResumable if `blob` is not a state of a search of `model`."""
        settings, state = snapshot.read(model, blob, range(len(STATUS_NAMES)))
        run = cls.__new__(cls)
        run.model = model
        run.check, run.check_every = check, check_every
        run.heuristic, run.rules, run.max_backtracks, run.count_limit, run.status = settings
        run.state = state
        return run


@dataclass
class Policy:
    """How a run searches: heuristic, group rules, backtracking and restarts."""

    heuristic: str = "entropy"
    rules: int = ALL_RULES
    max_backtracks: int = -1
    attempts: int = 10
    decision_limit: int | None = None  # stop an attempt after this many decisions (paused)


@dataclass
class Outcome:
    """The end of a solve: the values (or None), and what it took."""

    status: str
    values: np.ndarray | None
    attempts: int
    decisions: int = 0
    contradictions: int = 0
    backtracks: int = 0
    seconds: float = 0.0
    attempt_seeds: list[int] = field(default_factory=list)
    last: Search | None = None


def solve(
    model: Model,
    seed: int,
    policy: Policy,
    base: State | None = None,
    on_chunk: Callable[[Search], None] | None = None,
    check: Callable[[State], bool] | None = None,
) -> Outcome:
    """Attempts until one succeeds, the problem is proved infeasible, or the cap is reached."""
    began = time.perf_counter()
    base = base if base is not None else prepare(model, policy.rules)
    if base is None:
        return Outcome("infeasible", None, 0, seconds=time.perf_counter() - began)
    outcome = Outcome("failed", None, 0)
    for attempt in range(policy.attempts):
        seed_k = attempt_seed(seed, attempt)
        run = Search(
            model, base, seed_k, policy.heuristic, policy.rules, policy.max_backtracks, 0, check
        )
        while run.run(_budget(run, policy.decision_limit)) == PAUSED:
            driver.interrupt_point()  # a Ctrl-C stops a long attempt within a chunk
            if _budget(run, policy.decision_limit) == 0:
                break
            if on_chunk is not None:
                on_chunk(run)
        stats = run.stats()
        outcome.attempts = attempt + 1
        outcome.attempt_seeds.append(seed_k)
        outcome.decisions += stats["decisions"]
        outcome.contradictions += stats["contradictions"]
        outcome.backtracks += stats["backtracks"]
        outcome.last = run
        if run.status == SOLVED:
            outcome.status, outcome.values = "solved", run.values()
            break
        if run.status in (INFEASIBLE, PAUSED):
            outcome.status = STATUS_NAMES[run.status]
            break
    outcome.seconds = time.perf_counter() - began
    return outcome


def _budget(run: Search, limit: int | None) -> int:
    """Decisions the next chunk may take: CHUNK, or what is left under the limit."""
    if limit is None:
        return CHUNK
    return max(0, min(CHUNK, limit - run.stats()["decisions"]))


@dataclass
class SearchJob:
    """The driver's job for one search paused every chunk: units are decisions, and the
    job is finished when the search ends (solved, exhausted, infeasible, at a limit)."""

    search: Search
    label: str
    units: int = 1 << 62
    noun: str = "decisions"
    most: int = 1 << 22
    fixed: int = 0
    finished: bool = False

    def prepare(self, first: int) -> None:
        self.fold(self.search.run(0))  # compiles the kernels; propagates the start

    def work(self, lo: int, hi: int) -> int:
        return self.search.run(hi - lo)

    def fold(self, status: int) -> None:
        self.finished = status != PAUSED

    def snapshot(self) -> dict:
        return {"search": base64.b64encode(self.search.snapshot()).decode("ascii")}

    def restore(self, state: dict) -> None:
        try:
            blob = base64.b64decode(state["search"], validate=True)
        except (KeyError, TypeError, ValueError):
            raise resumed.NotResumable("its search state is not base64 text") from None
        old = self.search
        self.search = Search.restore(old.model, blob, old.check, old.check_every)
        self.finished = self.search.done

    def weight(self, lo: int, hi: int) -> int:
        return 0


def count(
    model: Model,
    limit: int = 0,
    rules: int = ALL_RULES,
    heuristic: str = "mrv",
    base: State | None = None,
) -> tuple[int, bool]:
    """(number of complete assignments, True if every one was counted); stops at `limit` > 0."""
    found, complete, _ = run_count(model, RunContext(), limit, rules, heuristic, base)
    return found, complete


def run_count(
    model: Model,
    ctx: RunContext,
    limit: int = 0,
    rules: int = ALL_RULES,
    heuristic: str = "mrv",
    base: State | None = None,
    check: Callable[[State], bool] | None = None,
) -> tuple[int, bool, Report | None]:
    """`count` through the driver: (found, complete, the driver's report), stopping also
    where the driver stops (--time-limit, Ctrl-C) with the count so far."""
    base = base if base is not None else prepare(model, rules)
    if base is None:
        return 0, True, None
    run = Search(model, base, 0, heuristic, rules, -1, limit if limit > 0 else 1 << 62, check)
    job = SearchJob(run, "counting")
    report = driver.run(job, ctx, None)
    return job.search.stats()["solutions"], job.search.status == EXHAUSTED, report


def solutions(
    model: Model,
    rules: int = ALL_RULES,
    heuristic: str = "mrv",
    base: State | None = None,
    on_chunk: Callable[[Search], None] | None = None,
    check: Callable[[State], bool] | None = None,
) -> Iterator[np.ndarray]:
    """Every complete assignment (value per variable), one at a time, in search order."""
    run = solutions_search(model, rules, heuristic, base, check)
    if run is None:
        return
    while True:
        found, ended = next_solutions(run, CHUNK)
        yield from found
        if ended:
            return
        if on_chunk is not None:
            on_chunk(run)


def solutions_search(
    model: Model,
    rules: int = ALL_RULES,
    heuristic: str = "mrv",
    base: State | None = None,
    check: Callable[[State], bool] | None = None,
) -> Search | None:
    """A search that stops at each complete assignment (None: infeasible at the start)."""
    base = base if base is not None else prepare(model, rules)
    return None if base is None else Search(model, base, 0, heuristic, rules, -1, 1, check)


def next_solutions(run: Search, decisions: int) -> tuple[list[np.ndarray], bool]:
    """Go on with a `solutions_search` for about `decisions` decisions: the complete
    assignments found on the way, in search order, and whether the search has ended."""
    found: list[np.ndarray] = []
    end = run.stats()["decisions"] + decisions
    while True:
        status = run.run(max(1, end - run.stats()["decisions"]))
        if status == PAUSED:
            return found, False
        if status != LIMIT:
            return found, True
        found.append(run.values())
        run.count_limit += 1
        if not undo_guess(run.model, run.state, -1):
            return found, True
        if run.stats()["decisions"] >= end:
            return found, False


class Taker(Protocol):
    """What a `SolutionsJob` hands each complete assignment to, and checkpoints with it."""

    def __call__(self, values: np.ndarray) -> bool:
        """Keep one assignment; whether the walk should go on."""

    def snapshot(self) -> dict:
        """What was kept so far, as JSON-ready data."""

    def restore(self, state: dict) -> None:
        """Set what was kept from a `snapshot()`."""


@dataclass
class SolutionsJob(SearchJob):
    """The driver's job walking every complete assignment of a `solutions_search`: units
    are decisions, each chunk's assignments go to `take` in search order (which answers
    whether it wants more), and the job is finished when the search ends. A checkpoint
    holds the search, `take`'s own tally and whether the walk has ended (the search's
    status alone cannot tell: it stays at its last solution's once that is undone)."""

    take: Taker = field(kw_only=True)

    def prepare(self, first: int) -> None:
        self.fold(next_solutions(self.search, 1))  # compiles the kernels

    def work(self, lo: int, hi: int) -> tuple[list[np.ndarray], bool]:
        return next_solutions(self.search, hi - lo)

    def fold(self, partial: tuple[list[np.ndarray], bool]) -> None:
        found, ended = partial
        self.finished = ended
        for values in found:
            if not self.take(values):
                self.finished = True
                return

    def snapshot(self) -> dict:
        return {**super().snapshot(), "taken": self.take.snapshot(), "ended": self.finished}

    def restore(self, state: dict) -> None:
        super().restore(state)
        self.take.restore(state["taken"])
        self.finished = resumed.flag(state["ended"])
