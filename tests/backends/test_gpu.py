"""The GPU gives the CPU's answers byte for byte: the exhaustive back end's result.json
(timings aside) and the retrograde back end's stored layers.

Without a GPU these run under numba's CUDA simulator, which this module turns on before
numba.cuda is first imported; on a GPU machine, `NUMBA_ENABLE_CUDASIM=0 pytest` runs them
on the device. The simulator runs each CUDA block's threads as Python threads, so the
spaces are small, and the slices of ranks short and uneven, so that a space spreads over
several blocks and each thread takes several slices.
"""

# ruff: noqa: E402 (numba's simulator is switched on before the package imports numba.cuda)
from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys

import numba
import pytest

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
numba.core.config.reload_config()

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.core.context import RunContext
from epcg_spec.core.errors import Interrupted, UsageError
from epcg_spec.core.result import without_timings
from epcg_spec.domains.fling.problem import layered_space
from epcg_spec.search import driver, exhaustive, exhaustive_gpu, retrograde, retrograde_gpu
from epcg_spec.search.retrograde import Plan, Retrograde
from tests.backends.test_retrograde import StopAfter, contents
from tests.domains.fling.conftest import oracle_layer
from tests.domains.space.helpers import SPECS, problem_of

# a product space with an objective whose best values tie across many ranks and threads
PRODUCT = """\
kind: space
name: tied-pairs
space:
  type: product
  factors:
    - {type: power, base: 5, k: 3, name: a}
    - {type: combination, n: 7, k: 3, name: b}
constraints:
  - sum(a[i] for i in range(3)) >= b[1]
objective:
  maximize: a[0] + b[2] - a[2]
search:
  top: 7
"""


@pytest.fixture(autouse=True)
def many_threads(monkeypatch):
    """Slices of 97 ranks, which fit no power of two, taken by at most 64 threads in blocks
    of 32: a space spreads over blocks, and a thread takes several slices from the queue."""
    monkeypatch.setattr(exhaustive_gpu, "RANKS_PER_SLICE", 97)
    monkeypatch.setattr(exhaustive_gpu, "BLOCK_THREADS", 32)
    monkeypatch.setattr(exhaustive_gpu, "MAX_THREADS", 64)


# values up to 69: the pruned walk steps through values (_prune_walk), not masks; the spec
# of tests/domains/space/test_engine_equivalences.py, whose kernels the two tests share
WIDE = """\
kind: space
space: {type: combination, n: 70, k: 3}
constraints:
  - x[2] - x[0] < 9
  - (x[0] + x[1]) % 5 != 0
"""


def _same(spec: epcg_spec.Spec, **options) -> dict:
    """Build `spec` on the CPU and on the GPU; assert equal content; return the GPU's."""
    cpu = spec.build(**options).data
    gpu = spec.build(device="gpu", **options).data
    assert json.dumps(without_timings(gpu)) == json.dumps(without_timings(cpu))
    return gpu


@pytest.mark.parametrize("no_prune", [True, False], ids=["scan", "pruned"])
def test_eight_queens_on_the_gpu_is_the_cpu_result(no_prune):
    gpu = _same(epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 8}), no_prune=no_prune)
    assert gpu["count"] == 92 and gpu["evaluated"] + gpu["pruned"] == 40320
    assert (gpu["pruned"] == 0) == no_prune
    # no objective: the best are the first solutions by rank, found by different threads
    lex = itertools.permutations(range(8))  # rank order of the lex permutation space
    first = [r for r, q in enumerate(lex) if _queens(q)][:3]
    assert [b["rank"] for b in gpu["best"]] == first


def _queens(q: tuple[int, ...]) -> bool:
    return len({v + i for i, v in enumerate(q)}) == len({v - i for i, v in enumerate(q)}) == 8


@pytest.mark.parametrize("no_prune", [True, False], ids=["scan", "pruned"])
def test_a_product_space_with_an_objective_keeps_the_same_ties(no_prune):
    gpu = _same(epcg_spec.loads(PRODUCT), no_prune=no_prune)
    assert gpu["space_size"] == 125 * 35 and gpu["count"] > 0
    scores = [b["score"] for b in gpu["best"]]
    ranks = [b["rank"] for b in gpu["best"]]
    assert len(scores) == 7 and scores == sorted(scores, reverse=True)
    assert len(set(scores)) < len(scores)  # ties, broken by rank
    pairs = zip(ranks, ranks[1:], scores, scores[1:], strict=False)
    assert all(r < s for r, s, a, b in pairs if a == b)


def test_a_walk_over_values_beyond_a_mask_prunes_the_same():
    gpu = _same(epcg_spec.loads(WIDE))
    assert gpu["pruned"] > 0 and gpu["evaluated"] > gpu["count"] > 0


def test_bounds_on_sums_prune_on_the_gpu_as_on_the_cpu():
    """The GPU's walk runs the CPU's prefix check, the bounds of expr/interval.py too."""
    gpu = _same(epcg_spec.load(SPECS / "magic-square.yaml"))
    assert gpu["count"] == 8 and gpu["evaluated"] == 12  # bounds: 1,008 without
    assert gpu["evaluated"] + gpu["pruned"] == 362880
    scan = _same(epcg_spec.load(SPECS / "magic-square.yaml"), no_prune=True)
    assert scan["count"] == 8 and scan["evaluated"] == 362880


