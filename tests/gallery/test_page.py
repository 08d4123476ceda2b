"""The gallery page as bytes, and `epcg-spec gallery` as a user meets it (no browser)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.core import files
from epcg_spec.output import result as result_module
from epcg_spec.output.gallery import (
    KINDS,
    Source,
    _fields,
    _files_of,
    _number,
    gallery_html,
    write_gallery,
)

from .conftest import BUILDS, SPECS


def _data(page: str) -> dict:
    text = page.split('<script type="application/json" id="data">')[1].split("</script>")[0]
    return json.loads(text)


def test_the_same_build_gives_the_same_bytes_and_needs_no_network(built):
    folder = built["sudoku"]
    first = (folder / "index.html").read_bytes()
    write_gallery(folder, SPECS / BUILDS["sudoku"][0])
    assert (folder / "index.html").read_bytes() == first
    assert b"http:" not in first and b"https:" not in first  # no CDN, no fonts, no links out


def test_items_carry_their_pictures_scores_and_a_command(built):
    folder = built["sudoku"]
    data = _data((folder / "index.html").read_text())
    result = json.loads((folder / "result.json").read_text())
    assert [run["kind"] for run in data["runs"]] == ["sudoku"]
    stats = dict(data["runs"][0]["stats"])
    assert stats["solutions"] == "3" and stats["unique"] == "3 of 3"
    assert [item["pics"] for item in data["items"]] == [
        [f"puzzle-{k}.svg", f"solution-{k}.svg"] for k in range(3)
    ]
    seeds = [p["seed"] for p in result["puzzles"]]
    assert [item["label"] for item in data["items"]] == [f"seed {s}" for s in seeds]
    assert data["items"][1]["scores"]["clues"] == result["puzzles"][1]["clues"]
    spec = SPECS / "sudoku-4x4.epcg"
    assert data["items"][2]["cmd"] == f"epcg-spec build {spec} --seed {seeds[2]}"


@pytest.mark.parametrize(
    ("spec", "seeded"), [("sudoku-escargot.yaml", False), ("rooms-house.yaml", True)]
)
def test_an_item_without_a_rank_is_rebuilt_with_a_seed_only_where_one_is_drawn(
    spec, seeded, tmp_path
):
    """A solved puzzle draws nothing: its build refuses --seed, so its command has none;
    a rooms map is drawn with the build's seed."""
    result = epcg_spec.load(SPECS / spec).build(out=tmp_path / "out")
    (item,) = _data((tmp_path / "out" / "index.html").read_text())["items"]
    seed = f" --seed {result.data['seed']}" if seeded else ""
    assert item["cmd"] == f"epcg-spec build {SPECS / spec}{seed}"
    assert (
        main(
            [
                "build",
                str(SPECS / spec),
                "--out",
                str(tmp_path / "again"),
                "-q",
                *(["--seed", str(result.data["seed"])] if seeded else []),
            ]
        )
        == 0
    )


def test_ranked_items_are_regenerated_by_sample_with_the_params(built, capsys):
    data = _data((built["space"] / "index.html").read_text())
    assert data["runs"][0]["params"] == {"n": 6}
    item = data["items"][0]
    spec = SPECS / "n-queens.yaml"
    assert item["cmd"] == f"epcg-spec sample {spec} --rank {item['label'][5:]} --param n=6"
    capsys.readouterr()  # what building the fixture printed
    assert main([*item["cmd"].split()[1:], "--json"]) == 0
    sampled = json.loads(capsys.readouterr().out)["samples"][0]
    assert sampled["state"] == json.loads(item["json"])["state"]


def test_the_commands_carry_the_params_the_build_recorded(built, tmp_path, capsys):
    """Named with --spec alone, the page took the spec's default n=8 for a build of n=6."""
    folder = tmp_path / "space"
    shutil.copytree(built["space"], folder)
    assert json.loads((folder / "result.json").read_text())["params"] == {"n": 6}
    queens = str(SPECS / "n-queens.yaml")
    assert main(["gallery", str(folder), "--spec", queens]) == 0
    item = _data((folder / "index.html").read_text())["items"][0]
    assert item["cmd"].endswith(" --param n=6")
    assert main(["gallery", str(folder), "--spec", queens, "--param", "n=7"]) == 2
    assert capsys.readouterr().err.endswith(
        f"--param n=7: {folder} was built with n=6; leave --param out, as its result.json "
        "holds the params\n"
    )


