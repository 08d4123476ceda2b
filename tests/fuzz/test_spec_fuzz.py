"""Mutated copies of every shipped spec through `validate`: exit 0, or exit 1 with located
lines; never exit 3, never a hang (see spec_mutator.py). Inputs that once failed are kept
in regressions/ and checked on every run."""

from __future__ import annotations

from pathlib import Path

import pytest

from .spec_mutator import Runner, run_fuzz

SEED = 15
DEFAULT_COUNT = 300  # about 15 s on a busy 2-core machine
EXPLAIN_COUNT = 100
LARGE_COUNT = 3000
TIME_LIMIT_S = 10.0  # per input; a typical one takes 0.05 s (the worker kills a hang)
REGRESSIONS = Path(__file__).parent / "regressions"


def _report(failures) -> str:
    lines = []
    for outcome in failures[:10]:
        lines.append(f"--- mutant of {outcome.spec}: exit {outcome.code}: {outcome.output[:300]}")
        lines.append(repr(outcome.text[:400]))
    lines.append("keep each failing input as a file under tests/fuzz/regressions/")
    return "\n".join(lines)


def test_mutated_shipped_specs_exit_0_or_1_with_located_lines(tmp_path):
    figures = run_fuzz(SEED, DEFAULT_COUNT, tmp_path, TIME_LIMIT_S)
    assert figures.tried == DEFAULT_COUNT
    assert not figures.failures, _report(figures.failures)
    assert set(figures.exits) <= {0, 1}
    assert figures.exits.get(1, 0) > DEFAULT_COUNT // 2  # the mutations do break specs


def test_mutated_shipped_specs_are_explained_or_refused_with_located_lines(tmp_path):
    """`explain` reads further than `validate` (estimates, counts): bounded too."""
    figures = run_fuzz(SEED + 2, EXPLAIN_COUNT, tmp_path, TIME_LIMIT_S, ("explain",))
    assert figures.tried == EXPLAIN_COUNT
    assert not figures.failures, _report(figures.failures)
    assert set(figures.exits) <= {0, 1}


@pytest.mark.parametrize("path", sorted(REGRESSIONS.iterdir()), ids=lambda p: p.name)
def test_kept_regression_is_refused_with_located_lines(path, tmp_path):
    runner = Runner(tmp_path, TIME_LIMIT_S)
    try:
        outcome, _ = runner.run(path, path.read_text("utf-8"))
    finally:
        runner.close()
    assert outcome.ok, (outcome.code, outcome.output)


@pytest.mark.slow
def test_a_large_fuzz_run(tmp_path):
    figures = run_fuzz(SEED + 1, LARGE_COUNT, tmp_path, TIME_LIMIT_S)
    assert figures.tried == LARGE_COUNT
    assert not figures.failures, _report(figures.failures)
