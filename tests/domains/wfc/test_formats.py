"""CSV, Tiled .tmx/.tsx and MagicaVoxel .vox: what we write reads back identical, hand-made
files in every encoding read as the format documents say, and bad files give located errors."""

from __future__ import annotations

import base64
import gzip
import json
import re
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

from epcg_spec.cli.main import main
from epcg_spec.core.errors import SpecError
from epcg_spec.domains.wfc.examples import MapData
from epcg_spec.domains.wfc.formats_csv import read_csv, write_csv
from epcg_spec.domains.wfc.formats_tmx import read_tmx
from epcg_spec.domains.wfc.formats_vox import NotVox, read_vox, write_vox
from epcg_spec.spec.load import load_spec
from tests.domains.wfc.paths import PIPES
from tests.domains.wfc.test_worlds import CUBE_TERRAIN, HEX_PIPES
from tests.oracles.wfc_worlds_oracle import (
    cube_neighbours,
    hex_neighbours,
    square_neighbours,
    violations,
)


def build(spec, out) -> dict:
    assert main(["build", str(spec), "--out", str(out), "--quiet"]) == 0
    return json.loads((out / "result.json").read_text())


def test_csv_round_trip_with_layers():
    values = np.arange(-2, 22).reshape(2, 3, 4)
    text = write_csv(values.ravel(), (4, 3, 2))
    assert text.splitlines()[0] == "-2,-1,0,1" and text.splitlines()[3] == ""
    assert np.array_equal(read_csv(text, "m.csv"), values)


def test_a_bad_csv_cell_is_located():
    with pytest.raises(SpecError) as caught:
        read_csv("1,2,3\n4,x,6\n", "m.csv")
    assert str(caught.value.diagnostics[0].pos) == "m.csv:2:3"
    with pytest.raises(SpecError, match="this row has 2 cells"):
        read_csv("1,2,3\n4,5\n", "m.csv")


def test_vox_round_trip_and_the_published_layout():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 4, size=5 * 4 * 3)
    palette = {1: (10, 20, 30), 2: (200, 100, 0), 3: (1, 2, 3)}
    data = write_vox((5, 4, 3), codes, palette)
    assert data[:8] == b"VOX " + struct.pack("<i", 150)
    assert data[8:20] == b"MAIN" + struct.pack("<ii", 0, len(data) - 20)
    assert data[20:44] == b"SIZE" + struct.pack("<iiiii", 12, 0, 5, 4, 3)
    grid, read_palette = read_vox(data)
    assert np.array_equal(grid, codes.reshape(3, 4, 5))
    assert all(read_palette[k] == v for k, v in palette.items())


def chunk(name: bytes, content: bytes, children: bytes = b"") -> bytes:
    return name + struct.pack("<ii", len(content), len(children)) + content + children


def test_vox_skips_chunks_it_does_not_use_and_refuses_two_models():
    size = chunk(b"SIZE", struct.pack("<iii", 2, 2, 1))
    xyzi = chunk(b"XYZI", struct.pack("<i", 1) + bytes((1, 0, 0, 7)))
    extra = chunk(b"PACK", struct.pack("<i", 1)) + chunk(b"nTRN", b"\x00" * 8, chunk(b"nSHP", b""))
    one = b"VOX " + struct.pack("<i", 200) + chunk(b"MAIN", b"", extra + size + xyzi)
    grid, palette = read_vox(one)
    assert grid.tolist() == [[[0, 7], [0, 0]]] and palette[7] == (7, 7, 7)  # no RGBA: grey
    two = b"VOX " + struct.pack("<i", 150) + chunk(b"MAIN", b"", size + xyzi + size + xyzi)
    with pytest.raises(NotVox, match="holds 2 models"):
        read_vox(two)
    with pytest.raises(NotVox, match="not a MagicaVoxel file"):
        read_vox(b"PNG....")


@pytest.mark.parametrize("size", [(-5, 3, 3), (0, 1, 1), (2000, 2000, 200), (10**5,) * 3])
def test_a_vox_size_past_the_format_is_refused_before_allocating(size):
    """A SIZE of -5 (ValueError) or 2000 x 2000 x 200 (6 GiB, MemoryError) was an internal
    error; a voxel's coordinates are bytes, so a model is 1 to 256 voxels a side."""
    xyzi = chunk(b"XYZI", struct.pack("<i", 1) + bytes((0, 0, 0, 1)))
    body = chunk(b"SIZE", struct.pack("<iii", *size)) + xyzi
    data = b"VOX " + struct.pack("<i", 150) + chunk(b"MAIN", b"", body)
    with pytest.raises(NotVox, match="a MagicaVoxel model is 1 to 256 voxels a side"):
        read_vox(data)


