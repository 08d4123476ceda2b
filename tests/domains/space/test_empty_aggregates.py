"""Aggregates over no terms are ordinary constraints: `distinct` and `all` of nothing hold."""

import itertools
import json

from epcg_spec.cli.main import main

SPEC = """kind: space
name: empty
params: {n: 4}
space: {type: permutation, n: n, name: q}
constraints:
"""
DIAGONAL = "distinct(q[i] + i for i in range(n))"


def count(constraints: list[str], tmp_path) -> int:
    spec = tmp_path / "empty.yaml"
    spec.write_text(SPEC + "".join(f"  - {c}\n" for c in constraints))
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    return json.loads((tmp_path / "out" / "result.json").read_text())["count"]


# both aggregates in one spec: each spec compiles its own kernels, and a count stays right
# only if every one of them holds
EMPTY = ["distinct(q[i] for i in range(0))", "all(q[i] < q[i + 1] for i in range(0))"]


def test_an_aggregate_over_no_terms_holds(tmp_path, capsys):
    diagonal = sum(len({q[i] + i for i in range(4)}) == 4 for q in itertools.permutations(range(4)))
    assert diagonal == 7  # by brute force
    assert count([*EMPTY, DIAGONAL], tmp_path) == diagonal
    assert count(EMPTY, tmp_path) == 24
    capsys.readouterr()
