"""Building ppg specs and small random universes for the tests."""

from __future__ import annotations

import numpy as np
import yaml

from epcg_spec.domains.ppg.model import PpgSpec
from epcg_spec.domains.ppg.network import order_network, resolve_rules
from epcg_spec.spec.load import check_document
from epcg_spec.spec.yaml_loader import load_yaml

RULE_TYPES = ("BEFORE", "AFTER", "STRICT_BEFORE", "STRICT_AFTER")


def spec_of(data: dict) -> PpgSpec:
    """The typed spec of a document given as Python data."""
    text = yaml.safe_dump({"kind": "ppg", **data}, sort_keys=False)
    return check_document(load_yaml(text, "test.yaml"), {}).spec


def chain_object(name: str, states: int, reversible: bool = True, copies: int = 0) -> dict:
    """An object whose states s0 -> s1 -> ... follow one event each."""
    obj = {
        "name": name,
        "states": [{"name": "s0", "default": True}] + [f"s{k}" for k in range(1, states)],
        "events": [{"name": f"e{k}", "reversible": reversible} for k in range(1, states)],
        "transitions": [
            {"event": f"e{k}", "from": f"s{k - 1}", "to": f"s{k}"} for k in range(1, states)
        ],
    }
    if copies:
        obj.update(is_template=True, exact_number=copies)
    return obj


def random_universe(seed: int, max_nodes: int = 4, rule_types=RULE_TYPES, max_rules: int = 2):
    """Objects with at most `max_nodes` goal states in all, and a few random rules."""
    rng = np.random.default_rng(seed)
    objects, nodes = [], 0
    while nodes < max_nodes:
        states = int(rng.integers(2, min(3, max_nodes - nodes + 1) + 1))
        objects.append(chain_object(f"O{len(objects)}", states, bool(rng.random() < 0.6)))
        nodes += states - 1
    rules = []
    for _ in range(int(rng.integers(0, max_rules + 1))):
        sides = []
        for _ in range(2):
            obj = objects[int(rng.integers(len(objects)))]
            side = {"name": obj["name"]}
            if rng.random() < 0.6:
                side["state"] = f"s{int(rng.integers(1, len(obj['states'])))}"
            sides.append(side)
        rules.append({"type": str(rng.choice(rule_types)), "lh": sides[0], "rh": sides[1]})
    return {"objects": objects, "rules": rules}


def network_of(spec: PpgSpec, universe):
    return order_network(universe, resolve_rules(universe), spec.density)


def oracle_rules(universe) -> list[tuple[str, list[int], list[int]]]:
    return [
        (r.type, lh, rh) for r, (lh, rh) in zip(universe.rules, universe.rule_sets(), strict=True)
    ]
