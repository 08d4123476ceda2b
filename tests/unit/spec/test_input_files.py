"""The loader names every file a spec reads beside itself, with the sha256 of its bytes,
whatever the kind: sample images, Tiled maps and their tilesets, MagicaVoxel models,
samples.xml's images, a nested spec named by a rooms spec, a Tracery grammar file."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

import epcg_spec
from epcg_spec.core import inputs
from epcg_spec.core.files import read_bounded
from epcg_spec.spec.load import discover

ROOT = Path(__file__).resolve().parents[3]
SPECS = ROOT / "specs"
TILED = ROOT / "tests/domains/wfc/data/tool-made/tiled"
PIPES = [f"pipes/{name}" for name in ("corner.png", "cross.png", "data.xml", "empty.png")]
PIPES += ["pipes/line.png", "pipes/t.png"]
TERRAIN = ["wfc-worlds/terrain-example.tmx", "wfc-worlds/terrain-tiles.png"]


def _digests(folder: Path, names: list[str]) -> dict[str, str]:
    """{name: "sha256:..."} of the files `names` under `folder`, computed here."""
    return {n: "sha256:" + hashlib.sha256((folder / n).read_bytes()).hexdigest() for n in names}


@pytest.mark.parametrize(
    ("spec", "names"),
    [
        ("wfc-maze.yaml", ["wfc-samples/samples/maze.png"]),
        ("wfc-voxel-patterns.yaml", ["wfc-worlds/terrain-sample.vox"]),
        ("wfc-hex-lakes.yaml", ["wfc-worlds/hex-lakes.csv"]),
        ("wfc-pipes.yaml", [f"wfc-samples/samples/{name}" for name in PIPES]),
        ("wfc-tiled-example.yaml", TERRAIN),
        (
            "wfc-samples/samples.xml",
            [f"samples/{n}" for n in ("bricks.png", "checker.png", "ground.png", "maze.png")]
            + [f"samples/{name}" for name in PIPES],
        ),
        ("rooms-dungeon.epcg", ["nested-dungeon.epcg"]),
        ("n-queens.yaml", []),
        ("tracery-tavern.json", []),
    ],
)
def test_the_loader_names_each_file_a_spec_reads(spec, names):
    folder = (SPECS / spec).parent
    assert epcg_spec.load(SPECS / spec).source.inputs == _digests(folder, sorted(names))


def test_a_tiled_map_its_tileset_file_and_the_tileset_image(write_spec_in, tmp_path):
    for name in ("square-csv.tmx", "terrain.tsx", "terrain.png"):
        shutil.copy(TILED / name, tmp_path / "maps" / name)
    spec = write_spec_in(
        tmp_path / "specs", "kind: wfc\nmodel: tiled\nexample: ../maps/square-csv.tmx\nsize: 8\n"
    )
    names = ["../maps/square-csv.tmx", "../maps/terrain.png", "../maps/terrain.tsx"]
    assert epcg_spec.load(spec).source.inputs == _digests(spec.parent, names)


def test_a_tileset_image_done_without_is_noted_absent(write_spec_in, tmp_path):
    """A missing tileset image is drawn in stand-in colours: it left no trace, so adding it
    before a resume mixed two looks of the tiles in one result."""
    for name in ("square-csv.tmx", "terrain.tsx"):
        shutil.copy(TILED / name, tmp_path / "maps" / name)
    spec = write_spec_in(
        tmp_path / "specs", "kind: wfc\nmodel: tiled\nexample: ../maps/square-csv.tmx\nsize: 8\n"
    )
    before = epcg_spec.load(spec).source.inputs
    assert before["../maps/terrain.png"] == inputs.ABSENT
    shutil.copy(TILED / "terrain.png", tmp_path / "maps" / "terrain.png")
    after = epcg_spec.load(spec).source.inputs
    assert after == _digests(spec.parent, sorted(before))
    assert inputs.changed_file(before, after) == "../maps/terrain.png"


def test_a_tracery_grammar_file_and_a_change_to_it(write_spec_in, tmp_path):
    grammar = tmp_path / "specs/grammars/g.json"
    grammar.parent.mkdir(parents=True)
    grammar.write_text('{"origin": ["a", "b"]}', "utf-8")
    spec = write_spec_in(tmp_path / "specs", "kind: tracery\ngrammar_file: grammars/g.json\n")
    before = epcg_spec.load(spec).source.inputs
    assert before == _digests(spec.parent, ["grammars/g.json"])
    grammar.write_text('{"origin": ["a", "c"]}', "utf-8")
    after = epcg_spec.load(spec).source.inputs
    assert after != before and inputs.changed_file(before, after) == "grammars/g.json"


def test_the_same_names_whether_the_spec_is_named_through_a_link_or_not(tmp_path):
    """WFC reads its files at their resolved paths, rooms and Tracery beside the spec's
    path as given: both are named from the spec's real folder, as a cluster's workers
    read them (a resume, a merge or a worker would otherwise see other files)."""
    (tmp_path / "specs").symlink_to(SPECS)
    for spec in ("wfc-maze.yaml", "rooms-dungeon.epcg"):
        linked = epcg_spec.load(tmp_path / "specs" / spec).source.inputs
        assert linked == epcg_spec.load(SPECS / spec).source.inputs != {}, spec


def test_a_file_read_only_when_compiling_would_be_missed_so_none_is():
    """The loader records what a kind reads while it loads a spec; compiling reads nothing
    (else that file would be left out of the checkpoint's key and result.json)."""
    for path, _ in discover([SPECS]):
        spec = epcg_spec.load(path)
        with inputs.recording() as reads:
            spec.explain()
        assert reads == {}, path


def test_a_block_inside_another_passes_its_reads_on(tmp_path):
    (tmp_path / "a").write_bytes(b"a")
    (tmp_path / "b").write_bytes(b"b")
    with inputs.recording() as outer:
        read_bounded(tmp_path / "a")
        with inputs.recording() as inner:
            read_bounded(tmp_path / "b")
    read_bounded(tmp_path / "a")  # outside every block: noted nowhere
    assert inner == {str(tmp_path / "b"): _digests(tmp_path, ["b"])["b"]}
    assert inputs.relative_to(outer, tmp_path) == _digests(tmp_path, ["a", "b"])


@pytest.fixture
def write_spec_in(tmp_path):
    (tmp_path / "maps").mkdir()

    def write(folder: Path, text: str) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "spec.yaml").write_text(text, "utf-8")
        return folder / "spec.yaml"

    return write
