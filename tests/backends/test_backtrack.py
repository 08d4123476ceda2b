"""The guess-and-test stack: pause, resume, step, snapshot, determinism, policies, checks."""

from __future__ import annotations

import io
import threading
import zipfile

import numpy as np
import pytest

from epcg_spec.core.context import RunContext
from epcg_spec.search import backtrack, driver, items, resumed
from epcg_spec.search.propagate import DEPTH, TRAIL_LEN, Network, State


def latin_square(order: int, seed_cells: dict[int, int] | None = None):
    net = Network(order * order, order, weights=np.arange(1, order + 1, dtype=float))
    for i in range(order):
        for value in range(order):
            net.group([i * order + j for j in range(order)], [value], 1, 1)
            net.group([j * order + i for j in range(order)], [value], 1, 1)
    for cell, value in (seed_cells or {}).items():
        net.restrict([cell], np.arange(order) == value)
    return net.compile()


def is_latin(values: np.ndarray, order: int) -> bool:
    grid = values.reshape(order, order)
    full = set(range(order))
    return all(set(grid[i]) == full and set(grid[:, i]) == full for i in range(order))


@pytest.fixture(scope="module")
def model():
    """A Latin square of order 7, made when a test needs it: propagating it compiles the
    kernels, which at import would compile them in every worker's collection."""
    return latin_square(7)


@pytest.fixture(scope="module")
def base(model):
    return backtrack.prepare(model)


@pytest.mark.parametrize("heuristic", ["entropy", "mrv", "scanline"])
def test_a_solve_is_a_solution_and_repeats_exactly(heuristic, model, base):
    policy = backtrack.Policy(heuristic=heuristic)
    first = backtrack.solve(model, 11, policy, base)
    again = backtrack.solve(model, 11, policy, base)
    assert first.status == "solved" and is_latin(first.values, 7)
    assert np.array_equal(first.values, again.values)


def test_seeds_give_different_content(model, base):
    outputs = {
        backtrack.solve(model, s, backtrack.Policy(), base).values.tobytes() for s in range(6)
    }
    assert len(outputs) > 1


def test_stepping_and_pausing_give_the_straight_run(model, base):
    straight = backtrack.Search(model, base, seed=5)
    assert straight.run() == backtrack.SOLVED
    stepped = backtrack.Search(model, base, seed=5)
    steps = 0
    while stepped.step() == backtrack.PAUSED:
        steps += 1
        assert steps < 10_000
    assert stepped.status == backtrack.SOLVED
    assert np.array_equal(straight.values(), stepped.values())
    assert straight.stats() == stepped.stats()


def test_a_snapshot_resumes_exactly(model, base):
    straight = backtrack.Search(model, base, seed=9)
    straight.run()
    paused = backtrack.Search(model, base, seed=9)
    assert paused.run(budget=7) == backtrack.PAUSED
    partial = paused.values()
    assert 0 < (partial >= 0).sum() < model.n_vars
    resumed = backtrack.Search.restore(model, paused.snapshot())
    assert resumed.run() == backtrack.SOLVED
    assert np.array_equal(resumed.values(), straight.values())


def _reads_back(run: backtrack.Search) -> None:
    again = backtrack.Search.restore(run.model, run.snapshot())
    for name, a, b in zip(State._fields, run.state, again.state, strict=True):
        assert np.array_equal(a, b), name
    assert again.status == run.status and again.count_limit == run.count_limit


def test_every_state_a_search_leaves_reads_back_as_it_was(model, base):
    """Each decision of a solve, of a count and of a walk of every solution (a state left
    just after a solution's undo): `snapshot.read` lets each through, unchanged."""
    solve = backtrack.Search(model, base, seed=5)
    while solve.step() == backtrack.PAUSED:
        _reads_back(solve)
    _reads_back(solve)
    four = latin_square(4)
    counting = backtrack.Search(four, backtrack.prepare(four), 0, "mrv", count_limit=1 << 62)
    while counting.run(5) == backtrack.PAUSED:
        _reads_back(counting)
    walk, found, ended = backtrack.solutions_search(four), 0, False
    while not ended:
        solutions, ended = backtrack.next_solutions(walk, 3)
        found += len(solutions)
        _reads_back(walk)
    assert counting.stats()["solutions"] == found == 576
    assert counting.stats()["backtracks"] > 0


