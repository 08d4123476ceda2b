"""The Python API alone does what the command line does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numba
import numpy as np
import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.core import files
from epcg_spec.core.result import without_timings
from tests.recording import RecordedProgress

ROOT = Path(__file__).resolve().parents[2]
QUEENS = ROOT / "specs" / "n-queens.yaml"


def test_build_count_sample_explain_on_a_space():
    spec = epcg_spec.load(QUEENS, params={"n": 6})
    assert spec.kind == "space" and spec.name == "n-queens"
    built = spec.build()
    assert built.count == 4 and built.complete and built.written == []
    assert built.compile_seconds is not None and built.seconds is not None
    assert spec.count().data["space_size"] == 720
    assert spec.count(constrained=True).count == 4
    first = spec.sample(ranks=[built.items[0]["rank"]]).items[0]
    assert first["state"] == built.items[0]["state"]
    assert len(spec.sample(3, seed=1).items) == 3
    assert "n-queens" in dict(spec.explain())["spec"] and spec.space_size() == 720


def test_params_as_on_the_command_line_and_as_a_dict_agree():
    by_dict = epcg_spec.load(QUEENS, params={"n": 7}).count(constrained=True).count
    by_text = epcg_spec.load(QUEENS, params=["n=7"]).count(constrained=True).count
    by_numpy = epcg_spec.load(QUEENS, params={"n": np.int64(7)}).count(constrained=True).count
    assert by_dict == by_text == by_numpy == 40


def test_build_with_out_writes_what_the_cli_writes(tmp_path):
    from epcg_spec.cli.main import main

    result = epcg_spec.load(QUEENS).build(out=tmp_path / "api")
    assert main(["build", str(QUEENS), "--out", str(tmp_path / "cli"), "-q"]) == 0
    cli = json.loads((tmp_path / "cli" / "result.json").read_text())
    api = json.loads((tmp_path / "api" / "result.json").read_text())
    assert without_timings(api) == without_timings(cli) == without_timings(result.data)
    assert json.loads(result.to_json()) == result.data


def test_loads_reads_dsl_and_tracery_json_text():
    dsl = (ROOT / "specs" / "sudoku-4x4.epcg").read_text()
    assert epcg_spec.loads(dsl, format="dsl").count().count == 288
    grammar = json.dumps({"origin": ["#a# #a#"], "a": ["x", "y", "z"]})
    assert epcg_spec.loads(grammar, format="json").count().count == 9


def test_a_bad_spec_raises_spec_error_with_its_position():
    with pytest.raises(epcg_spec.SpecError) as caught:
        epcg_spec.loads("kind: space\nspace: {type: permutation, n: 4}\nnope: 1\n")
    (diagnostic,) = caught.value.diagnostics
    assert (diagnostic.pos.line, diagnostic.pos.col) == (3, 1)
    assert "nope" in diagnostic.message


def test_unsupported_arguments_are_refused_as_on_the_command_line():
    spec = epcg_spec.load(ROOT / "specs" / "wfc-pipes.yaml")
    refused = "--threads is refused for `build` of this wfc spec"
    with pytest.raises(epcg_spec.UsageError, match=refused) as caught:
        spec.build(threads=2)
    assert str(caught.value).endswith("use N cores with --scheduler local:N (one process each)")
    with pytest.raises(epcg_spec.UsageError, match=r"one thread$"):
        spec.count(threads=2)  # nor does a count of it take --scheduler
    other_kind = "--origin is refused for this space spec: it is an option of kind tracery"
    with pytest.raises(epcg_spec.UsageError, match=f"^{other_kind}$"):
        epcg_spec.load(QUEENS, options={"origin": "#x#"})
    nested = epcg_spec.load(ROOT / "specs" / "nested-dungeon.epcg", options={"at": "dungeon"})
    other_command = (
        "--at is refused for `count` of this nested spec: it applies to `build`, `sample`"
    )
    with pytest.raises(epcg_spec.UsageError, match=f"^{other_command}$"):
        nested.count()
    with pytest.raises(epcg_spec.UsageError, match="give one or other"):
        epcg_spec.load(QUEENS).sample(2, ranks=[1])
    for switch in ("resume", "fresh"):  # were taken, and did nothing, without `out`
        with pytest.raises(epcg_spec.UsageError, match=f"--{switch} needs `out`"):
            spec.build(**{switch: True})


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.build(seed=-1), "--seed -1: give an integer >= 0"),
        (lambda s: s.build(seed="7"), "--seed '7': give an integer >= 0"),
        (lambda s: s.build(threads=0), "--threads 0: give an integer >= 1"),
        (lambda s: s.build(time_limit=-5), "--time-limit -5: give a number > 0"),
        (lambda s: s.count(limit=0), "--limit 0: give an integer >= 1"),
        (lambda s: s.sample(0), "-n 0: give an integer >= 1"),
        (lambda s: s.sample(2, seed=True), "--seed True: give an integer >= 0"),
        # beyond 64 bits: a seed was wrapped (2**63 drew what 0 draws), a limit exit 3
        (
            lambda s: s.sample(2, seed=2**63),
            f"--seed {2**63}: give an integer >= 0 and <= {2**63 - 1}",
        ),
        (
            lambda s: s.count(limit=2**63),
            f"--limit {2**63}: give an integer >= 1 and <= {2**63 - 1}",
        ),
    ],
)
def test_arguments_are_checked_as_the_command_line_checks_its_flags(call, message):
    with pytest.raises(epcg_spec.UsageError, match=re.escape(message)):
        call(epcg_spec.load(QUEENS))


@pytest.mark.parametrize(
    ("call", "message"),
    [  # each was a TypeError or AttributeError from deep inside, or taken as True (an empty
        # list of ranks drew content at random)
        (lambda: epcg_spec.load(None), "path None: give the path of a spec file"),
        (lambda: epcg_spec.load(QUEENS, params="n=6"), "params 'n=6': give a dict"),
        (lambda: epcg_spec.load(QUEENS, params={1: 2}), "params {1: 2}: give a dict"),
        (lambda: epcg_spec.load(QUEENS, params={"n": "8"}), "params n='8': a param's value"),
        (lambda: epcg_spec.load(QUEENS, params={"n": 8.0}), "params n=8.0: a param's value"),
        (lambda: epcg_spec.load(QUEENS, options="x"), "options 'x': give a dict"),
        (lambda: epcg_spec.loads(None), "text None: give the spec's text"),
        (lambda: epcg_spec.loads("kind: space", format=["yaml"]), "format ['yaml']: give one"),
        (lambda: epcg_spec.load(QUEENS).sample(ranks="3"), "--rank '3': give a list of"),
        (lambda: epcg_spec.load(QUEENS).sample(ranks=[1.5]), "--rank [1.5]: give a list of"),
        (lambda: epcg_spec.load(QUEENS).sample(ranks=[]), "--rank []: give a list of"),
        (lambda: epcg_spec.load(QUEENS).sample(3, ranks=()), "--rank (): give a list of"),
        (lambda: epcg_spec.load(QUEENS).sample(distinct="no"), "--distinct 'no': give True"),
        (lambda: epcg_spec.load(QUEENS).build(allow_python="false"), "--allow-python 'false'"),
        (lambda: epcg_spec.load(QUEENS).count(constrained=True, scheduler=4), "--scheduler 4:"),
        (lambda: epcg_spec.load(QUEENS).build(out=7), "out 7: give the path of a folder"),
        (lambda: epcg_spec.load(QUEENS).build(progress="x"), "progress 'x': give an epcg"),
    ],
)
def test_arguments_of_the_wrong_type_are_usage_errors(call, message):
    with pytest.raises(epcg_spec.UsageError, match=re.escape(message)):
        call()


def test_options_and_shards_are_checked_and_converted_as_on_the_command_line():
    nested = ROOT / "specs" / "nested-dungeon.epcg"
    with pytest.raises(epcg_spec.UsageError, match=re.escape("--depth 99: 99 is not in")):
        epcg_spec.load(nested, options={"depth": 99})
    assert epcg_spec.load(nested, options={"depth": "2"}).options == {"depth": 2}
    for shard in ("x", (0.5, 2), (3, 2), (0, 1, 2)):
        with pytest.raises(epcg_spec.UsageError, match="give \\(I, N\\) or 'I/N'"):
            epcg_spec.load(QUEENS).build(shard=shard)
    halves = [epcg_spec.load(QUEENS).build(shard=s).count for s in ("0/2", (1, 2))]
    assert sum(halves) == 92


def test_numpy_numbers_are_numbers(tmp_path):
    spec = epcg_spec.load(QUEENS, params={"n": 6})
    assert spec.sample(np.int64(2), seed=np.int64(3)).data["samples"]
    assert spec.build(threads=np.int64(1), time_limit=np.float64(60.0)).count == 4


def test_the_api_page_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    page = (ROOT / "docs" / "api.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block.replace("out/", f"{tmp_path}/"), "docs/api.md", "exec"), {})


def test_writing_the_files_is_shown_as_progress(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "ADVANCE_EVERY", 4)
    progress = RecordedProgress()
    spec = epcg_spec.load(ROOT / "specs" / "sudoku-4x4.epcg")
    result = spec.build(tmp_path / "out", progress=progress)
    written = len(result.written) - 1  # the gallery page is written after the set
    writing = progress.calls[progress.calls.index(("finish",)) + 1 :]
    assert writing[0] == ("start", f"writing {written:,} files to {tmp_path / 'out'}", written)
    advances = [call[1] for call in writing if call[0] == "advance"]
    assert advances == [4] * (written // 4) + ([written % 4] if written % 4 else [])
    assert writing[-1] == ("finish",)


def test_a_build_without_threads_uses_every_thread_after_one_with_threads():
    # numba's thread count is the process's: a build that asks for none kept the count an
    # earlier build in the process had asked for
    spec = epcg_spec.load(QUEENS, params={"n": 6})
    spec.build(threads=1)
    assert numba.get_num_threads() == 1
    spec.build()
    assert numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS


def test_threads_beyond_numbas_are_refused_and_result_json_says_those_used(
    tmp_path, monkeypatch, capsys
):
    """--threads 64 on 16 cores ran on 16, quietly; result.json named no thread count."""
    most = numba.config.NUMBA_NUM_THREADS
    spec = epcg_spec.load(QUEENS, params={"n": 6})
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    with pytest.raises(epcg_spec.UsageError) as caught:
        spec.build(tmp_path / "o", threads=most + 1)
    assert str(caught.value) == (
        f"--threads {most + 1}: numba runs at most {most} threads here, one a core; give "
        f"{most} or fewer (or set NUMBA_NUM_THREADS to run more threads than cores)"
    )
    assert not (tmp_path / "o").exists()
    monkeypatch.setenv("NUMBA_NUM_THREADS", str(most))
    argv = ["count", str(QUEENS), "--constrained", "--threads", str(most + 1)]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        f"usage error: --threads {most + 1}: numba runs at most {most} threads here "
        f"(NUMBA_NUM_THREADS); give {most} or fewer\n"
    )
    assert spec.build(tmp_path / "o", threads=1).data["threads"] == 1
    assert json.loads((tmp_path / "o" / "result.json").read_text())["threads"] == 1
    assert spec.build().data["threads"] == spec.count(constrained=True).data["threads"] == most
    assert "threads" not in spec.count().data  # the size alone: no kernel ran
    assert "threads" not in epcg_spec.load(ROOT / "specs" / "tracery-tavern.json").build().data


@pytest.mark.parametrize(
    ("spec", "options", "message"),
    [  # each was converted as click converts a Python value: 2.5 steps were 2, True 1,
        # a list of rules the text "['#greeting#']" and an integer a layers folder named "5"
        ("rooms-caves.yaml", {"steps": 2.5}, "--steps 2.5: give an integer"),
        ("rooms-caves.yaml", {"steps": True}, "--steps True: give an integer"),
        ("nested-dungeon.epcg", {"depth": 1.9}, "--depth 1.9: give an integer"),
        ("tracery-tavern.json", {"origin": ["#greeting#"]}, "--origin ['#greeting#']: give text"),
        ("fling-5x5.yaml", {"layers_dir": 5}, "--layers-dir 5: give text"),
    ],
)
def test_options_of_the_wrong_type_are_refused_not_converted(spec, options, message):
    with pytest.raises(epcg_spec.UsageError, match=re.escape(message)):
        epcg_spec.load(ROOT / "specs" / spec, options=options)


def test_options_take_their_own_types_as_well_as_text(tmp_path):
    rooms = epcg_spec.load(ROOT / "specs" / "rooms-caves.yaml", options={"steps": np.int64(3)})
    fling = epcg_spec.load(ROOT / "specs" / "fling-5x5.yaml", options={"layers_dir": tmp_path})
    assert rooms.options == {"steps": 3} and fling.options == {"layers_dir": str(tmp_path)}


@pytest.mark.parametrize(
    ("call", "message"),
    [  # each was Python's TypeError: not an EpcgError, and silent on where the value goes
        (
            lambda: epcg_spec.load(ROOT / "specs" / "rooms-caves.yaml").build(steps=25),
            "build() got an unexpected keyword argument 'steps': --steps is an option of kind "
            "rooms: give it to epcg_spec.load(..., options={'steps': ...})",
        ),
        (
            lambda: epcg_spec.load(QUEENS).count(params={"n": 6}),
            "count() got an unexpected keyword argument 'params': give params to "
            "epcg_spec.load(..., params=...)",
        ),
        (
            lambda: epcg_spec.load(QUEENS).count(seed=1),
            "count() got an unexpected keyword argument 'seed'",
        ),
        (lambda: epcg_spec.load(QUEENS).build("out", 3), "build() too many positional arguments"),
        (lambda: epcg_spec.load(QUEENS).explain(True), "explain() too many positional arguments"),
    ],
)
def test_an_argument_a_method_does_not_take_is_a_usage_error(call, message):
    with pytest.raises(epcg_spec.UsageError) as caught:
        call()
    assert str(caught.value) == message
