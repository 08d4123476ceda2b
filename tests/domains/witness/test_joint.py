"""Joint panels by branch and bound: a small library against brute force, and the 3x3 set."""

import itertools
import json
from math import comb
from pathlib import Path

import numpy as np
import pytest

from epcg_spec.cli.main import main
from epcg_spec.core.context import RunContext
from epcg_spec.domains.witness import layouts
from epcg_spec.domains.witness.layouts import run_layouts
from epcg_spec.domains.witness.problem import WitnessProblem
from epcg_spec.spec.load import load_spec

SPECS = Path(__file__).parents[3] / "specs"


def solution_sets(spec) -> dict[int, frozenset]:
    """{rank: the set of lines that solve it} of every solvable layout."""
    job = WitnessProblem(spec).job("layouts", {"library": [1, None]}, RunContext())
    outcome = run_layouts(job, RunContext())
    ranks = np.concatenate(outcome.tally.library).tolist()
    bits = np.concatenate(outcome.tally.library_bits)
    return {
        rank: frozenset(
            np.flatnonzero(np.unpackbits(row.view(np.uint8), bitorder="little")).tolist()
        )
        for rank, row in zip(ranks, bits, strict=True)
    }


def value(sets: list[frozenset]) -> int | None:
    """The fewest joint solutions over the proper subsets, if the whole set has exactly one."""
    if len(frozenset.intersection(*sets)) != 1:
        return None
    return min(len(frozenset.intersection(*(sets[:k] + sets[k + 1 :]))) for k in range(len(sets)))


def test_a_small_joint_search_finds_the_brute_force_best(tmp_path):
    spec_path = tmp_path / "joint.yaml"
    spec_path.write_text(
        "kind: witness\nname: small-joint\npanel: {size: [3, 2]}\n"
        "layout: [{place: piece, count: 2, values: [dot, I2-h, I2-v, L3-sw, L3-ne, O4]}]\n"
        "joint: {panels: 3}\nsearch: {top: 1}\n"
    )
    sets = solution_sets(load_spec(spec_path).spec)
    # two panels with the same solutions leave the joint solution alone: value 1 at most
    distinct = set(sets.values())
    best = max(v for trio in itertools.combinations(distinct, 3) if (v := value(list(trio))))
    assert best == 3
    out = tmp_path / "out"
    assert main(["build", str(spec_path), "--out", str(out)]) == 0
    result = json.loads((out / "result.json").read_text())
    found = result["best"][0]
    assert found["score"] == best
    chosen = [sets[r] for r in found["state"]["ranks"]]
    assert value(chosen) == best
    assert result["distinct_candidates"] == len(distinct)
    assert result["nodes"] < comb(len(distinct), 3)
    assert (out / "joint-0-solution.svg").exists()


@pytest.mark.slow
def test_three_3x3_piece_panels_with_one_joint_solution(tmp_path):
    out = tmp_path / "out"
    assert main(["build", str(SPECS / "witness-joint-3x3.epcg"), "--out", str(out)]) == 0
    result = json.loads((out / "result.json").read_text())
    assert result["candidates"] == 113_296
    found = result["best"][0]
    assert found["score"] == 7
    sets = solution_sets(load_spec(SPECS / "witness-pieces-3x3.yaml").spec)
    chosen = [sets[r] for r in found["state"]["ranks"]]
    assert value(chosen) == 7
    assert result["nodes"] < result["unpruned"] / 100
    for k in (0, 1, 2):  # each sub-panel re-checks on its own
        again = tmp_path / f"again{k}"
        assert main(["build", str(out / f"joint-0-panel-{k}.yaml"), "--out", str(again)]) == 0
        assert json.loads((again / "result.json").read_text())["count"] == len(chosen[k])


def test_a_library_too_large_to_hold_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(layouts, "LIBRARY_BYTES", 1000)
    out = tmp_path / "out"
    assert main(["build", str(SPECS / "witness-joint-3x3.epcg"), "--out", str(out)]) == 1
    assert "narrow them with joint.min_solutions" in capsys.readouterr().err
    assert not out.exists()