def test_a_param_name_from_the_result_is_quoted_in_the_command(built, tmp_path):
    """The command a card shows, to be pasted into a shell, held the names of the params
    as result.json gave them: `--param n;touch pwned=6`."""
    folder = tmp_path / "space"
    shutil.copytree(built["space"], folder)
    result = json.loads((folder / "result.json").read_text())
    (folder / "result.json").write_text(json.dumps({**result, "params": {"n;touch pwned": 6}}))
    assert main(["gallery", str(folder)]) == 0
    item = _data((folder / "index.html").read_text())["items"][0]
    assert item["cmd"].endswith(" --param 'n;touch pwned=6'")


def test_text_kinds_get_text_cards(built):
    items = _data((built["tracery"] / "index.html").read_text())["items"]
    result = json.loads((built["tracery"] / "result.json").read_text())
    assert [item["text"] for item in items] == [b["state"] for b in result["best"]]
    outline = _data((built["nested"] / "index.html").read_text())["items"][0]["text"]
    assert outline.splitlines()[0].startswith("dungeon: the ")


@pytest.mark.parametrize("kind", ["wfc", "sudoku"])
def test_a_detail_named_as_an_entrys_field_hides_nothing(kind, built, tmp_path):
    """A WFC output (a Sudoku puzzle) holding a `state` of its own took the place of its
    `best` entry's: text there was an AttributeError, exit 3."""
    folder = tmp_path / kind
    shutil.copytree(built[kind], folder)
    result = json.loads((folder / "result.json").read_text())
    details = KINDS[kind].details
    edited = {**result, details: [{**d, "state": "x", "rank": -1} for d in result[details]]}
    (folder / "result.json").write_text(json.dumps(edited))
    assert main(["gallery", str(folder)]) == 0
    item = _data((folder / "index.html").read_text())["items"][0]
    card = json.loads(item["json"])
    assert list(card)[:3] == ["rank", "score", "state"]  # the entry's fields, first
    assert card["state"] == result["best"][0]["state"] and card["rank"] is None
    assert item["pics"]


def test_an_item_owns_its_files_and_not_the_next_items():
    present = ["best-1-solution.svg", "best-1.svg", "best-1.yaml", "best-10.svg", "best-1x.svg"]
    assert _files_of("best-1", present) == ["best-1.svg", "best-1.yaml", "best-1-solution.svg"]
    assert _files_of("puzzle-0", ["puzzle-0.walkthrough.txt", "puzzle-01.svg"]) == [
        "puzzle-0.walkthrough.txt"
    ]


def test_a_wfc_card_shows_its_map_not_its_tileset(tmp_path):
    out = tmp_path / "out"
    assert main(["build", str(SPECS / "wfc-hex-pipes.yaml"), "--out", str(out), "-q"]) == 0
    item = _data((out / "index.html").read_text())["items"][0]
    assert item["pics"] == ["wfc-hex-pipes.svg", "wfc-hex-pipes-tiles.png"]


def test_huge_counts_are_written_short():
    assert _number(9**81) == "1.97 × 10⁷⁷"
    assert _number(10**15 - 1) == "999,999,999,999,999"
    assert _number(None) == "n/a"


def test_the_script_text_cannot_end_the_script_element(built, tmp_path):
    folder = tmp_path / "tricky"
    folder.mkdir()
    result = json.loads((built["tracery"] / "result.json").read_text())
    result["best"][0]["state"] = "</script><b>bold</b>"
    (folder / "result.json").write_text(json.dumps(result))
    page = gallery_html([Source(folder)], folder)
    assert page.count("</script>") == 2
    assert _data(page)["items"][0]["text"] == "</script><b>bold</b>"


def test_the_command_writes_the_page_and_refuses_what_it_cannot_do(built, tmp_path, capsys):
    folder = tmp_path / "space"
    shutil.copytree(built["space"], folder)  # the shared build keeps its own page
    assert main(["gallery", str(folder)]) == 0
    assert capsys.readouterr().out == f"gallery: {folder / 'index.html'}\n"
    assert main(["gallery", str(folder), str(built["tracery"])]) == 2
    assert "--out" in capsys.readouterr().err
    merged = tmp_path / "both.html"
    assert main(["gallery", str(folder), str(built["tracery"]), "--out", str(merged)]) == 0
    assert len(_data(merged.read_text())["runs"]) == 2
    assert main(["gallery", str(tmp_path / "nothing")]) == 1
    assert "no result.json" in capsys.readouterr().err
    assert main(["gallery", str(folder), "--print"]) == 2
    assert "booklet is made for kind sudoku" in capsys.readouterr().err
    queens, tracery = str(SPECS / "n-queens.yaml"), str(SPECS / "tracery-weather.epcg")
    assert main(["gallery", str(folder), "--spec", queens, "--param", "m=3"]) == 2
    assert "--param m: the spec has no such param" in capsys.readouterr().err
    assert main(["gallery", str(folder), "--spec", tracery]) == 2
    assert "builds 'tracery-weather', but" in capsys.readouterr().err


