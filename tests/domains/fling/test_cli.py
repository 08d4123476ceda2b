"""The fling kind through the command line: every command, the files, the located errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from epcg_spec.spec.schema import validate_data
from tests.checkout import checkout_env
from tests.domains.fling.conftest import oracle_layer

ROOT = Path(__file__).resolve().parents[3]
SPECS = ROOT / "specs"
FLING_SPECS = sorted(SPECS.glob("fling*"))

SMALL = """\
kind: fling
name: small
params: {pieces: 5}
board: {width: 4, height: 5}
layers: {solvable: pieces - 1, unique: pieces}
unique: [boards, moves]
select: {top: 2, candidates: 30}
seed: 3
"""


def build(spec: Path, out: Path, layers: Path, *extra: str) -> dict:
    code = main(["build", str(spec), "--out", str(out), "--layers-dir", str(layers), "-q", *extra])
    assert code == 0
    return json.loads((out / "result.json").read_text())


@pytest.fixture
def small(tmp_path) -> Path:
    path = tmp_path / "small.yaml"
    path.write_text(SMALL)
    return path


def test_build_writes_counts_boards_and_pictures(small, tmp_path, capsys):
    result = build(small, tmp_path / "out", tmp_path / "layers")
    assert validate_data(result, "result.schema.json") == []
    assert result["kind"] == "fling" and result["backend"] == "retrograde"
    for layer in result["layers"][1:]:
        expected = oracle_layer(4, 5, layer["pieces"])
        if layer["pieces"] < 5:
            assert layer["solvable"] == len(expected["solvable"])
        assert layer["unique"] == {r: len(expected[r]) for r in ("boards", "moves")}
    assert result["layers"][-1]["solvable"] is None  # layer 5: unique boards only
    assert result["count"] == len(oracle_layer(4, 5, 5)["boards"])
    assert len(result["best"]) == 2
    assert result["best"][0]["score"] >= result["best"][1]["score"]
    for i, board in enumerate(result["best"]):
        assert board["unique"]["boards"] and board["state"]["pieces"] == 5
        assert (tmp_path / "out" / f"board-{i}.svg").read_text().startswith("<svg")
        text = (tmp_path / "out" / f"board-{i}.txt").read_text()
        assert text.splitlines()[:5] == board["labelled"]
    assert "unique (boards)" in capsys.readouterr().out


def test_a_cold_build_compiles_once_apart_from_every_layer(small, tmp_path):
    """On a cold kernel cache each pass compiled its loops as it began: "compiling kernels"
    was said twice, and layer 2's seconds held the compile (3.3 s for 1,540 boards)."""
    cold = checkout_env(EPCG_CACHE_DIR=str(tmp_path / "cache"))
    argv = ["-m", "epcg_spec", "build", str(small), "--out", str(tmp_path / "out")]
    run = subprocess.run([sys.executable, *argv], env=cold, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stderr.splitlines() if "compiling kernels" in line]
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    compiled = result["compile_seconds"]
    assert len(said) == (compiled >= 1.0), (said, compiled)  # said once it takes a second
    assert compiled > 0.5 > max(layer["seconds"] for layer in result["layers"])


def test_a_second_build_reuses_the_layers_and_writes_the_same_result(small, tmp_path, capsys):
    """The first build's layer 1 (every board solved, none judged) was said to be stored."""
    first = build(small, tmp_path / "one", tmp_path / "layers")
    assert "stored" not in capsys.readouterr().out
    second = build(small, tmp_path / "two", tmp_path / "layers")
    assert all(layer["computed"] for layer in first["layers"])
    assert not any(layer["computed"] for layer in second["layers"])
    drop = ("seconds", "compile_seconds", "layers", "evaluated")
    assert {k: v for k, v in first.items() if k not in drop} == {
        k: v for k, v in second.items() if k not in drop
    }


def test_seed_draws_the_candidates_as_the_spec_seed_does(small, tmp_path):
    """--seed was recorded in result.json, but the candidates were drawn with the spec's
    seed: every --seed gave the same boards."""
    layers, spec2 = tmp_path / "layers", tmp_path / "seed2.yaml"
    spec2.write_text(SMALL.replace("seed: 3", "seed: 2").replace("candidates: 30", "candidates: 3"))
    spec3 = tmp_path / "seed3.yaml"
    spec3.write_text(SMALL.replace("candidates: 30", "candidates: 3"))

    def boards(spec: Path, *seed: str) -> list[int]:
        result = build(spec, tmp_path / "out", layers, *seed)
        return [board["rank"] for board in result["best"]]

    assert boards(spec3, "--seed", "2") == boards(spec2) != boards(spec3)
    assert boards(spec2, "--seed", "3") == boards(spec3)


