"""Tracery 2's own test page: each of its 26 cases at rank 0 and at the last rank.

The grammar and the cases (data/test-page-*.json) are from Tracery 2's test page
(galaxykate/tracery, branch tracery2, js/test.js) by Kate Compton, Apache License 2.0.
data/test-page-expected.json holds the original's outputs [rank 0, last rank]. They were
made by running the npm package tracery-grammar 2.8.4 under node with its random
source fixed: `tracery.setRng(() => 0)` (every choice takes the first rule: rank 0),
then `setRng(() => 0.9999999999)` (every choice takes the last rule: the last rank),
expanding each case with a fresh grammar
that has `tracery.baseEngModifiers`, and reading `finishedText` after escape clearing.
"""

import json
from pathlib import Path

import pytest

from epcg_spec.cli.main import main

DATA = Path(__file__).parent / "data"
GRAMMAR = DATA / "test-page-grammar.json"
CASES = json.loads((DATA / "test-page-cases.json").read_text("utf-8"))

EXPECTED = json.loads((DATA / "test-page-expected.json").read_text("utf-8"))


def test_every_case_has_an_expectation():
    assert sorted(EXPECTED) == sorted(CASES) and len(CASES) == 26


def _sample(capsys, folder: Path, case: str, compat: str = "") -> list[str]:
    """Ranks 0 and -1 of the case's text, written as the spec's origin: several cases are
    broken on purpose, which a spec's origin warns of and `--origin` refuses."""
    spec = folder / "case.yaml"
    origin = json.dumps(CASES[case], ensure_ascii=False)  # a JSON string is a YAML one
    spec.write_text(f"kind: tracery\ngrammar_file: {GRAMMAR}\norigin: {origin}\n{compat}", "utf-8")
    code = main(["sample", str(spec), "--rank", "0", "--rank", "-1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    return [s["state"] for s in out["best"]]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_json_grammar_gives_the_original_output_first_and_last(case, capsys, tmp_path):
    assert _sample(capsys, tmp_path, case) == list(EXPECTED[case])


@pytest.mark.parametrize("case", sorted(CASES))
def test_compat_tracery2_gives_the_same(case, capsys, tmp_path):
    assert _sample(capsys, tmp_path, case, "compat: tracery2\n") == list(EXPECTED[case])
