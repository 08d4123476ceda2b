"""A valid spec that cannot be built fails in one line at the setting to change, exit 1."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.core.errors import BuildError, Diagnostic, Pos, SpaceTooLarge, SpecError

ROOT = Path(__file__).resolve().parents[2]
PIPES = ROOT / "specs" / "wfc-samples" / "samples" / "pipes" / "data.xml"

# spec text -> the line `build` prints, after the spec's path
FAILING = {
    "kind: tracery\ndepth: 2\ngrammar: {origin: '#a#', a: '#b#', b: x}\n": (
        ":2:1: f: #origin# has no derivation within the depth bound 2; the shortest needs "
        "depth 3: raise depth to 3 or more"
    ),
    "kind: tracery\ngrammar:\n  origin: '#a#'\n  a: '#a#'\n": (
        ":3:3: f: #origin# has no derivation within the depth bound 12; none ends within the "
        "largest depth 64 either: give each recursive symbol a rule that does not recurse"
    ),
    "kind: tracery\ngrammar: {origin: '#a##a#', a: [x, y, z]}\ngenerate: {mode: all, limit: 8}\n": (
        ":3:23: mode all would write 9 derivations, more than the limit 8 (generate.limit); "
        "split it with --shard or raise the limit"
    ),
    f"kind: wfc\nmodel: tiled\ntileset: {PIPES}\nsize: 6\nborder: {{tile: empty}}\n"
    "fixed:\n  - {at: [0, 0], tile: cross}\n": (
        ":7:5: f: fixed[0] and border clash with the tile rules before any choice: no 6 x 6 "
        "output can meet them, and more attempts cannot help"
    ),
    "kind: rooms\nmap: {width: 8, height: 8}\nrooms:\n  - {name: a, size: [6, 6]}\n"
    "  - {name: b, size: [6, 6], parent: a}\n": (
        ":2:1: f: the 2 rooms cannot all be placed on the 8 x 8 map (before any guess, "
        "every placement was tried); enlarge the map, shrink the rooms or lower "
        "margin/corridor"
    ),
    "kind: sudoku\npuzzle:\n"
    + "".join(
        f"  - '{row}'\n" for row in ["12345678.", "." * 8 + "9"] + ["." * 9] * 7
    ): ":2:1: f: the puzzle has no solution",
}


@pytest.mark.parametrize("text", list(FAILING), ids=lambda t: t.split("\n")[0][6:])
def test_a_run_time_failure_is_one_line_at_its_setting(text, tmp_path, capsys):
    spec = tmp_path / "f.yaml"
    spec.write_text(text, "utf-8")
    assert main(["validate", "-q", str(spec)]) == 0
    out = tmp_path / "out"
    assert main(["build", str(spec), "--out", str(out), "-q"]) == 1
    assert capsys.readouterr().err == f"{spec}{FAILING[text]}\n"
    assert not out.exists()


def test_the_dsl_form_is_located_in_its_own_text(tmp_path, capsys):
    text = next(t for t in FAILING if "limit: 8" in t)
    (tmp_path / "f.yaml").write_text(text, "utf-8")
    spec = tmp_path / "f.epcg"
    assert main(["fmt", str(tmp_path / "f.yaml"), "--to", "dsl", "-o", str(spec)]) == 0
    capsys.readouterr()
    line = next(
        n for n, row in enumerate(spec.read_text("utf-8").splitlines(), 1) if "limit" in row
    )
    for argv in (["build", "-q", "--out", str(tmp_path / "o")], ["sample", "--distinct"]):
        assert main([argv[0], str(spec), *argv[1:]]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"{spec}:{line}:") and "more than the limit 8" in err


def test_the_api_gives_the_place_and_keeps_the_type(tmp_path):
    text = next(t for t in FAILING if t.startswith("kind: sudoku"))
    spec = epcg_spec.loads(text, name="f")
    with pytest.raises(BuildError) as caught:
        spec.build()
    assert caught.value.at == (("puzzle",),)
    assert (caught.value.pos.line, caught.value.pos.col) == (2, 1)


def test_place_and_settings_survive_a_trip_to_a_cluster_worker():
    error = BuildError("no map", at=(("search", "attempts"),))
    error.pos = Pos("s.yaml", 3, 5)
    back = pickle.loads(pickle.dumps(error))
    assert (str(back), back.at, back.pos) == ("no map", (("search", "attempts"),), error.pos)
    large = pickle.loads(pickle.dumps(SpaceTooLarge("permutation 21!", 21 * 2**62)))
    assert type(large) is SpaceTooLarge and large.size == 21 * 2**62 and "21!" in str(large)
    spec = pickle.loads(pickle.dumps(SpecError(Diagnostic(Pos("s.yaml", 1, 2), "bad"))))
    assert str(spec) == "s.yaml:1:2: bad" and spec.diagnostics[0].pos.col == 2


def test_a_failure_with_no_setting_to_name_stays_unlocated(capsys):
    assert main(["merge", str(ROOT / "specs"), "--out", "/tmp/never"]) == 1
    assert capsys.readouterr().err.startswith("error: ")
