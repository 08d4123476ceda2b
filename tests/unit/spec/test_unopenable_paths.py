"""A file a spec (or a map it names) names by a path no file can have, one with a NUL
character or longer than the system allows, is a located problem of that line (exit 1),
like a file that does not exist: not a crash, and not an unlocated system error."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from epcg_spec.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
SPECS = ROOT / "specs"
TILED = ROOT / "tests/domains/wfc/data/tool-made/tiled"
# each written as a JSON string, which YAML and the DSL both read
NAMES = {
    "nul": json.dumps("a\0b.png"),
    "long": json.dumps("x" * 300 + ".png"),
    "long-part": json.dumps("wfc-samples/" + "é" * 130 + ".vox"),  # 260 bytes, in a folder
}

# (shipped spec, the text naming a file in it): that text is replaced by each bad name
FIELDS = [
    ("tracery-weather.epcg", None),  # a grammar_file line is added
    ("rooms-dungeon.epcg", '"nested-dungeon.epcg"'),
    ("wfc-maze.yaml", "wfc-samples/samples/maze.png"),
    ("wfc-pipes.yaml", "wfc-samples/samples/pipes/data.xml"),
    ("wfc-hex-tiled-example.yaml", "wfc-worlds/hex-islands.tmx"),
    ("wfc-voxel-patterns.yaml", "wfc-worlds/terrain-sample.vox"),
]


def _validate(spec: Path, capsys) -> tuple[int, list[str]]:
    code = main(["validate", "-q", str(spec)])
    captured = capsys.readouterr()
    return code, (captured.err + captured.out).splitlines()


@pytest.mark.parametrize("bad", sorted(NAMES))
@pytest.mark.parametrize(("shipped", "named"), FIELDS)
def test_a_name_no_file_can_have_is_a_located_problem(shipped, named, bad, tmp_path, capsys):
    for child in SPECS.iterdir():  # the other files the spec names stay where it finds them
        (tmp_path / child.name).symlink_to(child)
    text = (SPECS / shipped).read_text(encoding="utf-8")
    if named is None:
        text = f"kind: tracery\nname: weather\ngrammar_file: {NAMES[bad]}\n"
        shipped = "weather.yaml"
    else:
        assert named in text
        text = text.replace(named, NAMES[bad])
    spec = tmp_path / f"bad-{shipped}"
    spec.write_text(text, encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if NAMES[bad] in s)
    code, err = _validate(spec, capsys)
    assert code == 1, err
    assert len(err) == 1 and err[0].startswith(f"{spec}:{line}:"), err
    why = "NUL character" if bad == "nul" else "longer than this system allows"
    assert why in err[0]


def test_a_tileset_a_tiled_map_names_by_too_long_a_path(tmp_path, capsys):
    for name in ("square-csv.tmx", "terrain.tsx", "terrain.png"):
        shutil.copy(TILED / name, tmp_path / name)
    tmx = tmp_path / "square-csv.tmx"
    text = tmx.read_text(encoding="utf-8")
    tmx.write_text(text.replace('source="terrain.tsx"', f'source="{"t" * 300}.tsx"'))
    spec = "kind: wfc\nmodel: tiled\nexample: square-csv.tmx\nsize: 8\n"
    _refused_at_the_long_name(tmp_path, spec, tmx, "t" * 300, capsys)


def test_a_tile_a_tileset_names_by_too_long_a_name(tmp_path, capsys):
    # its picture is looked for as NAME.png beside the tileset
    shutil.copytree(SPECS / "wfc-samples/samples/pipes", tmp_path / "pipes")
    data = tmp_path / "pipes" / "data.xml"
    data.write_text(data.read_text().replace('name="corner"', f'name="{"c" * 300}"', 1))
    spec = "kind: wfc\nname: p\nmodel: tiled\ntileset: pipes/data.xml\nsize: 8\n"
    _refused_at_the_long_name(tmp_path, spec, data, "c" * 300, capsys)


def _refused_at_the_long_name(folder: Path, spec: str, file: Path, name: str, capsys) -> None:
    """Validating `spec` (written in `folder`) gives one line, exit 1, at the line of `file`
    that holds `name`."""
    (folder / "spec.yaml").write_text(spec)
    code, err = _validate(folder / "spec.yaml", capsys)
    line = next(i for i, s in enumerate(file.read_text().splitlines(), 1) if name in s)
    assert code == 1 and len(err) == 1, err
    assert re.match(rf"{re.escape(str(file))}:{line}:\d+: .*longer than this system allows", err[0])