def test_count_and_sample(small, tmp_path, capsys):
    assert main(["count", str(small)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:3] == ["     1 piece: 20", "    2 pieces: 190"]
    assert lines[5] == "    5 pieces: 15,504"
    code = main(["count", str(small), "--constrained", "--layers-dir", str(tmp_path), "--json"])
    assert code == 0
    counted = json.loads(capsys.readouterr().out)
    assert counted["layers"][2]["solvable"] == len(oracle_layer(4, 5, 3)["solvable"])
    assert main(["sample", str(small), "--rank", "0", "--rank", "-1", "--json"]) == 0
    samples = json.loads(capsys.readouterr().out)["samples"]
    assert [s["state"]["cells"] for s in samples] == [[0, 1, 2, 3, 4], [15, 16, 17, 18, 19]]
    assert main(["sample", str(small), "--rank", "15504"]) == 2
    assert "out of range" in capsys.readouterr().err


def test_an_unsolvable_puzzle_says_it_has_no_solution(tmp_path):
    spec = tmp_path / "stuck.yaml"
    spec.write_text("kind: fling\nname: stuck\nboard: {width: 3, height: 3}\n"
                    "puzzle: ['o.o', '...', 'o..']\n")  # fmt: skip
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    text = (tmp_path / "out" / "puzzle.txt").read_text().splitlines()
    assert text[-1] == "solution: none (no sequence of moves leaves one piece)"


def test_a_puzzle_of_one_piece_is_said_in_the_singular(tmp_path, capsys):
    spec = tmp_path / "one.yaml"
    spec.write_text(
        "kind: fling\nname: one\nboard: {width: 3, height: 3}\npuzzle: [o.., ..., ...]\n"
    )
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "one: 1 piece on 3 x 3: solvable: yes, unique (moves): yes",
        "  1 solution; 1 board reachable; expert ratio 1.000",
    ]
    text = (tmp_path / "out" / "puzzle.txt").read_text()
    assert "brute-force tree: 1 node; expert's tree: 1 node; ratio 1.000" in text


def test_the_puzzle_spec_is_solved_and_checked(tmp_path):
    out = tmp_path / "out"
    assert main(["build", str(SPECS / "fling-puzzle.epcg"), "--out", str(out), "-q"]) == 0
    result = json.loads((out / "result.json").read_text())
    board = result["best"][0]
    assert board["solvable"] and board["unique"] == {"moves": True, "boards": True}
    assert board["expert_follows_solution"]
    assert len(board["solution"]) == board["state"]["pieces"] - 1
    assert (tmp_path / "out" / "puzzle.svg").exists()


