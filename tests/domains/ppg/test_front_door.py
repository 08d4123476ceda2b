"""What a new user meets first: explain's node count is the built graph's; one error, not two."""

import json

import pytest
import yaml

from epcg_spec.cli.main import main
from epcg_spec.compile.budget import refuse_oversize
from epcg_spec.core.context import RunContext
from epcg_spec.core.errors import BuildError
from epcg_spec.domains.ppg.problem import PpgProblem

from .helpers import chain_object, spec_of

CRYSTALS = """kind: ppg
name: crystals
puzzles: 3
objects:
  - name: Torch
    states: [{name: unlit, default: true}, lit]
    events: [{name: light, reversible: false}]
    transitions: [{event: light, from: unlit, to: lit}]
  - name: Crystal
    is_template: true
    min_number: 1
    max_number: 3
    states: [{name: dark, default: true}, glowing]
    events: [charge]
    transitions: [{event: charge, from: dark, to: glowing}]
"""


def test_explain_counts_the_nodes_each_puzzle_is_built_with(tmp_path, capsys):
    spec = tmp_path / "crystals.yaml"
    spec.write_text(CRYSTALS)
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    capsys.readouterr()
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    built = [len(p["nodes"]) for p in result["puzzles"]]
    assert sorted(set(built)) == [3, 4]  # seeds 0..2 draw 1..3 crystals: the counts differ
    assert main(["explain", str(spec), "--json"]) == 0
    nodes = json.loads(capsys.readouterr().out)["nodes"]
    per_seed = ", ".join(f"{m} for seed {k}" for k, m in enumerate(built))
    assert nodes == f"3 to 4 (drawn per puzzle: {per_seed}; --seed draws others)"


def test_a_puzzle_line_counts_in_the_singular_where_it_is_one(tmp_path, capsys):
    spec = tmp_path / "two.yaml"
    spec.write_text(
        "kind: ppg\nobjects:\n"
        + "".join(
            f"  - {{name: {name}, states: [s0, s1],"
            " transitions: [{event: e, from: s0, to: s1}]}\n"
            for name in ("Box", "Lamp")
        )
        + "rules: [{type: BEFORE, lh: {name: Box}, rh: {name: Lamp}}]\n"
    )
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    record = json.loads((tmp_path / "out" / "result.json").read_text())["puzzles"][0]
    assert (record["decisions"], record["backtracks"]) == (1, 0)
    assert capsys.readouterr().out.splitlines()[0] == (
        "puzzle 0: 2 nodes, 0 edges, 1 decision, 0 backtracks, solved by simulation in 2 steps"
    )
    spec.write_text(spec.read_text().split("  - {name: Lamp")[0])
    assert main(["count", str(spec)]) == 0
    assert capsys.readouterr().out == "two: 1 valid order of 1 node\n"


def test_an_object_in_error_is_not_reported_again_by_the_rules_naming_it(tmp_path, capsys):
    spec = tmp_path / "bad.yaml"
    spec.write_text(
        CRYSTALS.replace("to: lit}", "to: lt}")
        + "rules:\n  - {type: BEFORE, lh: {name: Torch, state: lit}, rh: {name: Crystal}}\n"
        + "goal: {name: Torch, state: lit}\n"
    )
    assert main(["validate", str(spec), "-q"]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert line == (
        f"{spec}:8:51: 'Torch' has no state 'lt'; did you mean 'lit'? (states: unlit, lit)"
    )


def test_listing_more_orders_than_memory_holds_is_refused_up_front(tmp_path, capsys):
    # 12 free levers have about 4 * 10**17 orders; listing 10**12 of them would need
    # petabytes: refused before the search starts (it ran out of memory, exit 3, before)
    data = {"mode": "enumerate", "limit": 10**12, "objects": [chain_object("L", 2, copies=12)]}
    with pytest.raises(BuildError, match=r"about [\d.]+ PiB of memory"):
        refuse_oversize(PpgProblem(spec_of(data)), RunContext(), tmp_path)
    spec = tmp_path / "levers.yaml"
    spec.write_text(yaml.safe_dump({"kind": "ppg", **data}))
    out = tmp_path / "out"
    assert main(["build", str(spec), "--out", str(out), "-q"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert "PiB of memory" in line and "--force" in line
    assert not out.exists()


def test_too_many_copies_to_relabel_is_one_located_line(tmp_path, capsys):
    # 9 copies have 9! = 362,880 relabellings: making them all, then comparing every order
    # under each, ran out of memory (64 copies) or for hours; refused, at 'symmetry'
    data = {
        "mode": "enumerate",
        "symmetry": "templates",
        "objects": [chain_object("Lever", 2, copies=9)],
    }
    spec = tmp_path / "levers.yaml"
    spec.write_text(yaml.safe_dump({"kind": "ppg", **data}, sort_keys=False))
    assert main(["count", str(spec), "--limit", "1"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"{spec}:3:11: symmetry: templates would compare each order under ")
    assert "362,880 relabellings" in line


def test_enumerate_takes_a_seed_only_where_the_universe_is_drawn(tmp_path, capsys):
    """`--seed` was taken and ignored where mode enumerate draws nothing at random."""
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(CRYSTALS.replace("min_number: 1\n    max_number: 3", "exact_number: 2"))
    drawn = tmp_path / "drawn.yaml"
    drawn.write_text(CRYSTALS)
    for spec in (fixed, drawn):
        spec.write_text(spec.read_text().replace("puzzles: 3", "mode: enumerate"))
    assert main(["build", str(fixed), "--seed", "1", "--out", str(tmp_path / "f"), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "usage error: --seed is refused for `build` of this ppg spec: mode enumerate lists"
    )
    assert "every seed gives the same orders" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "f").exists()
    assert main(["build", str(fixed), "--out", str(tmp_path / "f"), "-q"]) == 0
    posets = {2: 3, 3: 19, 4: 219}  # labelled partial orders of n nodes (OEIS A001035)
    found = {}
    for seed in ("0", "1"):
        out = tmp_path / f"d{seed}"
        assert main(["build", str(drawn), "--seed", seed, "--out", str(out), "-q"]) == 0
        result = json.loads((out / "result.json").read_text())
        found[seed] = (len(result["nodes"]), result["count"])
    assert found == {"0": (4, posets[4]), "1": (3, posets[3])}  # the torch and 3, then 2
