"""One answer whatever the route: pruning or not, threads, shards, interruption."""

import json

import pytest

from epcg_spec.cli.main import main
from epcg_spec.core.context import RunContext
from epcg_spec.core.errors import UsageError
from epcg_spec.core.result import without_timings
from epcg_spec.search import driver, exhaustive
from tests.domains.space.helpers import SPECS, problem_of, run


def _content(result: dict) -> dict:
    """Everything but the timing and the pruning route."""
    return {k: v for k, v in without_timings(result).items() if k not in ("evaluated", "pruned")}


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("n-queens", {"n": 8}),
        ("golomb-ruler", {"marks": 4, "max_length": 9}),
        ("langford", {"n": 4}),
    ],
)
def test_pruning_changes_nothing_but_the_work(name, params):
    pruned = run(name, **params)
    scanned = run(name, RunContext(options={"no_prune": True}), **params)
    assert _content(pruned) == _content(scanned)
    assert scanned["evaluated"] == scanned["space_size"] and scanned["pruned"] == 0
    assert pruned["evaluated"] + pruned["pruned"] == pruned["space_size"]
    assert pruned["evaluated"] < scanned["evaluated"]


def test_thread_count_does_not_change_a_byte():
    one = run("costas-array", RunContext(threads=1), n=9)
    two = run("costas-array", RunContext(threads=2), n=9)
    assert one["seconds"] >= 0 and two["seconds"] >= 0
    assert json.dumps(without_timings(one)) == json.dumps(without_timings(two))