def test_the_files_give_the_verdict_under_the_spec_s_rules_as_the_summary_does(
    small, tmp_path, capsys
):
    """puzzle.txt, board-N.txt, result.json's `best` and sample's lines gave both rules'
    verdicts, in a fixed order, where the summary gave the rules the spec chose."""
    puzzle = tmp_path / "boards.epcg"
    text = (SPECS / "fling-puzzle.epcg").read_text()
    puzzle.write_text(text.replace("unique -> moves | boards", "unique -> boards"))
    assert main(["build", str(puzzle), "--out", str(tmp_path / "puzzle"), "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("solvable: yes, unique (boards): yes")
    lines = (tmp_path / "puzzle" / "puzzle.txt").read_text().splitlines()
    assert lines[10] == "solvable: yes  unique: boards yes"
    assert json.loads((tmp_path / "puzzle" / "result.json").read_text())["best"][0]["unique"] == {
        "boards": True
    }
    result = build(small, tmp_path / "out", tmp_path / "layers")  # unique: [boards, moves]
    assert result["best"][0]["unique"] == {"boards": True, "moves": False}
    assert list(result["best"][0]["unique"]) == ["boards", "moves"]
    lines = (tmp_path / "out" / "board-0.txt").read_text().splitlines()
    assert lines[7] == "solvable: yes  unique: boards yes, moves no"
    moves = tmp_path / "moves.yaml"
    moves.write_text(SMALL.replace("unique: [boards, moves]", "unique: moves"))
    capsys.readouterr()
    assert main(["sample", str(moves), "--rank", "0"]) == 0
    assert (
        capsys.readouterr().out.splitlines()[0] == "rank 0: solvable: False, unique (moves): False"
    )


@pytest.mark.parametrize("flag", [["--threads", "2"], ["--layers-dir", "layers"]])
def test_a_given_board_refuses_what_only_the_layers_use(flag, tmp_path, capsys):
    """Solving one given board (one thread, no stored layers) took both and ignored them."""
    argv = ["build", str(SPECS / "fling-puzzle.epcg"), "--out", str(tmp_path / "out"), *flag]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(
        f"usage error: {flag[0]} is refused for `build` of this fling spec: one given board"
    )
    assert not (tmp_path / "layers").exists()


def test_explain_names_the_layers_and_the_store(small, capsys):
    assert main(["explain", str(small)]) == 0
    out = capsys.readouterr().out
    assert "layer 5" in out and "unique boards only" in out and "retrograde" in out


@pytest.mark.parametrize("spec", FLING_SPECS, ids=lambda p: p.name)
def test_the_example_specs_are_valid_and_convert_without_loss(spec, tmp_path):
    assert main(["validate", "-q", str(spec)]) == 0
    other = "yaml" if spec.suffix == ".epcg" else "dsl"
    converted = tmp_path / f"{spec.stem}.{'yaml' if other == 'yaml' else 'epcg'}"
    assert main(["fmt", str(spec), "--to", other, "-o", str(converted)]) == 0
    back = tmp_path / f"back{spec.suffix}"
    assert main(["fmt", str(converted), "--to", "dsl" if other == "yaml" else "yaml",
                 "-o", str(back)]) == 0  # fmt: skip
    from epcg_spec.spec.load import load_document

    assert load_document(back).data == load_document(spec).data


BROKEN = {
    'puzzle:\n  - "..o"\n  - ".x."\n': "4:7: 'x' is not a cell; draw an empty cell as '.' and "
    "a piece as 'o'",
    'puzzle:\n  - "..o"\n  - ".o"\n': "4:5: row 2 of the puzzle has 2 cells, but the board is 3 "
    "wide",
    "puzzle: |\n  .....\n  ..o.*\n": "4:7: '*' is not a cell",
    'puzzle: ["...", "..."]\n': "2:9: the puzzle has no pieces",
    "layers: {solvable: 4, unique: 6}\n": "2:31: unique boards of 6 pieces are found from the "
    "solvable boards of 5, but layers.solvable is 4; set layers.solvable to at least 5",
    "board: {width: 9, height: 8}\nlayers: 3\n": "2:8: a 9 x 8 board has 72 cells; at most 64 fit",
    "board: {width: 3, height: 2}\nlayers: 7\n": "3:9: a 3 x 2 board holds at most 6 pieces",
    'puzzle: ["o.o"]\nsearch: {unique_by: scan}\n': "3:1: 'search' applies to 'layers' only",
    'puzzle: ["o.o"]\nlayers: 3\n': "1:1: the spec: give either 'layers'",
    "layers: 3\nunique: move\n": '3:9: unique is "move", which is not allowed; did you mean '
    "'moves'?",
    "layers: 4\nselect: {pieces: 6}\n": "3:18: select.pieces is 6, but unique boards are counted "
    "for 2..4 pieces",
    "layers: 3\nlayer: 3\n": "3:1: unknown key 'layer' in the spec; did you mean 'layers'?",
    "layers: 1\n": "2:9: layers is 1; it must be >= 2",
}


@pytest.mark.parametrize("body", BROKEN, ids=range(len(BROKEN)))
def test_a_broken_spec_gets_one_located_line(body, tmp_path, capsys):
    spec = tmp_path / "broken.yaml"
    spec.write_text("kind: fling\n" + body)
    assert main(["build", str(spec), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{spec}:{BROKEN[body]}")
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_ctrl_c_stops_a_build_cleanly_and_the_same_command_goes_on(
    small, tmp_path, monkeypatch, capsys
):
    from epcg_spec.search import driver, retrograde

    calls = []
    resize = driver.resize_chunk

    def press_ctrl_c(chunk, elapsed, **limits):
        calls.append(chunk)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return resize(chunk, elapsed, **limits)

    monkeypatch.setattr(retrograde, "SCAN_BLOCK", 64 * 9)
    monkeypatch.setattr(driver, "resize_chunk", press_ctrl_c)
    out, layers = tmp_path / "out", tmp_path / "layers"
    command = ["build", str(small), "--out", str(out), "--layers-dir", str(layers), "-q"]
    assert main(command) == 130
    err = capsys.readouterr().err
    assert "run the same command again" in err and "Traceback" not in err
    assert not (out / "result.json").exists()
    assert main(command) == 0
    fresh = build(small, tmp_path / "fresh", tmp_path / "fresh-layers")
    resumed = json.loads((out / "result.json").read_text())
    assert resumed["layers"][-1] == fresh["layers"][-1] | {
        k: resumed["layers"][-1][k] for k in ("seconds", "cpu_seconds")
    }
    assert resumed["best"] == fresh["best"]


def test_a_layers_dir_that_is_a_file_is_a_usage_error(small, tmp_path, capsys):
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    argv = ["build", str(small), "--out", str(tmp_path / "out"), "--layers-dir"]
    assert main([*argv, str(blocker / "layers"), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "is a file, not a folder" in err
    assert not (tmp_path / "out").exists()


def test_an_empty_layers_dir_and_one_for_sample_are_refused(small, tmp_path, capsys):
    """--layers-dir '' was the cache, and sample's --layers-dir was unused: flags ignored."""
    argv = ["count", str(small), "--constrained", "--layers-dir", ""]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "usage error: --layers-dir '': an empty path; give a folder, or leave it out\n"
    )
    assert main(["sample", str(small), "--layers-dir", str(tmp_path / "layers")]) == 2
    err = capsys.readouterr().err  # click 8.4 quotes the option, 8.2 and 8.3 do not
    assert err.startswith("usage error: No such option") and "--layers-dir" in err