def _forged(state, field: str) -> np.ndarray:
    """A copy of one array of a paused Latin square's state, changed so that no search
    could have left it (order 7: groups of 7 cells, 7 values in one word)."""
    a, ctr = getattr(state, field.removesuffix("_low")).copy(), state.ctr
    if field == "heap":
        a[1] = a[0]
    elif field == "trail_val":  # a ban of a value still in its domain
        v = state.trail_var[0]
        a[0] = next(x for x in range(7) if state.dom[v, 0] >> np.uint64(x) & np.uint64(1))
    elif field == "fr_var":  # a guess of a variable with several values
        a[0] = state.heap[0]
    elif field == "tflag":
        a[state.heap[0]] = 1
    elif field == "dom":
        a[state.heap[0], 0] |= np.uint64(1 << 9)
    elif field == "size":
        a[0] += 1
    elif field == "g_mask":
        a[0] |= np.uint64(1 << 8)
    elif field == "gflag":
        a[0] = 1
    elif field == "ctr":
        a[DEPTH] = 50
    elif field == "fr_trail":
        a[0] = ctr[TRAIL_LEN] + 1
    elif field == "fr_trail_low":  # the second guess undone to where the first began
        a = state.fr_trail.copy()
        a[1] = a[0]
    return a


@pytest.mark.parametrize(
    "field, why",
    [
        ("heap", "a heap entry twice"),
        ("trail_val", "a ban twice, or of a value still in its domain"),
        ("fr_var", "a guess that is not its variable's one value"),
        ("tflag", "touched flags that are not the list"),
        ("dom", "a value beyond the last one"),
        ("size", "a domain size that is not its count of values"),
        ("g_mask", "a group member beyond its group"),
        ("gflag", "group flags that are not the queue"),
        ("ctr", "a counter out of its range"),
        ("fr_trail", "a guess's trail position out of order"),
        ("fr_trail_low", "a guess that undoing the guess above it would take back"),
    ],
)
def test_a_state_no_search_leaves_is_refused(model, base, field, why):
    run = backtrack.Search(model, base, seed=9)
    assert run.run(budget=7) == backtrack.PAUSED and run.state.ctr[DEPTH] > 1
    backtrack.Search.restore(model, run.snapshot())  # as it was: read back
    forged = _forged(run.state, field)
    run.state = run.state._replace(**{field.removesuffix("_low"): forged})
    with pytest.raises(resumed.NotResumable, match=why):
        backtrack.Search.restore(model, run.snapshot())


