"""`loads`: text named as a file, whose files are found beside that name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import epcg_spec

ROOT = Path(__file__).resolve().parents[2]
PIPES = (ROOT / "specs" / "wfc-pipes.yaml").read_text()


def test_files_a_spec_text_names_are_found_beside_its_name(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert epcg_spec.loads(PIPES, name="specs/wfc-pipes").build().count == 1
    beside = f"no tileset at {ROOT / 'wfc-samples' / 'samples' / 'pipes' / 'data.xml'}"
    with pytest.raises(epcg_spec.SpecError, match=re.escape(beside)):
        epcg_spec.loads(PIPES)  # beside "<string>": in the current folder


def test_an_empty_name_is_refused_as_a_name():
    # it was read as the file ".yaml", which has no suffix: "not a spec file"
    message = "name '': give a name for the spec in messages, e.g. '<string>'"
    with pytest.raises(epcg_spec.UsageError, match=re.escape(message)):
        epcg_spec.loads("kind: sudoku\nname: tiny\nbox: 2\n", name="")


def test_validate_checks_the_spec_with_the_params_it_was_loaded_with():
    # it checked the spec's own params: n = -1 here, refused, although the spec loaded
    text = (ROOT / "specs" / "n-queens.yaml").read_text().replace("n: 8", "n: -1", 1)
    spec = epcg_spec.loads(text, params={"n": 6})
    spec.validate()
    assert spec.count(constrained=True).count == 4


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("specs/nope.yaml", "specs/nope.yaml: no such file"),
        ("specs", "specs is a folder; give a spec file"),
        ("README.md", "README.md: not a spec file (known file types: .epcg, .json, .xml,"),
    ],
)
def test_a_path_that_holds_no_spec_is_a_usage_error(path, message, monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(epcg_spec.UsageError, match=re.escape(message)):
        epcg_spec.load(path)