def test_chunks_of_several_launches_and_a_shard_add_up(monkeypatch):
    monkeypatch.setattr(exhaustive, "MIN_BLOCK", 1000)  # 40 blocks: chunks of many launches
    monkeypatch.setattr(exhaustive, "MIN_PRUNED_BLOCK", 1000)
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 8})
    for no_prune in (True, False):
        gpu = _same(spec, shard=(1, 3), no_prune=no_prune)
        assert gpu["shard"]["lo"] > 0 and 0 < gpu["count"] < 92


def test_count_on_the_gpu(capsys):
    spec = str(SPECS / "n-queens.yaml")
    argv = ["count", spec, "--param", "n=8", "--constrained", "--json"]
    assert main([*argv, "--device", "gpu"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 92


def test_kernels_that_allocate_are_refused_on_the_gpu():
    wide = PRODUCT.replace(
        "sum(a[i] for i in range(3)) >= b[1]", "distinct(a[i] * 40 for i in range(3))"
    )
    spec = epcg_spec.loads(wide)
    assert (
        "devices",
        "cpu only: a distinct() here spans 64 values or more and needs a "
        "buffer; the GPU runs only kernels that allocate nothing",
    ) in spec.explain()
    refused = "--device is refused for `{}` of this space spec: a distinct() here spans 64"
    with pytest.raises(UsageError, match=re.escape(refused.format("build"))):
        spec.build(device="gpu")
    with pytest.raises(UsageError, match=re.escape(refused.format("count"))):
        spec.count(constrained=True, device="gpu")


def test_an_unknown_device_is_a_usage_error():
    with pytest.raises(UsageError, match="device 'tpu'"):
        epcg_spec.load(SPECS / "n-queens.yaml").count(device="tpu")


def test_without_a_device_or_the_simulator_gpu_is_exit_2_in_one_line(tmp_path):
    argv = [sys.executable, "-m", "epcg_spec", "build", str(SPECS / "n-queens.yaml")]
    argv += ["--param", "n=5", "--device", "gpu", "--out", str(tmp_path / "q")]
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "0"}
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    if done.returncode == 0:
        pytest.skip("a CUDA device is here")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("usage error: --device gpu"), lines


def test_a_run_started_on_the_gpu_is_resumed_on_the_cpu(tmp_path, monkeypatch):
    monkeypatch.setattr(exhaustive, "MIN_PRUNED_BLOCK", 1000)  # 41 blocks
    monkeypatch.setattr(driver, "CHECKPOINT_SECONDS", 0.0)
    problem = problem_of("n-queens", n=8)
    whole = problem.run(RunContext()).result
    begun = problem.run(RunContext(device="gpu", work_dir=tmp_path, unit_limit=7))
    assert begun.stopped == "paused" and 0 < begun.result["count"] < 92
    assert begun.result["partial"]["units_done"] == 7
    resumed = problem.run(RunContext(work_dir=tmp_path, resume=True)).result
    assert json.dumps(without_timings(resumed)) == json.dumps(without_timings(whole))


def _layers(folder, plan: Plan, device: str = "cpu", progress=None):
    """The layers of 4 x 4 Fling boards that `plan` asks for, computed on `device`."""
    ctx = RunContext(device=device, progress=progress)
    return Retrograde(layered_space(4, 4), folder, ctx).run(plan)


@pytest.fixture
def small_pieces(monkeypatch):
    """Many blocks, each cut into uneven pieces (448 ranks: 128 + 128 + 128 + 64; 5 unique
    states: 2 + 2 + 1), and a predecessor pass in launches of 3 blocks."""
    monkeypatch.setattr(retrograde, "SCAN_BLOCK", 64 * 7)
    monkeypatch.setattr(retrograde, "PREDECESSOR_BLOCK", 5)
    monkeypatch.setattr(retrograde_gpu, "SCAN_PIECE", 128)
    monkeypatch.setattr(retrograde_gpu, "PREDECESSOR_PIECE", 2)
    monkeypatch.setattr(retrograde_gpu, "PREDECESSOR_LAUNCH", 3)


@pytest.mark.usefixtures("small_pieces")
@pytest.mark.parametrize("unique_by", ["scan", "predecessors"])
def test_fling_layers_on_the_gpu_are_the_cpu_layers(tmp_path, unique_by):
    plan = Plan(4 if unique_by == "predecessors" else 5, 5, ("moves", "boards"), unique_by)
    cpu = _layers(tmp_path / "cpu", plan)
    gpu = _layers(tmp_path / "gpu", plan, "gpu")
    timeless = {"seconds": 0, "cpu_seconds": 0}
    assert [r.as_dict() | timeless for r in gpu] == [r.as_dict() | timeless for r in cpu]
    for report in gpu[1:]:  # against the plain-Python oracle
        expected = oracle_layer(4, 4, report.pieces)
        if report.pieces <= plan.solvable:
            assert report.solvable == len(expected["solvable"])
        assert report.unique == {rule: len(expected[rule]) for rule in ("moves", "boards")}
    assert gpu[1].solvable == 24  # two pieces in a line with a gap: 2 x 4 x 3
    assert any(r.unique["moves"] for r in gpu[2:])
    assert contents(tmp_path / "gpu") == contents(tmp_path / "cpu")


@pytest.mark.usefixtures("small_pieces")
def test_fling_layers_begun_on_the_gpu_are_finished_on_the_cpu(tmp_path):
    plan = Plan(5, 5, ("moves", "boards"), "scan")
    _layers(tmp_path / "whole", plan)
    with pytest.raises(Interrupted):
        _layers(tmp_path / "split", plan, "gpu", StopAfter(6))
    _layers(tmp_path / "split", plan)
    assert contents(tmp_path / "split") == contents(tmp_path / "whole")