@pytest.mark.parametrize(
    "change, why",
    [
        (lambda blob: blob[: len(blob) // 2], "cannot be read"),
        (lambda blob: b"not a zip", "cannot be read"),
        (lambda blob: _without(blob, "heap.npy"), "does not hold the arrays a search has"),
        (lambda blob: _as(blob, "hkey.npy", np.zeros(3)), r"hkey is float64\[3\]"),
        (lambda blob: _as(blob, "dom.npy", np.zeros((49, 1))), r"dom is float64\[49, 1\]"),
    ],
)
def test_bytes_that_are_no_search_state_are_refused(model, base, change, why):
    run = backtrack.Search(model, base, seed=9)
    run.run(budget=7)
    with pytest.raises(resumed.NotResumable, match=why):
        backtrack.Search.restore(model, change(run.snapshot()))


def _without(blob: bytes, name: str) -> bytes:
    return _rewritten(blob, lambda member, data: None if member == name else data)


def _as(blob: bytes, name: str, array: np.ndarray) -> bytes:
    stored = io.BytesIO()
    np.save(stored, array)
    return _rewritten(blob, lambda member, data: stored.getvalue() if member == name else data)


def _rewritten(blob: bytes, change) -> bytes:
    """The .npz `blob` with each member's bytes replaced by change(name, bytes) (None: left out)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(blob)) as source, zipfile.ZipFile(out, "w") as target:
        for member in source.namelist():
            data = change(member, source.read(member))
            if data is not None:
                target.writestr(member, data)
    return out.getvalue()


def test_undo_restores_the_state_bit_for_bit(model, base):
    run = backtrack.Search(model, base, seed=3)
    before = [a.copy() for a in run.state]
    run.run(budget=12)
    from epcg_spec.search.propagate import settle, undo

    s = run.state
    undo(model, s, 0)
    settle(s.heap, s.hpos, s.hkey, s.ctr, s.sumw, s.sumwlw, s.size, s.noise, s.touched, s.tflag, 0)
    for name, a, b in zip(type(run.state)._fields, before, run.state, strict=True):
        if name in ("dom", "size", "compat", "g_poss", "g_fix", "m_in"):
            assert np.array_equal(a, b), name
        if name in ("sumw", "sumwlw"):
            assert np.allclose(a, b), name


def test_load_state_copies_every_array(model, base):
    from epcg_spec.search.propagate import load_state, new_state

    run = backtrack.Search(model, base, seed=5)
    run.run(budget=7)
    target = new_state(model)
    load_state(run.state, target)
    for name, a, b in zip(type(target)._fields, run.state, target, strict=True):
        assert a is not b and np.array_equal(a, b), name
    assert target.ctr.any()  # the paused search had done something to copy


def test_counting_mode_is_the_same_search():
    four = latin_square(4)
    assert backtrack.count(four) == (576, True)
    assert backtrack.count(four, limit=2) == (2, False)


def test_a_proved_contradiction_is_infeasible_not_failed():
    clash = latin_square(3, {0: 0, 1: 0})
    assert backtrack.solve(clash, 0, backtrack.Policy()).status == "infeasible"
    # pigeonhole: 5 variables, 4 values, all different: only an exhausted search proves it
    net = Network(5, 4)
    for value in range(4):
        net.group(range(5), [value], 0, 1)
    pigeons = net.compile()
    assert backtrack.prepare(pigeons) is not None
    outcome = backtrack.solve(pigeons, 0, backtrack.Policy(attempts=5))
    assert outcome.status == "infeasible" and outcome.attempts == 1 and outcome.backtracks > 0


def test_restart_policy_counts_attempts_and_keeps_the_cap(model, base):
    outcome = backtrack.solve(model, 1, backtrack.Policy(max_backtracks=0, attempts=3), base)
    assert 1 <= outcome.attempts <= 3
    assert outcome.backtracks == 0
    assert len(outcome.attempt_seeds) == outcome.attempts
    if outcome.status != "solved":
        assert outcome.attempts == 3


def _diagonal_differs(state) -> bool:
    """A check for order-4 Latin squares: cells 0 and 5 (the diagonal's first two) never
    hold the same value once both are decided (sound on partial states)."""
    a, b = state.dom[0, 0], state.dom[5, 0]
    return not (a == b and a & (a - np.uint64(1)) == 0)


def test_a_check_prunes_counts_and_solves_like_a_filter():
    model = latin_square(4)
    every = list(backtrack.solutions(model))
    kept = [v for v in every if v[0] != v[5]]
    assert 0 < len(kept) < len(every) == 576
    assert backtrack.count(model)[0] == 576
    found, complete, _ = backtrack.run_count(model, RunContext(), check=_diagonal_differs)
    assert (found, complete) == (len(kept), True)
    listed = [tuple(v) for v in backtrack.solutions(model, check=_diagonal_differs)]
    assert sorted(listed) == sorted(tuple(v) for v in kept)
    for seed in range(5):
        outcome = backtrack.solve(
            model, seed, backtrack.Policy(attempts=1), check=_diagonal_differs
        )
        assert outcome.status == "solved" and outcome.values[0] != outcome.values[5]


def test_a_checked_search_pauses_and_resumes_to_the_same_result():
    model = latin_square(5)
    base = backtrack.prepare(model)
    straight = backtrack.Search(model, base, seed=4, check=_diagonal_differs)
    straight.run()
    paused = backtrack.Search(model, base, seed=4, check=_diagonal_differs)
    paused.run(3)
    resumed = backtrack.Search.restore(model, paused.snapshot(), _diagonal_differs)
    resumed.run()
    assert straight.status == resumed.status == backtrack.SOLVED
    assert np.array_equal(straight.values(), resumed.values())


def test_a_first_ctrl_c_stops_a_long_item_between_its_search_chunks():
    """An item whose search runs many chunks (5,000 decisions here) stops at the first
    Ctrl-C, as the driver does between items: not folded, so a resumed run makes it."""
    model = Network(5000, 2).compile()
    made = []

    def make(i: int) -> items.Item:
        if i == 1:
            driver._INTERRUPTED.set()  # what the first Ctrl-C does, during item 1's search
        outcome = backtrack.solve(model, i, backtrack.Policy(attempts=1))
        made.append(i)
        return items.Item({"index": i, "status": outcome.status})

    job = items.ItemJob("long items", 3, make)
    report = driver.run(job, RunContext(), None)
    assert report.stopped == "interrupted" and report.done == 1
    assert [item.record for item in job.items] == [{"index": 0, "status": "solved"}]
    assert made == [0] and not driver._INTERRUPTED.is_set()  # cleared with the run
    assert backtrack.solve(model, 1, backtrack.Policy(attempts=1)).status == "solved"


def test_the_time_limit_stops_a_long_item_between_its_search_chunks():
    """--time-limit met inside an item's search stops the run there, as Ctrl-C does; it
    was looked at between items only, so one long WFC output ran on past it."""
    model = Network(5000, 2).compile()
    made = []

    def make(i: int) -> items.Item:
        if i == 1:
            driver._local.deadlines[-1] = 0.0  # the time limit is met during item 1's search
        outcome = backtrack.solve(model, i, backtrack.Policy(attempts=1))
        made.append(i)
        return items.Item({"index": i, "status": outcome.status})

    job = items.ItemJob("long items", 3, make)
    report = driver.run(job, RunContext(time_limit=3600), None)
    assert report.stopped == "time limit" and report.done == 1
    assert [item.record for item in job.items] == [{"index": 0, "status": "solved"}]
    assert made == [0] and driver._local.deadlines == []  # cleared with the run


def test_a_run_finishes_its_first_item_whatever_its_time_limit():
    """The time limit is looked at inside an item only once the run has made one: an item
    longer than the limit would otherwise be begun again by every resumed run, never done."""
    model = Network(5000, 2).compile()

    def make(i: int) -> items.Item:
        outcome = backtrack.solve(model, i, backtrack.Policy(attempts=1))
        return items.Item({"index": i, "status": outcome.status})

    job = items.ItemJob("long items", 3, make)
    report = driver.run(job, RunContext(time_limit=1e-9), None)
    assert report.stopped == "time limit" and report.done == 1
    assert [item.record for item in job.items] == [{"index": 0, "status": "solved"}]


@pytest.mark.parametrize("size", [5000, 5])
def test_the_first_item_compiles_up_to_its_first_pause_only(size):
    """The first item, made to compile the kernels before the run is timed, stops at its
    search's first pause or, short, is done; either is made again, under the run's limits."""
    model = Network(size, 2).compile()
    entered = []

    def make(i: int) -> items.Item:
        entered.append(i)
        outcome = backtrack.solve(model, i, backtrack.Policy(attempts=1))
        return items.Item({"index": i, "status": outcome.status})

    job = items.ItemJob("items", 2, make)
    report = driver.run(job, RunContext(), None)
    assert report.stopped is None
    assert [item.record for item in job.items] == [
        {"index": i, "status": "solved"} for i in range(2)
    ]
    assert entered == [0, 0, 1]


def test_a_time_limit_met_on_one_thread_stops_no_run_on_another():
    """Runs of the Python API on two threads: the limit of one, met, stopped the other's
    item (with no limit of its own) at its search's next pause, as "time limit"."""
    model = Network(5000, 2).compile()
    other: dict[str, driver.Report] = {}

    def make_other(i: int) -> items.Item:
        outcome = backtrack.solve(model, i, backtrack.Policy(attempts=1))
        return items.Item({"index": i, "status": outcome.status})

    def run_other() -> None:
        other["report"] = driver.run(items.ItemJob("other", 1, make_other), RunContext(), None)

    def make(i: int) -> items.Item:
        if i == 1:
            driver._local.deadlines[-1] = 0.0  # this run's time limit is met during item 1
            helper = threading.Thread(target=run_other)
            helper.start()
            helper.join(timeout=120)
        return items.Item({"index": i})

    driver.run(items.ItemJob("limited", 2, make), RunContext(time_limit=3600), None)
    assert other["report"].stopped is None and other["report"].done == 1


def test_a_run_on_another_thread_leaves_a_pending_ctrl_c_to_the_main_run():
    """A run started on a helper thread cleared the flag of a Ctrl-C the main thread's run
    had not yet seen, which then ran on to its end."""
    model = Network(5000, 2).compile()
    made = []

    def make(i: int) -> items.Item:
        if i == 1:
            driver._INTERRUPTED.set()  # the first Ctrl-C, during item 1
            other = items.ItemJob("other", 1, lambda k: items.Item({"other": k}))
            helper = threading.Thread(target=driver.run, args=(other, RunContext(), None))
            helper.start()
            helper.join()
        outcome = backtrack.solve(model, i, backtrack.Policy(attempts=1))
        made.append(i)
        return items.Item({"index": i, "status": outcome.status})

    report = driver.run(items.ItemJob("long items", 3, make), RunContext(), None)
    assert report.stopped == "interrupted" and report.done == 1 and made == [0]
