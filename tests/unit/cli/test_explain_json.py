"""`explain --json`: numbers are numbers, indented rows nest, nothing is lost to a repeat."""

import json

from epcg_spec.cli.main import main
from epcg_spec.output.explain import explain_document
from tests.acceptance.test_cli import SPECS


def explained(spec: str, capsys) -> dict:
    assert main(["explain", str(SPECS / spec), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_numbers_are_numbers_and_each_constraint_keeps_its_rows(capsys):
    queens = explained("n-queens.yaml", capsys)
    assert queens["space size"] == 40320
    assert queens["constraint one-queen-per-diagonal"] == {
        "value": "distinct(q[i] + i for i in range(n))",
        "usable on prefixes": "yes: terms checked from depth 1 of 8",
    }
    assert queens["constraint one-queen-per-antidiagonal"]["usable on prefixes"].startswith("yes")
    nested = explained("nested-universe.yaml", capsys)
    assert nested["seed"] == 42 and nested["types"] == 21


def test_integers_past_two_to_the_53_are_strings():
    rows = [("cells", "1,540"), ("share", "0.5"), ("big", str(2**53 + 1)), ("edge", str(2**53))]
    assert explain_document(rows, 2**64) == {
        "cells": 1540,
        "share": 0.5,
        "big": "9007199254740993",
        "edge": 2**53,
        "space size": "18446744073709551616",
    }


def test_a_repeated_label_is_numbered_not_overwritten():
    rows = [("run a", "x"), ("  grid", "2 x 2"), ("  grid", "3 x 3"), ("run a", "y")]
    assert explain_document(rows, None) == {
        "run a": {"value": "x", "grid": "2 x 2", "grid 2": "3 x 3"},
        "run a 2": "y",
    }


def test_each_constraint_says_its_own_pruning_whatever_its_name(tmp_path, capsys):
    spec = tmp_path / "names.yaml"
    spec.write_text(
        "kind: space\nspace: {type: permutation, n: 4, name: q}\nconstraints:\n"
        '  - {name: a, expr: "q[0] < q[1]"}\n  - {name: a, expr: "q[3] != 2"}\n'
        '  - "q[1] != 3"\n'
    )
    assert main(["explain", str(spec), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows["constraint a"]["usable on prefixes"] == "yes: terms checked from depth 2 of 4"
    assert rows["constraint a 2"]["usable on prefixes"].startswith("no: it reads the whole")
    assert rows["constraint 3"] == {
        "value": "q[1] != 3",
        "usable on prefixes": "yes: terms checked from depth 2 of 4",
    }
    unpruned = spec.read_text().replace("constraints:", "search: {prune: false}\nconstraints:")
    spec.write_text(unpruned)
    assert main(["explain", str(spec), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["constraint 3"] == "q[1] != 3"
