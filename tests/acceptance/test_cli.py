"""The command line as a user meets it: exit codes, outputs, messages."""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from epcg_spec.compile import registry
from epcg_spec.compile.budget import size_text
from epcg_spec.core.context import RunContext
from epcg_spec.spec.dsl import load_dsl
from epcg_spec.spec.load import load_spec
from epcg_spec.spec.schema import validate_data
from tests.checkout import checkout_env

SPECS = Path(__file__).resolve().parents[2] / "specs"
QUEENS = str(SPECS / "n-queens.yaml")
SUDOKU = str(SPECS / "sudoku-4x4.epcg")


def test_every_example_spec_validates(capsys):
    assert main(["validate", str(SPECS)]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert " 0 invalid" in err


def test_count_states_the_exact_size_and_the_constrained_count(capsys):
    assert main(["count", QUEENS]) == 0
    assert "permutation 8! = 40,320 states" in capsys.readouterr().out
    assert main(["count", QUEENS, "--constrained", "--param", "n=6"]) == 0
    assert "4 meet every constraint" in capsys.readouterr().out


def test_build_writes_a_schema_valid_result_and_prints_json(tmp_path, capsys):
    assert main(["build", QUEENS, "--out", str(tmp_path), "--json", "-q"]) == 0
    printed = json.loads(capsys.readouterr().out)
    written = json.loads((tmp_path / "result.json").read_text())
    assert printed == written
    assert validate_data(written, "result.schema.json") == []
    assert written["count"] == 92 and written["kind"] == "space"
    assert [b["rank"] for b in written["best"]] == sorted(b["rank"] for b in written["best"])


def test_sample_by_rank_counts_negative_ranks_from_the_end(capsys):
    assert main(["sample", QUEENS, "--rank", "0", "--rank", "-1"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "0: q = 0 1 2 3 4 5 6 7",
        "40319: q = 7 6 5 4 3 2 1 0",
    ]
    assert main(["sample", QUEENS, "--rank", "40320"]) == 2
    assert "out of range" in capsys.readouterr().err


def test_explain_says_which_constraints_prune_on_prefixes(capsys):
    assert main(["explain", QUEENS]) == 0
    out = capsys.readouterr().out
    assert "usable on prefixes" in out and "yes: terms checked from depth" in out
    assert "estimated memory" in out


def test_fmt_converts_to_dsl_and_back(tmp_path, capsys):
    dsl = tmp_path / "q.epcg"
    assert main(["fmt", QUEENS, "--to", "dsl", "-o", str(dsl)]) == 0
    assert "distinct(q[i] + i for i in range(n))" in dsl.read_text()
    assert main(["fmt", str(dsl), "--to", "yaml"]) == 0
    yaml_text = capsys.readouterr().out
    assert yaml_text.startswith("kind: space\n")  # no schemas/ at or above tmp_path
    assert load_dsl(dsl.read_text(), "q.epcg").data["name"] == "n-queens"
    assert main(["count", str(dsl), "--constrained", "--param", "n=5"]) == 0
    assert "10 meet every constraint" in capsys.readouterr().out


def test_fmt_points_yaml_at_the_nearest_schemas_folder(tmp_path, capsys):
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "space.schema.json").write_text("{}")
    deep = tmp_path / "specs" / "mine"
    deep.mkdir(parents=True)
    assert main(["fmt", QUEENS, "--to", "yaml", "-o", str(deep / "q.yaml")]) == 0
    first = (deep / "q.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../schemas/space.schema.json"
    assert main(["fmt", str(deep / "q.yaml"), "--to", "yaml"]) == 0  # stdout: beside SPEC
    assert capsys.readouterr().out.splitlines()[0] == first


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["build", QUEENS, "--param", "m=3"], "the spec has no such param"),
        (["build", QUEENS, "--param", "n"], "write NAME=VALUE"),
        (["build", QUEENS, "--shard", "3/2"], "'--shard': '3/2': write I/N"),
        (["build", "no-such-spec.yaml"], "no such file"),
        (["build", QUEENS, "--frobnicate"], "No such option"),
        (["count", str(SPECS)], "is a folder"),
        (["build", QUEENS, "--out", QUEENS], "is a file, not a folder"),
        (["build", QUEENS, "--out", QUEENS + "/sub"], "is a file, not a folder"),
        (["fmt", QUEENS, "--to", "dsl", "-o", QUEENS + "/q.epcg"], "is a file, not a folder"),
        (["fmt", QUEENS, "--to", "dsl", "-o", str(SPECS)], "is a directory"),
        (["gallery", str(SPECS), "--out", QUEENS + "/i.html"], "is a file, not a folder"),
        (["sample", QUEENS, "-n", "100001"], "at most 100,000 at a time"),
        (["sample", QUEENS, "--rank", "1", "--seed", "3"], "-n, --seed and --distinct draw"),
        # an empty path stood for the default (out/NAME, OUT/index.html, stdout): ignored
        (["build", QUEENS, "--out", ""], "'--out': an empty path"),
        (["fmt", QUEENS, "--to", "dsl", "-o", ""], "'-o' / '--output': an empty path"),
        (["gallery", str(SPECS), "--out", ""], "'--out': an empty path"),
        (["merge", str(SPECS), "--out", ""], "'--out': an empty path"),
        (["count", ""], "'SPEC': an empty path"),
        # an option of a command given before it
        (["--param", "n=8", "build", QUEENS], "It goes after the command (it is an option of"),
        (["-q", "build", QUEENS], "epcg-spec build ... -q ..."),
        (["count", QUEENS, "--time-limit", "0"], "'--time-limit': 0.0 is not in the range x>0"),
        # an option of one value given twice: the first was ignored without a word
        (["sample", QUEENS, "-n", "2", "--seed", "1", "--seed", "2"], "--seed is given twice"),
        (["count", QUEENS, "--param", "n=6", "--param", "n=7"], "--param n is given twice"),
        (["fmt", QUEENS, "--to", "dsl", "-o", f"{QUEENS}/a", "--output", f"{QUEENS}/b"], "twice"),
        (["validate", QUEENS, "--format", "json", "--format", "text"], "--format is given"),
        # beyond 64 bits: --seed 2**63 drew what --seed 0 draws, --limit 2**63 was exit 3
        (["sample", QUEENS, "-n", "2", "--seed", str(2**63)], f"<=x<={2**63 - 1}"),
        (["count", SUDOKU, "--limit", str(2**63)], f"'--limit': {2**63} is not in the range 1<=x"),
        # the spec in place of the command, a common verb, a multi-line message of click's
        ([QUEENS, "build"], f"the command comes first: epcg-spec build {QUEENS}"),
        (["run", QUEENS], "No such command 'run'; did you mean 'build'?"),
        (["help", "build"], "write epcg-spec --help, or COMMAND --help"),
        (["fmt", QUEENS], "Missing option '--to'. Choose from: dsl, yaml"),
    ],
)
def test_usage_errors_exit_2_with_one_clear_line(argv, message, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert message in err
    assert len(err.splitlines()) == 1 and not out


# the build a refused `sample` points to, for a spec of each kind without one
SAMPLE_INSTEAD = {
    "sudoku-4x4.epcg": ("--seed N", "generates its puzzles afresh for each seed N"),
    "sudoku-escargot.yaml": ("", "solves its puzzle and says whether the solution is unique"),
    "rooms-house.yaml": ("--seed N", "places its rooms afresh for each seed N"),
    "wfc-maze.yaml": ("--seed N", "makes its outputs afresh for each seed N"),
    "ppg-escape-room.yaml": ("--seed N", "generates its puzzles afresh for each seed N"),
    "ppg-levers.epcg": ("", "lists every valid order of its puzzle"),
}


@pytest.mark.parametrize("name", sorted(SAMPLE_INSTEAD))
def test_a_refused_sample_names_the_build_that_gives_the_content(name, tmp_path, capsys):
    """It said only "kind sudoku does not support `sample`", not what to run instead."""
    spec = str(SPECS / name)
    assert main(["sample", spec]) == 2
    flags, does = SAMPLE_INSTEAD[name]
    command = " ".join(["epcg-spec build", spec, flags]).strip()
    kind = name.split("-")[0]
    assert capsys.readouterr().err == (
        f"usage error: kind {kind} does not support `sample`; `{command}` {does}\n"
    )
    made = []
    for seed in ("1", "2") if flags else ("0",):
        out = tmp_path / seed
        argv = shlex.split(command.replace("--seed N", f"--seed {seed}"))[1:]
        assert main([*argv, "--out", str(out), "-q"]) == 0
        skip = ("result.json", "index.html")
        made.append({f.name: f.read_bytes() for f in out.iterdir() if f.name not in skip})
    assert made[0]  # content files were written
    if flags:
        assert made[0] != made[1]  # another seed, other content


# what the kind's specs make in their default mode: `kinds KIND` names that build
KIND_INSTEAD = {name.split("-")[0]: why for name, why in SAMPLE_INSTEAD.items() if why[0]}


@pytest.mark.parametrize("kind", registry.kinds())
def test_kinds_names_the_build_a_refused_sample_names(kind, capsys):
    """`kinds sudoku` said only "sample (not for this kind)", where a refused `sample` of
    a sudoku spec names the build that gives its puzzles."""
    assert main(["kinds", kind]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("  sample ")]
    if "sample" in registry.domain(kind).supports:
        assert kind not in KIND_INSTEAD and "not for this kind" not in line
    else:
        flags, does = KIND_INSTEAD[kind]
        assert line == f"  sample  (not for this kind; `epcg-spec build SPEC {flags}` {does})"


def test_no_command_prints_the_help_exit_2(capsys):
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("Usage: epcg-spec [OPTIONS] COMMAND") and not out
    assert "usage error" not in err


def test_every_command_help_fits_its_summary_on_one_line(capsys):
    assert main(["--help"]) == 0
    listing = capsys.readouterr().out.split("Commands:\n")[1].splitlines()
    assert len(listing) == 9 and not any(line.endswith("...") for line in listing)


@pytest.mark.parametrize(
    ("command", "said"),
    [  # each said less, or something else: "Worker threads.", "RESULTS...", "OUT/index.html"
        ("build", "--threads N                     Threads of the kernels (kinds space, fling,"),
        ("build", "--no-prune                      Evaluate every state: no prefix pruning"),
        ("count", "--constrained                   Also count the states meeting every"),
        ("sample", "--distinct                      Draw no content twice (tracery: distinct"),
        ("explain", "--json              Print the rows as one JSON object."),
        ("merge", "Usage: epcg-spec merge [OPTIONS] SHARD..."),
        ("gallery", "--out FILE          The page (default: FOLDER/index.html)."),
        ("sample", "--depth LEVELS                  How many levels below the --at element"),
    ],
)
def test_the_help_says_what_each_option_does(command, said, capsys):
    assert main([command, "--help"]) == 0
    assert said in capsys.readouterr().out


def test_a_path_the_system_refuses_exits_1_in_one_line(tmp_path, capsys):
    """Not a bug of ours: a name longer than the file system allows, in one line."""
    assert main(["build", QUEENS, "--out", str(tmp_path / ("a" * 300)), "-q"]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "name too long" in lines[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    "argv",
    [
        ["build", QUEENS, "--out", "/proc/x", "-q"],
        ["fmt", QUEENS, "--to", "dsl", "-o", "/proc/x"],
        ["gallery", "FOLDER", "--out", "/proc/x.html"],
    ],
    ids=["build --out", "fmt -o", "gallery --out"],
)
def test_an_output_path_the_system_cannot_make_exits_1_in_one_line(argv, tmp_path, capsys):
    """/proc refuses new entries with ENOENT, which the three commands took for a bug of
    ours (exit 3)."""
    assert main(["build", QUEENS, "--out", str(tmp_path / "q"), "-q"]) == 0
    capsys.readouterr()
    argv = [str(tmp_path / "q") if a == "FOLDER" else a for a in argv]
    assert main(argv) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    flag = argv[argv.index("/proc/x") - 1] if "/proc/x" in argv else "--out"
    assert len(lines) == 1 and lines[0].startswith(f"error: {flag} /proc/x")
    assert "No such file or directory" in lines[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["build", QUEENS, "--out", "LOOP", "-q"],
        ["build", QUEENS, "--out", "LOOP/sub", "-q"],
        ["fmt", QUEENS, "--to", "dsl", "-o", "LOOP/q.epcg"],
        ["gallery", "FOLDER", "--out", "LOOP/i.html"],
        ["merge", "FOLDER", "--out", "LOOP"],
        ["count", str(SPECS / "fling-5x5.yaml"), "--constrained", "--layers-dir", "LOOP"],
    ],
    ids=["build --out", "build --out below", "fmt -o", "gallery --out", "merge", "--layers-dir"],
)
def test_an_output_path_through_a_symlink_loop_is_a_usage_error(argv, tmp_path, capsys):
    """Each was exit 3 (pathlib's RuntimeError, on resolving the loop), or merge's exit 1."""
    assert main(["build", QUEENS, "--out", str(tmp_path / "q"), "-q"]) == 0
    capsys.readouterr()
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    argv = [a.replace("LOOP", str(loop)).replace("FOLDER", str(tmp_path / "q")) for a in argv]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.endswith(f": {loop} is a link that leads to itself")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop", "q"]


def test_a_folder_name_that_is_not_utf8_is_printed_as_its_bytes(tmp_path):
    """Under a strict UTF-8 stdout (an en_US.UTF-8 terminal), printing the folder a build
    wrote was exit 3."""
    folder = os.fsdecode(bytes(tmp_path) + b"/b\xfe")
    env = checkout_env(PYTHONIOENCODING="utf-8")
    argv = [sys.executable, "-m", "epcg_spec", "build", str(SPECS / "tracery-weather.epcg")]
    done = subprocess.run([*argv, "--out", folder, "-q"], env=env, capture_output=True)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.endswith(bytes(tmp_path) + b"/b\xfe/index.html\n")


def test_an_internal_error_exits_3_and_keeps_the_traceback_in_a_log(monkeypatch, tmp_path, capsys):
    from epcg_spec.domains.space import problem

    def broken(self, ctx):
        raise RuntimeError("boom")

    monkeypatch.setenv("EPCG_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(problem.SpaceProblem, "run", broken)
    assert main(["build", QUEENS, "--out", str(tmp_path / "out")]) == 3
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: boom" in err and "Traceback" not in err
    (log,) = (tmp_path / "logs").glob("crash-*.log")
    assert "RuntimeError: boom" in log.read_text()
    assert not (tmp_path / "out").exists()


def test_kinds_lists_the_registered_kinds(capsys):
    assert main(["kinds"]) == 0
    assert "space" in capsys.readouterr().out


@pytest.mark.parametrize(
    "spec", ["tracery-weather.epcg", "nested-universe.yaml", "ppg-levers.epcg"]
)
def test_explain_shows_the_estimates_a_build_is_checked_against(spec, capsys):
    loaded = load_spec(SPECS / spec)
    seed = loaded.document.data.get("seed", 0)
    estimate = loaded.domain.compile(loaded.spec).estimate(RunContext(seed=seed))
    assert main(["explain", str(SPECS / spec), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows["estimated memory"] == f"at least {size_text(estimate.memory)}"
    assert rows["estimated disk"] == f"at least {size_text(estimate.disk)}"


def test_a_json_spec_is_told_which_json_is_read(tmp_path, capsys):
    spec = tmp_path / "queens.json"
    spec.write_text('{"kind": "space", "space": {"type": "permutation", "n": 4}}')
    assert main(["explain", str(spec)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"usage error: {spec}: not a spec file: a .json file is read as tracery-json only, "
        "and this is not one; write a spec (with 'kind') as .yaml or .epcg"
    ]


def test_a_build_summary_of_a_line_per_puzzle_is_cut_short(tmp_path, capsys):
    spec = tmp_path / "many.yaml"
    spec.write_text(
        (SPECS / "sudoku-minimal.yaml").read_text().replace("puzzles: 5", "puzzles: 40")
    )
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("puzzle 0: ") and lines[23].startswith("puzzle 23: ")
    assert lines[24] == f"... 16 lines more: see {tmp_path / 'out'}/result.json"
    assert lines[25] == f"  wrote 162 files to {tmp_path / 'out'}"
    assert len(json.loads((tmp_path / "out" / "result.json").read_text())["puzzles"]) == 40


@pytest.mark.parametrize("command", ["build", "count"])
def test_quiet_turns_the_progress_off(command, tmp_path, monkeypatch, capsys):
    """`count --constrained` runs as long as a build, and had no --quiet."""
    import epcg_spec.cli.main as cli

    made = []
    monkeypatch.setattr(cli, "StderrProgress", lambda quiet=False: made.append(quiet))
    extra = ["--out", str(tmp_path / "o")] if command == "build" else ["--constrained"]
    for flags in ([], ["-q"]):
        assert main([command, QUEENS, "--param", "n=6", *extra, *flags]) == 0
    assert made == [False, True]
