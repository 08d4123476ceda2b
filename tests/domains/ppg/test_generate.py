"""Generated puzzles: every rule type holds, acyclic, solvable by simulation, reproducible."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from unittest.mock import ANY

import numpy as np
import pytest
import yaml

from epcg_spec.cli.main import main
from epcg_spec.core.context import RunContext
from epcg_spec.core.errors import SpecError
from epcg_spec.core.result import without_timings
from epcg_spec.domains.ppg.problem import PpgProblem
from epcg_spec.domains.ppg.simulate import simulate
from epcg_spec.domains.ppg.universe import draw_universe
from epcg_spec.search import backtrack
from tests.oracles.ppg_oracle import is_strict_order, plays_through, rule_holds
from tests.recording import RecordedProgress

from .helpers import RULE_TYPES, chain_object, network_of, oracle_rules, random_universe, spec_of


def generate(spec, seed: int):
    """(universe, order) of the puzzle seeded `seed`, or (universe, None) if none exists."""
    universe = draw_universe(spec, seed)
    network = network_of(spec, universe)
    outcome = backtrack.solve(network.net.compile(), seed, backtrack.Policy(attempts=1))
    assert outcome.status in ("solved", "infeasible")
    return universe, None if outcome.values is None else network.relation(outcome.values)


@pytest.mark.parametrize("rule_type", RULE_TYPES)
def test_every_rule_type_holds_over_many_seeds(rule_type):
    solved = 0
    for seed in range(60):
        spec = spec_of(random_universe(seed, 5, (rule_type,), 3))
        universe, order = generate(spec, seed)
        if order is None:
            continue
        solved += 1
        assert is_strict_order(order)  # acyclic: a strict partial order
        assert all(rule_holds(order, *r) for r in oracle_rules(universe))
        assert plays_through(universe, order)
        play = simulate(universe, order)
        assert play.ok and sorted(s.node for s in play.steps) == list(range(len(order)))
    assert solved >= 30


@pytest.mark.parametrize("density", [0.2, 0.8])
def test_density_and_heuristics_keep_puzzles_valid(density):
    data = random_universe(5, 6, max_rules=3)
    for heuristic in ("entropy", "mrv", "scanline"):
        spec = spec_of({**data, "density": density, "heuristic": heuristic})
        for seed in range(10):
            universe, order = generate(spec, seed)
            if order is not None:
                assert simulate(universe, order).ok


def test_denser_cells_give_more_order_pairs():
    data = random_universe(1, 6, max_rules=0)
    pairs = {}
    for density in (0.1, 0.9):
        spec = spec_of({**data, "density": density})
        pairs[density] = sum(int(generate(spec, s)[1].sum()) for s in range(20))
    assert pairs[0.1] < pairs[0.9]


def outputs(tmp_path, name: str, *extra: str) -> dict[str, str]:
    out = tmp_path / name
    assert main(["build", "specs/ppg-escape-room.yaml", "--out", str(out), "-q", *extra]) == 0
    files = {p.name: p.read_text() for p in out.iterdir()}
    files.pop("index.html")  # the gallery page shows the run's time
    result = json.loads(files.pop("result.json"))
    files["result.json"] = json.dumps(without_timings(result))
    return files


def test_same_seed_same_bytes_and_other_seed_differs(tmp_path):
    first, again = outputs(tmp_path, "a"), outputs(tmp_path, "b")
    assert first == again
    other = outputs(tmp_path, "c", "--seed", "100")
    assert other["result.json"] != first["result.json"]


def test_outputs_json_dot_svg_walkthrough(tmp_path):
    files = outputs(tmp_path, "a")
    graph = json.loads(files["puzzle-0.json"])
    labels = [f"{n['object']}: {n['state']}" for n in graph["nodes"]]
    assert labels[-1] == "Door: open"
    door = len(labels) - 1
    assert all([i, door] in graph["order"] for i in range(door))  # the goal comes last
    assert files["puzzle-0.dot"].startswith('digraph "ppg-escape-room"')
    assert files["puzzle-0.dot"].count("->") == len(graph["edges"])
    svg = ET.fromstring(files["puzzle-0.svg"])
    assert len(svg.findall("{http://www.w3.org/2000/svg}rect")) == len(labels) + 1
    walk = files["puzzle-0.walkthrough.txt"].splitlines()
    assert walk[-1] == "puzzle complete" and walk[-2].startswith(f"{len(labels)}. Door: open")


def test_template_rule_and_omitted_state_apply_to_every_copy():
    data = random_universe(0, 2, max_rules=0)
    data["objects"].append(
        {**data["objects"][0], "name": "T", "is_template": True, "exact_number": 2}
    )
    data["rules"] = [{"type": "AFTER", "lh": {"name": "T"}, "rh": {"name": "O0"}}]
    spec = spec_of(data)
    for seed in range(20):
        universe, order = generate(spec, seed)
        copies = [
            i for i, n in enumerate(universe.nodes) if universe.things[n.thing].copy is not None
        ]
        first = [i for i, n in enumerate(universe.nodes) if universe.things[n.thing].name == "O0"]
        assert len(copies) >= 2 and first
        assert not order[np.ix_(copies, first)].any()


def conflict_lines(rules: list[tuple[str, str, str]]) -> list[str]:
    """The diagnostics of building a universe A, B, C, D (goal D: s1) under `rules`."""
    data = {
        "objects": [chain_object(x, 2) for x in "ABCD"],
        "rules": [{"type": t, "lh": {"name": a}, "rh": {"name": b}} for t, a, b in rules],
        "goal": {"name": "D", "state": "s1"},
    }
    with pytest.raises(SpecError) as caught:
        PpgProblem(spec_of(data))._one_puzzle(0)
    return [str(d) for d in caught.value.diagnostics]


def test_unsatisfiable_rule_against_the_goal_is_reported_alone():
    lines = conflict_lines([("BEFORE", "A", "B"), ("AFTER", "C", "A"), ("BEFORE", "D", "A")])
    assert len(lines) == 1 and "BEFORE(D, A)" in lines[0] and lines[0].startswith("test.yaml:")
    # D is the goal: without it the rule holds, so the line names it
    assert "cannot hold with the goal D:s1 " in lines[0]
    assert lines[0].endswith("this rule, or the goal (the puzzle ends once D:s1 is reached)")


def test_unsatisfiable_pair_of_rules_is_reported_as_a_minimal_set():
    # A comes before the goal D, so A has a direct successor, which cannot be both B and C
    rules = [("BEFORE", "C", "A"), ("STRICT_BEFORE", "A", "B"), ("STRICT_BEFORE", "A", "C")]
    lines = conflict_lines(rules)
    assert len(lines) == 2
    assert "STRICT_BEFORE(A, B)" in lines[0] and "STRICT_BEFORE(A, C)" in lines[1]
    # without the goal A could come last, with no successor: the lines name the goal too
    assert all("with the other 1 rule(s) listed and the goal D:s1 " in line for line in lines)


def test_unsatisfiable_build_exits_1_with_located_lines(tmp_path, capsys):
    spec = tmp_path / "bad.epcg"
    spec.write_text(
        "kind: ppg\nobjects: [{name: A, states: [s0, s1], transitions: [{event: e, from: s0, "
        "to: s1}]}, {name: B, states: [s0, s1], transitions: [{event: e, from: s0, to: s1}]}]\n"
        "goal: {name: B, state: s1}\nrules: [{type: AFTER, lh: {name: A}, rh: {name: B}}]\n"
    )
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"{spec}:4:" in err and "AFTER(A, B) cannot hold with the goal B:s1" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_explain_and_count_through_the_cli(capsys):
    assert main(["explain", "specs/ppg-escape-room.yaml"]) == 0
    out = capsys.readouterr().out
    assert "6 candidate nodes" in out and "30 order cells" in out
    assert main(["count", "specs/ppg-escape-room.yaml", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    spec = spec_of(yaml_data("specs/ppg-escape-room.yaml"))
    universe = draw_universe(spec, 0)
    network = network_of(spec, universe)
    assert result["count"] == backtrack.count(network.net.compile())[0] > 0


def yaml_data(path: str) -> dict:
    data = yaml.safe_load(Path(path).read_text())
    data.pop("kind")
    return data


def test_generation_reports_progress_per_puzzle():
    spec = spec_of({**yaml_data("specs/ppg-escape-room.yaml"), "puzzles": 4})
    progress = RecordedProgress()
    output = PpgProblem(spec).run(RunContext(seed=3, progress=progress))
    assert progress.calls[:2] == [("compiling", ""), ("start", ANY, 4)]
    assert progress.calls[-1] == ("finish",)
    assert sum(n for call, *n in progress.calls if call == "advance" for n in n) == 4
    assert [p["seed"] for p in output.result["puzzles"]] == [3, 4, 5, 6]
