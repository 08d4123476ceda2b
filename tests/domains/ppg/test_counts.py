"""Exact numbers of valid orders: known answers, and brute force over every relation."""

from __future__ import annotations

import json

import pytest
import yaml

from epcg_spec.cli.main import main
from epcg_spec.core.context import RunContext
from epcg_spec.domains.ppg.enumerate import enumerate_orders, relabellings
from epcg_spec.domains.ppg.universe import largest_universe
from epcg_spec.search import backtrack
from tests.oracles.ppg_oracle import count_up_to_relabelling, valid_orders

from .helpers import chain_object, network_of, oracle_rules, random_universe, spec_of


def count_of(data: dict) -> int:
    spec = spec_of(data)
    universe = largest_universe(spec)
    return backtrack.count(network_of(spec, universe).net.compile())[0]


@pytest.mark.parametrize("n,posets", [(2, 3), (3, 19), (4, 219), (5, 4231), (6, 130023)])
def test_free_objects_give_every_labelled_partial_order(n, posets):
    # OEIS A001035: labelled partial orders on n points
    assert count_of({"objects": [chain_object(f"O{k}", 2) for k in range(n)]}) == posets


@pytest.mark.parametrize("n,chains", [(2, 1), (3, 1), (4, 1)])
def test_one_way_states_of_one_object_form_a_chain(n, chains):
    # s1 .. s(n) of an irreversible chain can only be reached in order: one total order
    assert count_of({"objects": [chain_object("O", n + 1, reversible=False)]}) == chains


def test_goal_comes_last():
    # three free nodes below a goal: the orders of the others, 19
    data = {
        "objects": [chain_object(f"O{k}", 2) for k in range(4)],
        "goal": {"name": "O3", "state": "s1"},
    }
    assert count_of(data) == 19


@pytest.mark.parametrize("seed", range(30))
def test_counts_match_brute_force(seed):
    spec = spec_of(random_universe(seed))
    universe = largest_universe(spec)
    network = network_of(spec, universe)
    expected = valid_orders(universe, oracle_rules(universe))
    assert backtrack.count(network.net.compile()) == (len(expected), True)
    listed, _ = enumerate_orders(network, universe, 10**6, False, RunContext())
    assert sorted(o.tobytes() for o in listed.orders) == sorted(o.tobytes() for o in expected)


@pytest.mark.parametrize("copies", [2, 3])
def test_counts_up_to_swapping_template_copies(copies):
    data = {
        "objects": [chain_object("Lever", 2, copies=copies), chain_object("Door", 2)],
        "rules": [{"type": "BEFORE", "lh": {"name": "Lever"}, "rh": {"name": "Door"}}],
    }
    spec = spec_of(data)
    universe = largest_universe(spec)
    found, _ = enumerate_orders(network_of(spec, universe), universe, 0, True, RunContext())
    expected = valid_orders(universe, oracle_rules(universe))
    assert found.count == count_up_to_relabelling(expected, relabellings(universe))


@pytest.mark.parametrize("copies,posets", [(2, 2), (3, 5), (4, 16), (5, 63)])
def test_free_template_copies_give_every_unlabelled_partial_order(copies, posets):
    # OEIS A000112: partial orders on n unlabelled points
    spec = spec_of({"objects": [chain_object("Lever", 2, copies=copies)]})
    universe = largest_universe(spec)
    found, _ = enumerate_orders(network_of(spec, universe), universe, 0, True, RunContext())
    assert found.count == posets


def test_levers_example_counts_22_through_the_cli(capsys):
    assert main(["count", "specs/ppg-levers.epcg"]) == 0
    assert "22 valid orders" in capsys.readouterr().out


def test_a_count_stops_at_the_limit_or_the_time_limit_with_the_count_so_far(capsys):
    assert main(["count", "specs/ppg-universe.yaml", "--limit", "100", "--json"]) == 0
    limited = json.loads(capsys.readouterr().out)
    assert (limited["count"], limited["complete"]) == (100, False)  # of 1,957
    # 6 free two-state objects: 130,023 orders (OEIS A001035), far more than 0.2 s of work
    spec = spec_of({"objects": [chain_object(f"O{k}", 2) for k in range(6)]})
    universe = largest_universe(spec)
    found, report = enumerate_orders(
        network_of(spec, universe), universe, 0, False, RunContext(time_limit=0.2)
    )
    assert report.stopped == "time limit" and 0 < found.count < 130_023


def test_a_copy_singled_out_by_a_rule_breaks_the_symmetry():
    data = {
        "objects": [chain_object("Lever", 2, copies=2), chain_object("Door", 2)],
        "rules": [{"type": "BEFORE", "lh": {"name": "Lever_T_0"}, "rh": {"name": "Door"}}],
    }
    spec = spec_of(data)
    universe = largest_universe(spec)
    assert universe.template_orbits() == []
    # 19 orders of 3 nodes, less the 6 with the door before Lever_T_0
    found, _ = enumerate_orders(network_of(spec, universe), universe, 0, True, RunContext())
    assert found.count == len(valid_orders(universe, oracle_rules(universe))) == 13


def test_an_enumeration_stopped_by_time_limits_resumes_to_the_same_orders(tmp_path, capsys):
    """Build in many short runs (--time-limit, then --resume until complete): the count and
    the listed orders are those of one whole run, the tally of canonical forms included."""
    data = {
        "kind": "ppg",
        "name": "levers",
        "mode": "enumerate",
        "symmetry": "templates",
        "limit": 50,
        "objects": [chain_object("Lever", 2, copies=2)]
        + [chain_object(f"O{k}", 2) for k in range(3)],
    }
    spec = tmp_path / "levers.yaml"
    spec.write_text(yaml.safe_dump(data, sort_keys=False))

    def build(out: str, *flags: str) -> dict:
        assert main(["build", str(spec), "--out", str(tmp_path / out), "-q", *flags]) == 0
        capsys.readouterr()
        return json.loads((tmp_path / out / "result.json").read_text())

    whole = build("whole")
    parts = [build("parts", "--time-limit", "0.005")]
    while not parts[-1]["complete"] and len(parts) < 1000:  # each run takes a chunk at least
        assert (tmp_path / "parts" / ".checkpoint.json").exists()
        parts.append(build("parts", "--time-limit", "0.005", "--resume"))
    assert parts[0]["count"] < whole["count"] == 2225  # stopped part way
    assert parts[-1]["count"] == whole["count"]
    orders = [(tmp_path / out / "orders.json").read_text() for out in ("whole", "parts")]
    assert orders[0] == orders[1]
    assert not (tmp_path / "parts" / ".checkpoint.json").exists()
