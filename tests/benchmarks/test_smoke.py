"""Every benchmark runs from a checkout at its smallest setting (`--smoke`).

Run as a user would, `python benchmarks/bench_X.py --smoke`, from outside the repository and
without PYTHONPATH, so a benchmark that imports an installed copy of the package, or needs
the repository root on the path, or has rotted (AttributeError...), fails here. Slow: the
first run of each compiles its kernels (minutes from a cold cache), so outside the default run.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = sorted((ROOT / "benchmarks").glob("bench_*.py"))


def test_every_benchmark_is_listed():
    assert [b.stem for b in BENCHMARKS] == [
        "bench_ceiling", "bench_compile", "bench_dask", "bench_estimates", "bench_exhaustive",
        "bench_fling", "bench_gpu", "bench_output", "bench_ppg", "bench_rooms", "bench_scaling",
        "bench_schema", "bench_shared_lines", "bench_spaces", "bench_sudoku", "bench_tracery",
        "bench_wfc", "bench_witness",
    ]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("bench", BENCHMARKS, ids=lambda p: p.stem)
def test_the_benchmark_runs_at_its_smallest_setting(bench, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, str(bench), "--smoke"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip()


@pytest.mark.slow
def test_the_device_script_runs_at_its_smallest_setting(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env |= {"PYTHON": sys.executable, "OUT": str(tmp_path)}
    script = ROOT / "benchmarks" / "device_rows.sh"
    done = subprocess.run(
        ["bash", str(script), "--smoke"], env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout[-3000:]
    for part, says in (
        ("queens-pruned", "8-queens"), ("ceiling", "8-queens with pruning"), ("fling", "4-piece"),
        ("gpu", "simulator"),
    ):  # fmt: skip
        assert says in (tmp_path / f"{part}.txt").read_text()
