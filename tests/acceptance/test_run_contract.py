"""The run contract: every run flag of every kind is honoured or refused (exit 2, one line).

The table below is written by hand from the documented contract (docs and `kinds KIND`),
not derived from the code it checks.
"""

from __future__ import annotations

import json

import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.compile import registry
from epcg_spec.core.errors import EpcgError
from epcg_spec.search import driver
from tests.domains.space.helpers import SPECS

FLAG_ARGS = {
    "--seed": ["--seed", "3"],
    "--shard": ["--shard", "0/2"],
    "--resume": ["--resume"],
    "--fresh": ["--fresh"],
    "--time-limit": ["--time-limit", "30"],
    "--threads": ["--threads", "1"],
    "--no-prune": ["--no-prune"],
    "--limit": ["--limit", "3"],
    "--constrained": ["--constrained"],
    "--rank": ["--rank", "0"],
    "-n": ["-n", "2"],
    "--distinct": ["--distinct"],
    "--force": ["--force"],
    "--allow-python": ["--allow-python"],
    "--scheduler": ["--scheduler", "local:1"],
    "--device": ["--device", "gpu"],
}
COMMAND_FLAGS = {
    "build": [
        "--seed",
        "--shard",
        "--resume",
        "--fresh",
        "--time-limit",
        "--threads",
        "--no-prune",
        "--force",
        "--allow-python",
        "--scheduler",
        "--device",
    ],
    "count": [
        "--constrained",
        "--limit",
        "--time-limit",
        "--threads",
        "--no-prune",
        "--allow-python",
        "--scheduler",
        "--device",
    ],
    "sample": ["--rank", "-n", "--distinct", "--seed", "--scheduler"],
}
ITEMS = {"--shard", "--resume", "--fresh", "--time-limit", "--scheduler"}
SEED = {"--seed"}  # the builds that draw at random: not space, witness, one given board,
# nor an enumeration of one fixed universe
SEARCH_COUNT = {"--limit", "--time-limit"}
HONOURED = {
    "n-queens.yaml": {
        "build": ITEMS | {"--threads", "--no-prune", "--force", "--allow-python", "--device"},
        "count": {"--constrained", "--time-limit", "--threads", "--no-prune", "--allow-python"}
        | {"--scheduler", "--device"},
        "sample": {"--rank", "-n", "--distinct", "--seed"},
    },
    "witness-must-cross.yaml": {
        "build": {"--shard", "--resume", "--fresh", "--time-limit", "--threads", "--scheduler"}
        | {"--force"},
        "count": {"--constrained", "--time-limit", "--threads", "--scheduler"},
        "sample": {"--rank", "-n", "--distinct", "--seed"},
    },
    "witness-panel.yaml": {"build": set(), "count": {"--constrained"}, "sample": None},
    "fling.yaml": {
        "build": SEED | {"--threads", "--force", "--scheduler", "--device"},
        "count": {"--constrained", "--threads", "--scheduler", "--device"},
        "sample": {"--rank", "-n", "--distinct", "--seed"},
    },
    "fling-puzzle.epcg": {"build": set(), "count": None, "sample": None},
    "wfc-pipes.yaml": {"build": ITEMS | SEED | {"--force"}, "count": SEARCH_COUNT, "sample": None},
    "sudoku-4x4.epcg": {"build": ITEMS | SEED | {"--force"}, "count": SEARCH_COUNT, "sample": None},
    "sudoku-escargot.yaml": {"build": set(), "count": SEARCH_COUNT, "sample": None},
    "ppg-escape-room.yaml": {
        "build": ITEMS | SEED | {"--force"},
        "count": SEARCH_COUNT,
        "sample": None,
    },
    "ppg-levers.epcg": {  # mode enumerate, with nothing drawn: no seed
        "build": {"--resume", "--fresh", "--time-limit", "--force"},
        "count": SEARCH_COUNT,
        "sample": None,
    },
    "rooms-caves.yaml": {
        "build": (ITEMS | SEED | {"--force"}) - {"--shard", "--scheduler"},
        "count": SEARCH_COUNT,
        "sample": None,
    },
    "rooms-dungeon.epcg": {"build": SEED | {"--force"}, "count": SEARCH_COUNT, "sample": None},
    "tracery-weather.epcg": {
        "build": ITEMS | SEED | {"--force"},
        "count": set(),
        "sample": {"--rank", "-n", "--distinct", "--seed"},
    },
    "nested-dungeon.epcg": {"build": SEED | {"--force"}, "count": set(), "sample": SEED},
}
CASES = [
    (spec, command, flag, flag in honoured)
    for spec, commands in HONOURED.items()
    for command, honoured in commands.items()
    if honoured is not None
    for flag in COMMAND_FLAGS[command]
]