def test_shards_merge_to_the_single_run(tmp_path, capsys):
    spec = str(SPECS / "n-queens.yaml")
    whole = tmp_path / "whole"
    assert main(["build", spec, "--param", "n=9", "--out", str(whole), "-q"]) == 0
    parts = []
    for i in range(3):
        out = tmp_path / f"shard{i}"
        assert (
            main(["build", spec, "--param", "n=9", "--shard", f"{i}/3", "--out", str(out), "-q"])
            == 0
        )
        parts.append(str(out / "result.json"))
    merged = tmp_path / "merged"
    assert main(["merge", *parts, "--out", str(merged)]) == 0
    capsys.readouterr()
    expected = json.loads((whole / "result.json").read_text())
    got = json.loads((merged / "result.json").read_text())
    assert _content(got) == _content(expected)
    assert got["evaluated"] + got["pruned"] == expected["space_size"]
    pictures = sorted(p.name for p in whole.glob("best-*.svg"))
    assert pictures and pictures == sorted(p.name for p in merged.glob("best-*.svg"))
    assert all((whole / n).read_bytes() == (merged / n).read_bytes() for n in pictures)


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path, monkeypatch):
    monkeypatch.setattr(exhaustive, "MIN_PRUNED_BLOCK", 1 << 12)  # many chunks to stop between
    problem = problem_of("n-queens", n=10)
    expected = problem.run(RunContext(threads=1)).result
    real_chunk, calls = exhaustive._chunk, []

    def interrupt_on_third_chunk(kernels, starts, *args):
        calls.append(int(starts[0]) // exhaustive.MIN_PRUNED_BLOCK if len(starts) else None)
        if len(calls) == 3:  # the kernels' warm-up, the first block, then the next chunk
            raise KeyboardInterrupt
        return real_chunk(kernels, starts, *args)

    monkeypatch.setattr(exhaustive, "_chunk", interrupt_on_third_chunk)
    monkeypatch.setattr(driver, "CHECKPOINT_SECONDS", 0.0)
    stopped = problem.run(RunContext(threads=1, work_dir=tmp_path))
    assert stopped.stopped == "interrupted"
    # the blocks before the one the second chunk starts at are done: those failing prefixes
    # cover whole, skipped, and the first chunk's one block, walked
    assert calls[0] is None and 0 < calls[1] < calls[2]
    assert stopped.result["partial"] == {"stopped": "interrupted", "units_done": calls[2]}
    assert stopped.result["count"] < expected["count"]
    assert (tmp_path / ".checkpoint.json").exists()
    with pytest.raises(UsageError, match=r"--resume.*--fresh"):
        problem.run(RunContext(threads=1, work_dir=tmp_path))
    monkeypatch.setattr(exhaustive, "_chunk", real_chunk)
    resumed = problem.run(RunContext(threads=1, work_dir=tmp_path, resume=True)).result
    assert _content(resumed) == _content(expected)
    assert resumed["evaluated"] + resumed["pruned"] == expected["space_size"]
    driver.discard(tmp_path)  # what a build does once it has written the output
    assert not (tmp_path / ".checkpoint.json").exists()


def test_the_walk_for_values_beyond_a_mask_agrees_with_brute_force(tmp_path):
    import itertools

    from epcg_spec.spec.load import load_spec

    spec = tmp_path / "wide.yaml"
    spec.write_text(
        "kind: space\nspace: {type: combination, n: 70, k: 3}\n"
        "constraints:\n  - x[2] - x[0] < 9\n  - (x[0] + x[1]) % 5 != 0\n"
    )
    loaded = load_spec(spec)
    assert not loaded.spec.space.mask_walkable
    problem = loaded.domain.compile(loaded.spec)
    pruned = problem.run(RunContext()).result
    scanned = problem.run(RunContext(options={"no_prune": True})).result
    expected = sum(
        1 for c in itertools.combinations(range(70), 3) if c[2] - c[0] < 9 and sum(c[:2]) % 5
    )
    assert pruned["count"] == scanned["count"] == expected
    assert pruned["evaluated"] + pruned["pruned"] == pruned["space_size"]
    assert pruned["best"] == scanned["best"]


def test_chunks_sized_by_memory_give_the_same_answer(monkeypatch):
    whole = run("n-queens", n=12)
    length, top = 12, 3  # n-queens.yaml keeps the best 3 states of 12 rows
    assert exhaustive.result_bytes(top, length) == 8 * (4 + top * (2 + length))
    assert exhaustive.chunk_most(top, length) == exhaustive.CHUNK_BYTES // (8 * 46)
    # at most two blocks' results at once: 12! ranks are 457 pruned blocks of 2 ** 20
    monkeypatch.setattr(exhaustive, "CHUNK_BYTES", 2 * exhaustive.result_bytes(top, length))
    chunks = []
    real_chunk = exhaustive._chunk
    monkeypatch.setattr(
        exhaustive,
        "_chunk",
        lambda k, starts, *rest: chunks.append(len(starts)) or real_chunk(k, starts, *rest),
    )
    assert without_timings(run("n-queens", n=12)) == without_timings(whole)
    assert whole["count"] == 14200
    # the blocks failing prefixes cover whole are skipped, not walked (their ranks pruned)
    assert max(chunks) == 2 and sum(chunks) == 398


def test_a_run_of_many_chunks_makes_their_result_arrays_once(monkeypatch):
    """Arrays made afresh for each chunk were paged in afresh: a count of the Latin
    squares of order 5 spent a third of its time in the system (docs/benchmarks.md)."""
    length, top = 12, 3  # n-queens.yaml keeps the best 3 states of 12 rows
    monkeypatch.setattr(exhaustive, "CHUNK_BYTES", 2 * exhaustive.result_bytes(top, length))
    kept, real_top = [], exhaustive._top  # every chunk's, held: no address is used twice
    monkeypatch.setattr(
        exhaustive, "_top", lambda arrays, *rest: kept.append(arrays[3]) or real_top(arrays, *rest)
    )
    assert run("n-queens", RunContext(threads=1), n=12)["count"] == 14200
    assert len(kept) > 100
    made = {id(array if array.base is None else array.base) for array in kept}
    assert len(made) == 3  # for the warm-up's no block, then one block, then two


DIAGONAL_LATIN = """kind: space
params: {n: 5}
space: {type: power, base: n, k: n * n, name: cell}
constraints:
  - all(distinct(cell[r * n + c] for c in range(n)) for r in range(n))
  - all(distinct(cell[r * n + c] for r in range(n)) for c in range(n))
  - distinct(cell[i * n + i] for i in range(n))
  - distinct(cell[i * n + n - 1 - i] for i in range(n))
"""


def test_blocks_under_a_failing_prefix_are_skipped_not_walked(tmp_path, monkeypatch):
    """5^25 ranks are 2.8e11 blocks: walking each from the root took 12 hours on 2 cores,
    though a failing prefix of two cells covers 5^23 ranks at once."""
    from epcg_spec.spec.load import load_spec

    spec = tmp_path / "latin.yaml"
    spec.write_text(DIAGONAL_LATIN)
    walked, real_chunk = [], exhaustive._chunk
    monkeypatch.setattr(
        exhaustive,
        "_chunk",
        lambda k, starts, *rest: walked.append(len(starts)) or real_chunk(k, starts, *rest),
    )
    loaded = load_spec(spec)
    whole = loaded.domain.compile(loaded.spec).run(RunContext(time_limit=120)).result
    assert "partial" not in whole
    assert whole["count"] == 960  # diagonal Latin squares of order 5 (OEIS A274171)
    assert whole["evaluated"] + whole["pruned"] == whole["space_size"] == 5**25
    assert sum(walked) < whole["space_size"] // exhaustive.MIN_PRUNED_BLOCK // 1000