def _main(children: bytes) -> bytes:
    return (
        b"VOX " + struct.pack("<i", 150) + b"MAIN" + struct.pack("<ii", 0, len(children)) + children
    )


@pytest.mark.parametrize(
    ("children", "message"),
    [
        (b"nTRN" + struct.pack("<ii", 0, -12) + bytes(12), "at byte 20 runs past the end"),
        (b"SIZE" + struct.pack("<ii", -12, 0) + bytes(12), "at byte 20 runs past the end"),
        (b"SIZE" + struct.pack("<ii", 4, 0) + bytes(4), "b'SIZE' at byte 20 holds 4 bytes"),
        (b"XYZI" + struct.pack("<ii", 1, 0) + bytes(1), "b'XYZI' at byte 20 holds 1 bytes"),
        (b"XYZI" + struct.pack("<iii", 4, 0, -5), "lists -5 voxels but holds fewer"),
        (b"RGBA" + struct.pack("<ii", 8, 0) + bytes(8), "b'RGBA' at byte 20 holds 8 bytes"),
    ],
    ids=["negative children", "negative content", "short SIZE", "short XYZI", "negative count",
         "short RGBA"],
)  # fmt: skip
def test_a_malformed_vox_chunk_is_refused_at_its_byte(children, message):
    """A chunk claiming -12 bytes of children looped forever; short SIZE, XYZI and RGBA
    chunks were internal errors (struct.error, ValueError)."""
    with pytest.raises(NotVox, match=re.escape(message)):
        read_vox(_main(children))