@pytest.mark.parametrize("kind", sorted(BUILDS))
def test_every_item_of_every_kind_has_a_picture_or_a_text(kind, built):
    items = _data((built[kind] / "index.html").read_text())["items"]
    assert items
    for item in items:
        assert item["pics"] or item["text"]
        for pic in item["pics"]:
            assert (built[kind] / pic).is_file()
    if kind not in ("tracery", "nested"):
        assert all(item["pics"] for item in items)


def test_filters_are_offered_for_shared_values_not_for_one_value_per_item():
    items = [
        {"scores": {"clues": c}, "tags": {"grade": g, "image": f"{k}.png", "unique": "yes"}}
        for k, (c, g) in enumerate([(24, "hidden"), (25, "search"), (23, "hidden")])
    ]
    fields = _fields(items)
    assert fields == {"scores": ["clues"], "tags": {"grade": ["hidden", "search"]}}
    assert [item["tags"] for item in items] == [
        {"grade": g} for g in ("hidden", "search", "hidden")
    ]


def _state(change):
    return lambda result: {
        **result,
        "best": [{**b, "state": change(b["state"])} for b in result["best"]],
    }


EDITS = {  # kind -> edits of its result.json that the page could not read
    "space": {"no spec": lambda r: {k: v for k, v in r.items() if k != "spec"}},
    "tracery": {
        "seconds as text": lambda r: {**r, "seconds": "x"},
        # a \udcff escape: half a surrogate pair, which the page's UTF-8 cannot hold (exit 3)
        "a lone surrogate": _state(lambda s: "a\udcffb"),
    },
    "rooms": {"best as a number": lambda r: {**r, "best": 1.5}},
    "sudoku": {"a puzzle record of null": lambda r: {**r, "puzzles": [None] * len(r["puzzles"])}},
    "wfc": {"an image of 1.5": _state(lambda s: {**s, "image": 1.5})},
    "ppg": {"edges of null": _state(lambda s: {**s, "edges": None})},
    "nested": {"children of null": _state(lambda s: {**s, "children": None})},
}


