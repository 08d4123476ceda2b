"""`epcg-spec validate` for CI: text, json and GitHub formats, skipped files, plurals."""

import json
import os

import pytest

from epcg_spec.cli.main import main
from tests.acceptance.test_cli import SPECS

QUEENS = (SPECS / "n-queens.yaml").read_text()
BAD = "kind: space\nname: x\nspace: {type: permutation, n: 3}\nconstraint: []\n"


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "good.yaml").write_text(QUEENS)
    (tmp_path / "bad.yaml").write_text(BAD)
    (tmp_path / "list.yaml").write_text("- a\n- b\n")
    (tmp_path / "config.yml").write_text("name: not a spec\n")
    return tmp_path


def test_text_reports_each_skipped_file_and_why(folder, capsys):
    assert main(["validate", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert out == (
        f"{folder}/bad.yaml:4:1: unknown key 'constraint' in the spec; did you mean "
        "'constraints'? (valid keys: constraints, description, kind, name, objective, params, "
        "search, space)\n"
    )
    assert err.splitlines() == [
        f"{folder}/config.yml: skipped: a mapping without a 'kind' key",
        f"{folder}/list.yaml: skipped: its top level is a list, not a mapping with a 'kind'",
        "2 specs checked: 1 valid, 1 invalid; skipped 2 files that are not specs",
    ]


def test_one_spec_is_singular(folder, capsys):
    assert main(["validate", str(folder / "good.yaml")]) == 0
    assert capsys.readouterr().err == "1 spec checked: 1 valid, 0 invalid\n"
    (folder / "bad.yaml").unlink()
    (folder / "config.yml").unlink()
    assert main(["validate", str(folder)]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        "1 spec checked: 1 valid, 0 invalid; skipped 1 file that is not a spec"
    )


def test_json_is_one_document_with_numbers_and_positions(folder, capsys):
    assert main(["validate", str(folder), "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    report = json.loads(out)
    assert report["checked"] == 2 and report["exit_code"] == 1
    assert report["valid"] == [f"{folder}/good.yaml"]
    assert report["problems"] == [
        {
            "file": f"{folder}/bad.yaml",
            "line": 4,
            "col": 1,
            "message": "unknown key 'constraint' in the spec",
            "hint": "did you mean 'constraints'? (valid keys: constraints, description, kind, "
            "name, objective, params, search, space)",
        }
    ]
    assert [s["file"] for s in report["skipped"]] == [f"{folder}/config.yml", f"{folder}/list.yaml"]


def test_github_annotations_escape_their_fields(tmp_path, capsys):
    odd = tmp_path / "a,b:c.yaml"
    odd.write_text("kind: space\nname: x\nspace: {type: permutation, n: 3}\nconstraint: []\n")
    assert main(["validate", str(odd), "--format", "github", "-q"]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    path = str(odd).replace(":", "%3A").replace(",", "%2C")
    assert line.startswith(f"::error file={path},line=4,col=1::unknown key 'constraint' in the")


def test_an_unknown_format_is_a_usage_error(folder, capsys):
    assert main(["validate", str(folder), "--format", "xml"]) == 2
    assert "xml" in capsys.readouterr().err


def test_a_pipe_or_broken_link_named_like_a_spec_is_reported_skipped(folder, capsys):
    """A folder walk passed over them without a word (they are not regular files)."""
    os.mkfifo(folder / "pipe.yaml")
    (folder / "broken.epcg").symlink_to(folder / "nowhere.epcg")
    (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert f"{folder}/pipe.yaml: skipped: is not a regular file" in err
    nowhere = f"a symbolic link to {folder}/nowhere.epcg, which does not exist"
    assert f"{folder}/broken.epcg: skipped: {nowhere}" in err
    assert f"{folder}/loop.yaml: skipped: a symbolic link that leads to itself" in err
    assert err[-1] == "2 specs checked: 1 valid, 1 invalid; skipped 5 files that are not specs"


def test_a_folder_tree_deeper_than_the_stack_is_walked(tmp_path, capsys):
    """Path.rglob recursed once per level: 1,100 folders deep was an internal error."""
    deepest = tmp_path
    for _ in range(1100):  # a level at a time: makedirs recurses too
        deepest /= "d"
        deepest.mkdir()
    (deepest / "q.yaml").write_text(QUEENS)
    try:
        assert main(["validate", str(tmp_path)]) == 0
        assert capsys.readouterr().err == "1 spec checked: 1 valid, 0 invalid\n"
    finally:  # bottom up: pytest's clean-up (shutil.rmtree) recurses too
        (deepest / "q.yaml").unlink()
        while deepest != tmp_path:
            deepest.rmdir()
            deepest = deepest.parent


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_a_missing_path_is_one_usage_error_as_build_says_it(tmp_path, fmt, capsys):
    """It also printed '0 specs checked: 0 valid, 0 invalid' under the usage error."""
    missing = str(tmp_path / "missing.yaml")
    assert main(["build", missing]) == 2
    said = capsys.readouterr().err
    assert said == f"usage error: {missing}: no such file\n"
    assert main(["validate", missing, "--format", fmt]) == 2
    out, err = capsys.readouterr()
    if fmt == "text":
        assert (out, err) == ("", said)
    else:
        assert (out, err) == (f"::error file={missing}::{missing}: no such file\n", "")


def test_a_missing_path_beside_specs_is_reported_and_the_rest_checked(folder, capsys):
    missing = str(folder / "missing.yaml")
    assert main(["validate", missing, str(folder / "good.yaml")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"usage error: {missing}: no such file",
        "1 spec checked: 1 valid, 0 invalid",
    ]