def test_a_malformed_vox_sample_is_located_at_the_spec_node_naming_it(tmp_path, capsys):
    (tmp_path / "bad.vox").write_bytes(_main(b"SIZE" + struct.pack("<ii", 4, 0) + bytes(4)))
    spec = tmp_path / "s.yaml"
    spec.write_text(
        "kind: wfc\nname: s\nmodel: overlapping\ngrid: cube\nsample: bad.vox\nN: 2\n"
        "width: 4\nheight: 4\ndepth: 2\n"
    )
    assert main(["validate", str(spec)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{spec}:5:9: bad.vox: chunk b'SIZE' at byte 20 holds 4 bytes, too few"]


@pytest.mark.parametrize("grid", ["square", "hex"])
def test_a_tmx_we_write_reads_back_identical(write_spec, tmp_path, grid):
    fields = (
        {"model": "tiled", "tileset": str(PIPES), "size": 10}
        if grid == "square"
        else {**HEX_PIPES, "orientation": "flat", "width": 9, "height": 7}
    )
    spec = write_spec(**fields, seed=5, write=["tmx", "csv"])
    build(spec, tmp_path / "out")
    values = read_csv((tmp_path / "out" / "spec.csv").read_text(), "x")[0]
    tmx = read_tmx(tmp_path / "out" / "spec.tmx")
    run = load_spec(spec).spec.runs[0]
    assert tmx.layout == ("square" if grid == "square" else "flat")
    assert np.array_equal(tmx.layers["wfc"] - 1, values)
    assert all(tmx.names[v + 1] == run.tiled.names[v] for v in np.unique(values).tolist())
    if grid == "square":  # colours come from the written atlas: the mean of each tile picture
        for v in np.unique(values).tolist():
            mean = run.tiled.images[v].reshape(-1, 3).mean(axis=0).astype(int)
            assert np.abs(np.array(tmx.colors[v + 1]) - mean).max() <= 1


def test_the_outputs_of_a_run_share_one_tileset_and_list_their_files(write_spec, tmp_path):
    spec = write_spec(
        model="tiled", tileset=str(PIPES), size=6, outputs=3, seed=2, write=["tmx", "csv"]
    )
    result = build(spec, tmp_path / "one")
    shared = ["00-spec.tsx", "00-spec-tiles.png"]
    for k, output in enumerate(result["outputs"]):
        stem = f"00-spec-{k}"
        assert output["files"] == [f"{stem}{e}" for e in (".png", ".txt", ".csv", ".tmx")] + shared
        tmx = (tmp_path / "one" / f"{stem}.tmx").read_text()
        assert '<tileset firstgid="1" source="00-spec.tsx"/>' in tmx
        values = read_csv((tmp_path / "one" / f"{stem}.csv").read_text(), "x")[0]
        assert np.array_equal(read_tmx(tmp_path / "one" / f"{stem}.tmx").layers["wfc"] - 1, values)
    written = {p.name for p in (tmp_path / "one").iterdir() if not p.name.startswith(".")}
    written -= {"result.json", "index.html"}
    assert written == {name for output in result["outputs"] for name in output["files"]}
    assert len(written) == 3 * 4 + 2
    tsx = (tmp_path / "one" / "00-spec.tsx").read_text()
    assert 'name="00-spec"' in tsx and '<image source="00-spec-tiles.png"' in tsx
    for shard in ("0/2", "1/2"):  # each shard writes the tileset; the merge keeps one
        out = tmp_path / shard.replace("/", "of")
        assert main(["build", str(spec), "--out", str(out), "-q", "--shard", shard]) == 0
    merged = tmp_path / "merged"
    assert (
        main(["merge", str(tmp_path / "0of2"), str(tmp_path / "1of2"), "--out", str(merged)]) == 0
    )
    for name in written:
        assert (merged / name).read_bytes() == (tmp_path / "one" / name).read_bytes(), name


def test_a_partly_drawn_map_fixes_cells(write_spec, tmp_path):
    first = write_spec("first", model="tiled", tileset=str(PIPES), size=8, seed=1, write=["tmx"])
    build(first, tmp_path / "a")
    text = (tmp_path / "a" / "first.tmx").read_text()
    start, end = text.index('<data encoding="csv">') + 22, text.index("</data>")
    rows = [r.rstrip(",").split(",") for r in text[start:end].split()]
    drawn = [[g if (x + y) % 3 == 0 else "0" for x, g in enumerate(r)] for y, r in enumerate(rows)]
    partial = tmp_path / "a" / "partial.tmx"
    rows_csv = ",\n".join(",".join(r) for r in drawn)  # as Tiled writes: a comma ends a row
    partial.write_text(text[:start] + rows_csv + "\n" + text[end:])
    spec = write_spec(
        "second", model="tiled", tileset=str(PIPES), size=8, seed=9, write=["csv"],
        fixed=[{"map": str(partial)}],
    )  # fmt: skip
    build(spec, tmp_path / "b")
    values = read_csv((tmp_path / "b" / "second.csv").read_text(), "x")[0]
    for y, row in enumerate(drawn):
        for x, gid in enumerate(row):
            if gid != "0":
                assert values[y, x] == int(gid) - 1


MAP = """<?xml version="1.0"?>
<map version="1.10" orientation="hexagonal" width="3" height="2" tilewidth="14" tileheight="16"
     hexsidelength="8" staggeraxis="y" staggerindex="odd" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="2" tileheight="2" tilecount="4" columns="2">
  <image source="atlas.png" width="4" height="4"/>
  <tile id="1" type="grass"/>
 </tileset>
 <layer id="1" name="ground" width="3" height="2">
  {data}
 </layer>
</map>
"""
GIDS = [1, 2, 2, 0, 4, 1]


def encoded(kind: str) -> str:
    raw = struct.pack("<6I", *GIDS)
    if kind == "csv":
        return '<data encoding="csv">\n1,2,2,\n0,4,1\n</data>'
    if kind == "xml":
        return (
            "<data>" + "".join(f'<tile gid="{g}"/>' if g else "<tile/>" for g in GIDS) + "</data>"
        )
    packed = {"plain": raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw)}[kind]
    compression = "" if kind == "plain" else f' compression="{kind}"'
    return f'<data encoding="base64"{compression}>{base64.b64encode(packed).decode()}</data>'


@pytest.mark.parametrize("kind", ["csv", "xml", "plain", "zlib", "gzip"])
def test_tmx_layer_encodings_read_alike(tmp_path, kind):
    from PIL import Image

    atlas = np.zeros((4, 4, 3), dtype=np.uint8)
    atlas[0:2, 2:4] = (0, 200, 0)  # tile 1 (gid 2): green
    Image.fromarray(atlas).save(tmp_path / "atlas.png")
    (tmp_path / "m.tmx").write_text(MAP.format(data=encoded(kind)))
    tmx = read_tmx(tmp_path / "m.tmx")
    assert tmx.layout == "pointy" and tmx.shape == (3, 2)
    assert tmx.layers["ground"].ravel().tolist() == GIDS
    assert tmx.names == {2: "grass"} and tmx.colors[2] == (0, 200, 0)


def test_a_flipped_tile_and_zstd_are_refused_where_they_stand(tmp_path):
    (tmp_path / "m.tmx").write_text(
        MAP.format(data='<data encoding="csv">\n1,2,2,\n0,2147483652,1\n</data>')
    )
    with pytest.raises(SpecError) as caught:
        read_tmx(tmp_path / "m.tmx")
    diag = caught.value.diagnostics[0]
    assert "[1, 1] is flipped or rotated" in diag.message and diag.pos.line == 9
    (tmp_path / "m.tmx").write_text(
        MAP.format(data='<data encoding="base64" compression="zstd">AAAA</data>')
    )
    with pytest.raises(SpecError, match="zstd compression is not read"):
        read_tmx(tmp_path / "m.tmx")


CSV = '<data encoding="csv">\n1,2,2,\n0,4,1\n</data>'
ZLIB_BOMB = base64.b64encode(zlib.compress(bytes(1 << 24))).decode()
BROKEN_MAPS = [  # (the map's text, a file beside it, the one line's start and message)
    (MAP.replace("<tileset", '<tileset source="../../t.tsx"/><x').replace("</tileset>", "</x>"),
     None, "m.tmx:4:2:", "lies outside"),
    (MAP.replace('<image source="atlas.png"', '<image source="/etc/hostname"'),
     None, "m.tmx:5:3:", "/etc/hostname lies outside"),
    (MAP.replace("<tileset", '<tileset source="t.tsx"/><x').replace("</tileset>", "</x>"),
     ("t.tsx", '<!DOCTYPE t [<!ENTITY a "b">]><tileset name="&a;"/>'),
     "t.tsx:1:", "an XML entity declaration is not read"),
    (MAP.replace("<tileset", '<tileset source="t.tsx"/><x').replace("</tileset>", "</x>"),
     ("t.tsx", '<tileset source="t.tsx"/>'), "t.tsx:1:1:", "a tileset file names no other"),
    (MAP.replace("<tileset", '<tileset source="t.tsx"/><x').replace("</tileset>", "</x>"),
     ("t.tsx", "<tileset><image source='a.png'/></tileset>"), "t.tsx:1:10:",
     "<image> needs a whole number 'width'"),
    (MAP.format(data=f'<data encoding="base64" compression="zlib">{ZLIB_BOMB}</data>'),
     None, "m.tmx:9:3:", "the zlib data is broken or holds more than the map's 6 cells"),
    (MAP.format(data='<data encoding="base64" compression="zlib">éé</data>'),  # was exit 3
     None, "m.tmx:9:3:", "the zlib data is broken or holds more than the map's 6 cells"),
    (MAP.replace('width="4" height="4"', 'width="2147483648" height="9"'), None, "m.tmx:5:3:",
     "the map's atlases hold more than 65536 tiles"),
    (MAP.replace(' <tileset', ' <tileset firstgid="5" name="u" tilewidth="2" tileheight="2">'
                 '<image source="a.png" width="400" height="400"/></tileset>\n <tileset')
     .replace('width="4" height="4"', 'width="400" height="400"'), None, "m.tmx:6:3:",
     "the map's atlases hold more than 65536 tiles"),
    (MAP.replace(" <tileset", '<tileset firstgid="9" source="t.tsx"/>\n' * 17 + " <tileset"),
     ("t.tsx", f"<tileset><!-- {'x' * (1 << 20)} --></tileset>"), "m.tmx:19:1:",
     "the map and its tilesets are larger than 16 MiB together"),
    (MAP.replace('tilewidth="2"', 'tilewidth="0"'), None, "m.tmx:4:2:",
     "a tileset's tile sizes are whole numbers from 1 up"),
    (MAP.format(data=CSV.replace("0,4", "-3,4")), None, "m.tmx:9:3:",
     "the tile at [0, 1] has no tile id: -3"),
    (MAP.format(data=CSV.replace("0,4", "x,4")), None, "m.tmx:2:1:",
     "PyTMX could not read the map: invalid literal"),
    (MAP.format(data=CSV).replace('width="3"', 'width="3000"', 1).replace('height="2"',
     'height="3000"', 1), None, "m.tmx:2:1:", "a map has 1 to 1048576 cells, this one 9000000"),
]  # fmt: skip


@pytest.mark.parametrize("text,beside,where,message", BROKEN_MAPS)
def test_a_broken_tiled_map_is_one_located_line(
    write_spec, tmp_path, capsys, text, beside, where, message
):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "m.tmx").write_text(text.replace("{data}", CSV))
    if beside:
        (tmp_path / "maps" / beside[0]).write_text(beside[1])
    spec = write_spec(model="tiled", example="maps/m.tmx", size=4)
    assert main(["build", str(spec), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    assert err[0].startswith(str(tmp_path / "maps" / where)), err


def test_a_tileset_beside_the_maps_folder_is_read_when_inside_the_specs(write_spec, tmp_path):
    from PIL import Image

    for folder in ("maps", "tilesets"):
        (tmp_path / folder).mkdir()
    atlas = np.zeros((4, 4, 3), dtype=np.uint8)
    atlas[0:2, 2:4] = (0, 200, 0)
    Image.fromarray(atlas).save(tmp_path / "tilesets" / "atlas.png")
    embedded = MAP[MAP.index("<tileset") : MAP.index("</tileset>") + len("</tileset>")]
    (tmp_path / "tilesets" / "t.tsx").write_text(embedded.replace(' firstgid="1"', ""))
    outside = MAP.replace(embedded, '<tileset firstgid="1" source="../tilesets/t.tsx"/>')
    (tmp_path / "maps" / "m.tmx").write_text(outside.format(data=CSV))
    tmx = read_tmx(tmp_path / "maps" / "m.tmx", tmp_path)
    assert tmx.layers["ground"].ravel().tolist() == GIDS
    assert tmx.names == {2: "grass"} and tmx.colors[2] == (0, 200, 0)
    with pytest.raises(SpecError, match="lies outside"):
        read_tmx(tmp_path / "maps" / "m.tmx")  # the map's own folder alone


def test_a_tiled_run_learns_its_tiles_from_a_csv_example(write_spec, tmp_path):
    # water (0) never touches grass (2) directly: sand (1) lies between
    example = tmp_path / "island.csv"
    example.write_text("0,0,0,0,0\n0,1,1,1,0\n0,1,2,1,0\n0,1,1,1,0\n0,0,0,0,0\n")
    spec = write_spec(
        model="tiled", example=str(example), size=12, seed=4, write=["csv"], grid="hex"
    )
    build(spec, tmp_path / "out")
    run = load_spec(spec).spec.runs[0]
    assert run.tiled.names == ["t0 0", "t1 0", "t2 0"]
    assert run.tiled.weights.tolist() == [16, 8, 1]
    values = read_csv((tmp_path / "out" / "spec.csv").read_text(), "x").ravel()
    assert (
        violations(values, hex_neighbours("pointy", 12, 12, (False, False)), run.tiled.sides) == []
    )
    assert not run.tiled.sides[:, 0, 2].any() and not run.tiled.sides[:, 2, 0].any()


def test_a_cube_learns_from_a_vox_we_wrote_and_writes_it_back(write_spec, tmp_path):
    first = write_spec("first", **CUBE_TERRAIN, width=6, height=6, depth=4, seed=3,
                       fixed=[{"layer": 0, "tile": "stone"}])  # fmt: skip
    build(first, tmp_path / "a")
    example = str(tmp_path / "a" / "first.vox")
    spec = write_spec("second", model="tiled", grid="cube", example=example,
                      width=7, height=5, depth=4, seed=6)  # fmt: skip
    build(spec, tmp_path / "b")
    run = load_spec(spec).spec.runs[0]
    learned = read_vox((tmp_path / "a" / "first.vox").read_bytes())[0]
    assert [t.code for t in run.tiled.tiles] == np.unique(learned).tolist()
    grid, palette = read_vox((tmp_path / "b" / "second.vox").read_bytes())
    assert set(np.unique(grid).tolist()) <= set(np.unique(learned).tolist())
    codes = {t.code: i for i, t in enumerate(run.tiled.tiles)}
    values = np.vectorize(codes.get)(grid).ravel()
    assert violations(values, cube_neighbours((7, 5, 4), (False,) * 3), run.tiled.sides) == []
    assert palette[1] == (128, 128, 128)  # stone kept its colour index and colour


def test_the_tiled_example_spec_learns_the_hand_drawn_map(tmp_path):
    spec = Path(__file__).parents[3] / "specs" / "wfc-tiled-example.yaml"
    run = load_spec(spec).spec.runs[0]
    assert [t.name for t in run.tiled.tiles] == ["sea", "sand", "grass", "forest"]
    assert run.tiled.weights.tolist() == [58, 24, 13, 5]  # counted in the map
    sea, grass, forest = 0, 2, 3
    for d in range(4):
        for a, b in ((sea, grass), (sea, forest)):
            assert not run.tiled.sides[d, a, b] and not run.tiled.sides[d, b, a]
    build(spec, tmp_path)
    values = read_tmx(tmp_path / "wfc-tiled-example.tmx").layers["wfc"].ravel() - 1
    sides = run.tiled.sides.copy()
    sides[2], sides[1] = sides[0].T, sides[3].T  # left and up from right and down
    assert violations(values, square_neighbours(32, 32), sides) == []
    assert (values.reshape(32, 32)[0] == sea).all()  # the border


def test_a_hex_map_we_wrote_teaches_no_pair_its_rules_forbid(write_spec, tmp_path):
    first = write_spec("first", **HEX_PIPES, orientation="flat", width=12, height=10, seed=2,
                       write=["tmx"])  # fmt: skip
    build(first, tmp_path / "a")
    example = str(tmp_path / "a" / "first.tmx")
    spec = write_spec("second", model="tiled", grid="hex", orientation="flat", example=example,
                      size=8, seed=1)  # fmt: skip
    build(spec, tmp_path / "b")
    original = load_spec(first).spec.runs[0].tiled
    learned = load_spec(spec).spec.runs[0].tiled
    # learned tiles are the variants the first map used, named by their .tsx type
    variant = [original.names.index(t.name.replace("_", " ")) for t in learned.tiles]
    assert len(variant) > 3
    for d in range(6):
        seen = learned.sides[d]
        assert seen.any()
        assert original.sides[d][np.ix_(variant, variant)][seen].all()
    wrong = write_spec("third", model="tiled", example=example, size=8)
    assert main(["build", str(wrong), "--out", str(tmp_path / "c")]) == 1


def test_a_partly_drawn_vox_fixes_its_voxels_only(write_spec, tmp_path):
    codes = np.zeros((3, 4, 4), dtype=np.int64)  # (z, y, x)
    codes[0, 1, 2] = 1  # colour 1 at [2, 1, 0]
    codes[1, 3, 0] = 3  # colour 3 at [0, 3, 1]
    part = tmp_path / "part.vox"
    part.write_bytes(write_vox((4, 4, 3), codes.ravel(), {1: (1, 1, 1), 3: (3, 3, 3)}))
    rename = {"stone": "c1", "trunk": "c3"}  # a .vox colour index i names the tile c<i>
    tiles = [{**t, "name": rename.get(t["name"], t["name"])} for t in CUBE_TERRAIN["tiles"]]
    rules = [{k: rename.get(v, v) for k, v in r.items()} for r in CUBE_TERRAIN["neighbors"]]
    spec = write_spec(
        **{**CUBE_TERRAIN, "tiles": tiles, "neighbors": rules}, width=4, height=4, depth=3,
        seed=1, write=["csv"], fixed=[{"map": str(part)}],
    )  # fmt: skip
    run = load_spec(spec).spec.runs[0]
    fixed = {int(c) for r in run.restrictions for c in r.cells}
    assert fixed == {2 + 1 * 4, 0 + 3 * 4 + 16}  # the empty voxels fix nothing
    build(spec, tmp_path / "out")
    values = read_csv((tmp_path / "out" / "spec.csv").read_text(), "x")
    assert run.tiled.names[values[0, 1, 2]] == "c1 0" and run.tiled.names[values[1, 3, 0]] == "c3 0"


def test_a_tile_learned_from_a_type_with_a_space_is_named_as_the_page_says():
    page = (Path(__file__).parents[3] / "docs" / "kinds" / "wfc-worlds.md").read_text("utf-8")
    typed, named = re.search(r"a type `([^`]+)` is the tile `([^`]+)`", page).groups()
    assert MapData(None, np.zeros((1, 1, 1), np.int64), {0: typed}).name(0) == named == "corner_1"