@pytest.mark.parametrize(
    ("kind", "edit"), [(kind, edit) for kind, edits in EDITS.items() for edit in edits]
)
def test_an_edited_result_of_each_kind_is_named_in_one_line(kind, edit, built, tmp_path, capsys):
    """A result.json edited by hand (or by another program) was an internal error (exit 3)
    wherever the page read a field of another type than a build writes."""
    folder = tmp_path / kind
    shutil.copytree(built[kind], folder)
    result = folder / "result.json"
    result.write_text(json.dumps(EDITS[kind][edit](json.loads(result.read_text()))))
    assert main(["gallery", str(folder)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {result}: not a result.json written by epcg-spec (")
    assert len(err.splitlines()) == 1


def test_a_ppg_order_naming_a_node_past_the_list_is_shown_as_its_data(built, tmp_path):
    folder = tmp_path / "ppg"
    shutil.copytree(built["ppg"], folder)
    for picture in folder.glob("*.svg"):  # an order without a picture is shown as text
        picture.unlink()
    result = json.loads((folder / "result.json").read_text())
    result["nodes"] = ["lever: up", "door: open"]
    result["best"][0]["state"] = {"edges": [[0, 1]]}
    result["best"][1]["state"] = {"edges": [[0, 2]]}  # no node 2: an edited result.json
    (folder / "result.json").write_text(json.dumps(result))
    assert main(["gallery", str(folder)]) == 0
    items = _data((folder / "index.html").read_text())["items"]
    assert items[0]["text"] == "lever: up → door: open"
    assert json.loads(items[1]["text"]) == {"edges": [[0, 2]]}


def test_names_that_are_not_utf8_are_written_as_a_url_writes_them(tmp_path, capsys):
    """A spec or folder whose name is not UTF-8 stopped the page's writing (exit 3); the
    build then left its checkpoint behind, as if it had been cut short."""
    spec = tmp_path / os.fsdecode(b"w\xff.epcg")
    shutil.copy(SPECS / "tracery-weather.epcg", spec)
    folder = tmp_path / os.fsdecode(b"b\xfe")
    for shard in (0, 1):
        argv = ["build", str(spec), "--out", str(folder / str(shard)), "--shard", f"{shard}/2"]
        assert main([*argv, "--json"]) == 0  # the summary would print the folder's name
    assert sorted(os.listdir(folder / "0")) == [
        ".epcg-lock",
        ".epcg-outputs.json",
        "index.html",
        "outputs.txt",
        "result.json",
    ]
    run = _data((folder / "0" / "index.html").read_text())["runs"][0]
    assert run["file"] == f"{tmp_path}/w%FF.epcg"
    page = tmp_path / "both.html"
    assert main(["gallery", str(folder / "0"), str(folder / "1"), "--out", str(page)]) == 0
    items = _data(page.read_text())["items"]
    assert {item["tags"]["folder"] for item in items} == {"b%FE/0", "b%FE/1"}
    assert items[0]["pics"] == [] and items[0]["cmd"].startswith("epcg-spec sample SPEC --rank")


def test_a_page_over_a_file_of_the_build_is_refused(built, tmp_path, capsys):
    """--out FOLDER/result.json wrote the page over the build's result.json."""
    folder = tmp_path / "space"
    shutil.copytree(built["space"], folder)
    before = (folder / "result.json").read_bytes()
    for name in ("result.json", "best-0.svg"):
        assert main(["gallery", str(folder), "--out", str(folder / name)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"usage error: --out {folder / name}: a file of the build in ")
    assert (folder / "result.json").read_bytes() == before
    assert main(["gallery", str(folder), "--out", str(folder / "all.html")]) == 0


def test_a_folder_where_the_page_goes_is_named_not_the_temporary_file(built, tmp_path, capsys):
    """The line named the hidden file the page was written to before its rename."""
    folder = tmp_path / "space"
    shutil.copytree(built["space"], folder)
    (folder / "index.html").unlink()
    (folder / "index.html").mkdir()
    assert main(["gallery", str(folder)]) == 1
    assert capsys.readouterr().err == f"error: {folder / 'index.html'}: Is a directory\n"
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_a_result_that_is_a_pipe_is_refused_not_read(built, tmp_path, capsys):
    folder = tmp_path / "tracery"
    shutil.copytree(built["tracery"], folder)
    (folder / "result.json").unlink()
    os.mkfifo(folder / "result.json")
    assert main(["gallery", str(folder)]) == 1
    assert "is not a regular file" in capsys.readouterr().err


def test_the_build_reads_its_own_result_unchecked_and_past_the_input_bound(tmp_path, monkeypatch):
    """The page a build writes reads the result.json it has just written, without checking
    it again (seconds for a large build) and bounded by MAX_RESULT_BYTES, not by the bound
    of a spec's inputs: a build of some 74,000 minimal Sudoku puzzles failed at its page."""
    spec = epcg_spec.load(SPECS / "sudoku-4x4.epcg")
    checks = []
    validate = result_module.validate_data
    monkeypatch.setattr(files.read_bounded, "__defaults__", (512,))  # inputs: 512 bytes
    monkeypatch.setattr(
        result_module, "validate_data", lambda *a: checks.append(a[1]) or validate(*a)
    )
    built = spec.build(out=tmp_path / "out")
    assert (tmp_path / "out" / "result.json").stat().st_size > 512
    assert checks == [result_module.RESULT_SCHEMA]  # the result's own check, when written
    items = _data((tmp_path / "out" / "index.html").read_text())["items"]
    assert len(items) == len(built.data["best"]) > 0


def test_a_result_past_its_bound_is_refused_in_one_line(built, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "sudoku"
    shutil.copytree(built["sudoku"], folder)
    monkeypatch.setattr(result_module, "MAX_RESULT_BYTES", 512)
    assert main(["gallery", str(folder)]) == 1
    err = capsys.readouterr().err.strip()
    assert "result.json is larger than" in err and len(err.splitlines()) == 1


def test_open_without_a_browser_is_refused_before_the_page_is_written(
    built, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("BROWSER", "")
    monkeypatch.setattr("webbrowser._browsers", {})
    monkeypatch.setattr("webbrowser._tryorder", [])
    monkeypatch.setattr("webbrowser.register_standard_browsers", lambda: None)
    folder = tmp_path / "copy"
    shutil.copytree(built["sudoku"], folder)
    (folder / "index.html").unlink()
    assert main(["gallery", str(folder), "--open"]) == 2
    assert "--open: no web browser found here" in capsys.readouterr().err
    assert not (folder / "index.html").exists()
