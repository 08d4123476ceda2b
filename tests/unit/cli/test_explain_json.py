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
