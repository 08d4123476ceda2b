"""Loading: ppg-yaml files as they are, and one located line per mistake."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from epcg_spec.domains.ppg.universe import largest_universe, names
from epcg_spec.spec.load import load_spec

SPECS = Path(__file__).parents[3] / "specs"

LEVER = """\
kind: ppg
objects:
  - name: Lever
    is_template: true
    exact_number: 2
    states: [{name: down, default: true}, up]
    transitions: [{event: pull, from: down, to: up}]
  - name: Door
    states: [closed, open]
    events: [{name: unlock, reversible: false}]
    transitions: [{event: unlock, from: closed, to: open}]
"""


def errors(tmp_path, capsys, text: str) -> list[str]:
    path = tmp_path / "spec.yaml"
    path.write_text(text)
    assert main(["validate", str(path)]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return [line for line in (captured.out + captured.err).splitlines() if "spec.yaml:" in line]


def test_ppg_yaml_file_is_read_as_it_is():
    loaded = load_spec("specs/ppg-universe.yaml")
    assert loaded.document.data["kind"] == "ppg"
    spec = loaded.spec
    assert spec.num_nodes == 5 and [r.type for r in spec.rules] == ["BEFORE", "STRICT_AFTER"]
    universe = largest_universe(spec)
    assert [t.name for t in universe.things][1:4] == ["Crystal_T_0", "Crystal_T_1", "Crystal_T_2"]
    assert universe.matching(spec.rules[0].rh) == [1, 2, 3]  # no state: any state, every copy


def test_ppg_yaml_file_builds(tmp_path):
    assert main(["build", "specs/ppg-universe.yaml", "--out", str(tmp_path), "-q"]) == 0
    assert (tmp_path / "puzzle-0.svg").exists()


def test_rule_matching_no_node_is_a_located_error(tmp_path, capsys):
    text = LEVER + "rules: [{type: BEFORE, lh: {name: Lever, state: down}, rh: {name: Door}}]\n"
    (line,) = errors(tmp_path, capsys, text)
    assert line.startswith(f"{tmp_path / 'spec.yaml'}:12:") and "matches no node" in line
    assert line.endswith("; 'down' is where Lever starts, and a node is a state it reaches: up")


def test_a_goal_in_a_state_never_reached_names_those_reached(tmp_path, capsys):
    text = (
        LEVER.replace("[closed, open]", "[closed, open, ajar]")
        + "goal: {name: Door, state: ajar}\n"
    )
    (line,) = errors(tmp_path, capsys, text)
    assert line.endswith(
        "the goal 'Door:ajar' matches 0 nodes; Door never reaches 'ajar' from 'closed'; it "
        "reaches: open"
    )


@pytest.mark.parametrize(
    "rule,message",
    [
        ("{name: Levr}", "no object 'Levr'; did you mean 'Lever'?"),
        ("{name: Lever, state: upp}", "'Lever' has no state 'upp'; did you mean 'up'?"),
        ("{name: Lever_T_2}", "no object 'Lever_T_2'"),
    ],
)
def test_unknown_names_are_located(tmp_path, capsys, rule, message):
    text = LEVER + f"rules: [{{type: AFTER, lh: {rule}, rh: {{name: Door}}}}]\n"
    (line,) = errors(tmp_path, capsys, text)
    assert message in line and ":12:" in line


def test_one_copy_of_a_template_can_be_named(tmp_path):
    path = tmp_path / "spec.yaml"
    path.write_text(LEVER + "rules: [{type: AFTER, lh: {name: Lever_T_1}, rh: {name: Door}}]\n")
    spec = load_spec(path).spec
    universe = largest_universe(spec)
    assert [universe.label(i) for i in universe.matching(spec.rules[0].lh)] == ["Lever_T_1: up"]


@pytest.mark.parametrize(
    "change,message",
    [
        (("exact_number: 2", "min_number: 2"), "needs its number of copies"),
        (
            ("exact_number: 2", "exact_number: 2\n    min_number: 1"),
            "template 'Lever' has exact_number and min_number; give exact_number, or min_number",
        ),
        (
            ("[closed, open]", "[{name: closed, default: true}, {name: open, default: true}]"),
            "two default states",
        ),
        (("from: closed", "from: shut"), "'Door' has no state 'shut'"),
        (("{event: unlock,", "{event: kick,"), "'Door' has no event 'kick'"),
        (("kind: ppg", "kind: ppg\ndensitty: 0.3"), "densitty"),
    ],
)
def test_bad_universes_are_located(tmp_path, capsys, change, message):
    lines = errors(tmp_path, capsys, LEVER.replace(*change))
    assert len(lines) == 1 and message in lines[0]


def test_params_are_refused(tmp_path, capsys):
    path = tmp_path / "spec.yaml"
    path.write_text(LEVER)
    assert main(["build", str(path), "--param", "x=1", "--out", str(tmp_path / "o")]) == 2


def test_ppg_yaml_names_that_yaml_reads_as_booleans_keep_their_text(tmp_path):
    path = tmp_path / "switch.yaml"
    path.write_text(
        "objects:\n  - name: Switch\n    states:\n      - name: off\n        default: true\n"
        "      - name: on\n    transitions:\n      - {event: flip, from: off, to: on}\n"
        "rules:\n  - {lh: {name: Switch, state: on}, rh: {name: Switch, state: on}, "
        "type: BEFORE}\n"
    )
    spec = load_spec(path).spec
    assert spec.objects[0].states == ("off", "on") and spec.objects[0].initial == "off"
    assert spec.rules[0].lh.state == "on"


def test_a_puzzle_of_6400_nodes_is_refused_before_its_orders_are_counted(tmp_path, capsys):
    """2,000 templates of 64 copies made 128,000 nodes: each rule side was matched by a pass
    over every node (validate took minutes) and explain computed 2^(n (n - 1))."""
    objects = [
        {
            "name": f"O{i}",
            "is_template": True,
            "exact_number": 64,
            "states": [{"name": "a", "default": True}, "b"],
            "transitions": [{"event": "e", "from": "a", "to": "b"}],
        }
        for i in range(100)
    ]
    rules = [{"type": "BEFORE", "lh": {"name": "O0", "state": "b"}, "rh": {"name": "O1"}}]
    spec = {"kind": "ppg", "mode": "enumerate", "symmetry": "templates"}
    assert errors(tmp_path, capsys, json.dumps({**spec, "objects": objects, "rules": rules})) == [
        f"{tmp_path / 'spec.yaml'}:1:74: the largest puzzle has 6,400 nodes (each object, and "
        "each copy of a template, in each state it can reach); at most 4,096; use fewer "
        "objects, copies or states (an order of 4,096 nodes is already 3 TiB of network)"
    ]


@pytest.mark.parametrize("name", ["ppg-escape-room.yaml", "ppg-levers.epcg", "ppg-universe.yaml"])
def test_rule_sides_match_the_nodes_their_names_stand_for(name):
    """Matching by name gives the nodes a pass over every node gave."""
    universe = largest_universe(load_spec(SPECS / name).spec)
    sides = [s for r in universe.rules for s in (r.lh, r.rh)] + [universe.goal] * bool(
        universe.goal
    )
    for side in sides:
        assert universe.matching(side) == [
            i
            for i, node in enumerate(universe.nodes)
            if names(side, universe.things[node.thing]) and side.state in (None, node.state)
        ]