@pytest.mark.parametrize(("spec", "command", "flag", "honoured"), CASES)
def test_every_flag_is_honoured_or_refused_in_one_line(
    spec, command, flag, honoured, monkeypatch, tmp_path, capsys
):
    argv = [command, str(SPECS / spec), *FLAG_ARGS[flag]]
    if command == "build":
        argv += ["--out", str(tmp_path / "out")]
    if command == "count" and "--constrained" in (HONOURED[spec]["count"] or ()):
        argv.append("--constrained")  # the other flags steer its search (see below)
    monkeypatch.setattr("epcg_spec.api.RunContext", _reached_the_run)
    code = main(argv)
    _, err = capsys.readouterr()
    if honoured:
        assert code == 99, err  # reached the run: the flag was accepted
    else:
        assert code == 2, (code, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1, err  # one wording, whether the kind or the spec's mode refuses
        assert lines[0].startswith(f"usage error: {flag} is refused for `{command}` of this ")


@pytest.mark.parametrize(
    ("spec", "flag"),
    [
        (spec, flag)
        for spec, commands in HONOURED.items()
        if "--constrained" in (commands["count"] or ())
        for flag in sorted(commands["count"] - {"--constrained"})
    ],
)
def test_a_count_flag_without_constrained_is_refused(spec, flag, capsys):
    """Without --constrained, a count is the space's size, worked out at once: --threads,
    --time-limit, --device... were taken and did nothing (--scheduler started a cluster)."""
    assert main(["count", str(SPECS / spec), *FLAG_ARGS[flag]]) == 2
    kind = epcg_spec.load(SPECS / spec).kind
    assert capsys.readouterr().err == (
        f"usage error: {flag} is refused for `count` of this {kind} spec: it applies to "
        "`count --constrained`; without it, the count is the size of the space, worked out at "
        "once with no search\n"
    )


class _Reached(EpcgError):
    exit_code = 99


def _reached_the_run(*args, **kwargs):
    """Stands in for RunContext: the command got past its flag checks, so stop there."""
    raise _Reached("reached the run")


def test_kinds_kind_lists_what_the_kind_honours(capsys):
    assert main(["kinds", "wfc"]) == 0
    out = capsys.readouterr().out
    assert "build   --force --fresh --resume --scheduler --seed --shard --time-limit" in out
    assert "count   --limit --time-limit" in out
    instead = "`epcg-spec build SPEC --seed N` makes its outputs afresh for each seed N"
    assert f"  sample  (not for this kind; {instead})\n" in out
    assert main(["kinds", "space"]) == 0  # --seed was honoured, and not listed
    assert "sample  --distinct --rank --seed -n" in capsys.readouterr().out
    assert main(["kinds", "nope"]) == 2


def test_a_kind_lists_sample_exactly_when_some_spec_of_it_samples():
    samples: dict[str, set[bool]] = {}
    for spec, commands in HONOURED.items():
        kind = epcg_spec.load(SPECS / spec).kind
        samples.setdefault(kind, set()).add(commands["sample"] is not None)
    for kind, sampled in samples.items():
        assert ("sample" in registry.domain(kind).supports) == any(sampled), kind


def test_rank_and_n_together_are_refused(capsys):
    assert main(["sample", str(SPECS / "n-queens.yaml"), "--rank", "1", "-n", "3"]) == 2
    assert "--rank" in capsys.readouterr().err


@pytest.mark.parametrize("spec", [s for s in HONOURED if "n-queens" not in s and "fling" not in s])
def test_a_param_the_spec_does_not_declare_is_exit_2_for_every_kind(spec, capsys):
    assert main(["count", str(SPECS / spec), "--param", "nope=1"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "--param nope: the spec has no such param" in line


@pytest.mark.parametrize(
    ("size", "elapsed", "following"),
    [
        (1, 0.0001, 256),  # a chunk of its own cost mostly: grown fast
        (4, 0.005, 400),  # 0.5 s / 5 ms = 100 times
        (4, 0.01, 64),  # 16 times at most, once a chunk's time tells the units' cost
        (4, 0.2, 8),  # at least doubled
        (4, 0.6, 4),
        (4, 1.2, 2),  # halved past twice the target
        (1 << 13, 0.0001, 1 << 14),  # never past `most`
    ],
)
def test_chunks_grow_towards_the_target_time(size, elapsed, following):
    assert driver.resize_chunk(size, elapsed, seconds=0.5, most=1 << 14) == following


@pytest.mark.parametrize(
    ("spec", "available", "what"),
    [
        (["n-queens.yaml", "--param", "n=4"], 24, "states in the space"),
        (["witness-panel.yaml"], 8512, "candidates"),
        (["fling.yaml", "--param", "pieces=2"], 1540, "boards of 2 pieces"),
        (["tracery-heroes.yaml"], 2160, "distinct outputs"),
    ],
)
def test_more_distinct_samples_than_there_are_is_refused(spec, available, what, capsys):
    """-n N --distinct cannot be honoured beyond what there is: refused, not cut short."""
    argv = ["sample", str(SPECS / spec[0]), *spec[1:], "--json", "--distinct", "-n"]
    assert main([*argv, str(available + 1)]) == 2
    assert capsys.readouterr().err == (
        f"usage error: -n {available + 1:,} --distinct: there are only {available:,} {what}; "
        f"ask for at most {available:,}\n"
    )
    if available < 2000:  # all of them, each once
        assert main([*argv, str(available)]) == 0
        drawn = json.loads(capsys.readouterr().out)
        states = [json.dumps(s["state"]) for s in drawn.get("samples") or drawn["best"]]
        assert len(states) == len(set(states)) == available


def test_samples_with_repeats_may_outnumber_the_boards(capsys):
    argv = ["sample", str(SPECS / "fling.yaml"), "--param", "pieces=2", "-n", "1541", "--json"]
    assert main(argv) == 0
    assert len(json.loads(capsys.readouterr().out)["samples"]) == 1541  # was cut to 1,540


def test_sample_help_says_scheduler_is_refused_while_no_kind_takes_it(capsys):
    takers = [
        k
        for k in registry.kinds()
        if "--scheduler" in registry.domain(k).supports.get("sample", ())
    ]
    assert main(["sample", "--help"]) == 0
    assert ("No kind samples on a cluster yet" in capsys.readouterr().out) == (not takers)
