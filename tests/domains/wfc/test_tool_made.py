"""Our readers on files made by Tiled and MagicaVoxel (see data/tool-made/FIXTURES.md): the
ids, names and colours of maps drawn here and saved by Tiled itself, the sizes, ids and voxel
counts a second reader (midvoxio) reports for the models, and a level learnt from a Tiled hex
map whose every joint occurs in that map. And Tiled itself on the maps we write: it reads the
cells we wrote, and draws a square map pixel for pixel as our PNG."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from epcg_spec.cli.main import main
from epcg_spec.core.errors import SpecError
from epcg_spec.domains.wfc.formats_tmx import read_tmx
from epcg_spec.domains.wfc.formats_vox import read_vox
from epcg_spec.spec.load import load_spec
from tests.domains.wfc.paths import DATA, PIPES
from tests.domains.wfc.test_worlds import HEX_PIPES
from tests.oracles.wfc_worlds_oracle import hex_neighbours

TILED = DATA / "tool-made" / "tiled"
VOXELS = DATA / "tool-made" / "magicavoxel"
DRAWN = json.loads((TILED / "expected.json").read_text())  # what make.py gave Tiled
NAMES = {1: "sea", 2: "sand", 3: "grass", 4: "forest"}  # the tiles' types in terrain.tsx
COLOURS = {1: (40, 90, 200), 2: (230, 210, 140), 3: (90, 180, 70), 4: (20, 100, 40)}


@pytest.mark.parametrize("name", sorted(set(DRAWN) - {"square-flipped.tmx"}))
def test_tiled_maps_read_as_they_were_drawn(name):
    tmx, drawn = read_tmx(TILED / name), DRAWN[name]
    assert tmx.layout == drawn["layout"] and tmx.shape == tuple(drawn["shape"])
    assert list(tmx.layers) == list(drawn["layers"])
    for layer, gids in drawn["layers"].items():
        assert tmx.layers[layer].shape == tuple(drawn["shape"][::-1])
        assert tmx.layers[layer].ravel().tolist() == gids
    used = set().union(*drawn["layers"].values()) - {0}
    assert len(used) >= 3
    assert tmx.names == {g: NAMES[g] for g in used}
    assert tmx.colors == {g: COLOURS[g] for g in used}  # the mean of each atlas tile


def test_a_tiled_map_with_a_flipped_tile_is_one_located_refusal():
    with pytest.raises(SpecError) as caught:
        read_tmx(TILED / "square-flipped.tmx")
    diag = caught.value.diagnostics[0]
    assert str(diag.pos) == f"{TILED / 'square-flipped.tmx'}:5:3"  # its <data>
    assert "the tile at [6, 4] is flipped or rotated" in diag.message


# (file, (x, y, z) size, voxels, voxels on the floor, commonest colour index: count, its RGB):
# as midvoxio 0.1.6 reads them
MODELS = [
    ("3x3x3.vox", (3, 3, 3), 20, 8, (85, 20), (153, 153, 255)),
    ("chr_knight.vox", (20, 21, 20), 398, 3, (18, 175), (255, 153, 0)),
    ("deer.vox", (26, 9, 27), 355, 2, (94, 107), (130, 101, 58)),
]


@pytest.mark.parametrize("name,size,voxels,floor,common,rgb", MODELS)
def test_magicavoxel_models_read_as_a_second_reader_reads_them(
    name, size, voxels, floor, common, rgb
):
    grid, palette = read_vox((VOXELS / name).read_bytes())
    assert grid.shape == size[::-1]
    assert int((grid > 0).sum()) == voxels and int((grid[0] > 0).sum()) == floor
    assert Counter(grid[grid > 0].tolist()).most_common(1)[0] == common
    assert palette[common[0]] == rgb


def test_a_level_learnt_from_a_tiled_hex_map_only_joins_what_the_map_joins(write_spec, tmp_path):
    spec = write_spec(model="tiled", grid="hex", example=str(TILED / "hex-pointy-zlib.tmx"),
                      width=10, height=8, seed=5, write=["tmx"])  # fmt: skip
    run = load_spec(spec).spec.runs[0]
    assert len(run.tiled.tiles) == 4
    assert main(["build", str(spec), "--out", str(tmp_path), "--quiet"]) == 0
    drawn = read_tmx(TILED / "hex-pointy-zlib.tmx").layers["ground"].ravel()
    result = read_tmx(tmp_path / "spec.tmx")
    made = next(iter(result.layers.values())).ravel()
    assert result.layout == "pointy" and result.shape == (10, 8)
    assert len(set(made.tolist()) - {0}) >= 3  # not all sea: the joints below say something

    def name(tmx, gid) -> str:  # learnt tiles take their type ("sea"); written ones "sea 0"
        return tmx.names.get(int(gid), f"t{int(gid)}").split()[0]

    seen = {(d, int(drawn[u]), int(drawn[v])) for (u, d), v in hex_neighbours(
        "pointy", 20, 16, (False, False)).items()}  # fmt: skip
    source = read_tmx(TILED / "hex-pointy-zlib.tmx")
    joints = {(d, name(source, a), name(source, b)) for d, a, b in seen}
    for (u, d), v in hex_neighbours("pointy", 10, 8, (False, False)).items():
        assert (d, name(result, made[u]), name(result, made[v])) in joints


def tiled_tool(name: str) -> str:
    """The path of one of Debian's `tiled` programs; skipped without it (failed in CI, where
    .ci/run installs it)."""
    found = shutil.which(name)
    if found is None:
        reason = f"no {name} here (apt-get install tiled)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def run_tiled(*argv) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": "/tmp"}
    subprocess.run([str(a) for a in argv], check=True, env=env, capture_output=True, timeout=60)


@pytest.mark.parametrize("grid", ["square", "pointy", "flat"])
def test_tiled_reads_the_maps_we_write(write_spec, tmp_path, grid):
    fields = (
        {"model": "tiled", "tileset": str(PIPES), "width": 9, "height": 7}
        if grid == "square"
        else {**HEX_PIPES, "orientation": grid, "width": 9, "height": 7}
    )
    spec = write_spec(**fields, seed=3, write=["tmx", "csv"])
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    out = tmp_path / "out"
    export = (tiled_tool("tiled"), "--export-map", "--embed-tilesets", "json")
    run_tiled(*export, out / "spec.tmx", tmp_path / "m.json")
    seen = json.loads((tmp_path / "m.json").read_text())
    assert (seen["width"], seen["height"]) == (9, 7)
    if grid != "square":
        assert seen["orientation"] == "hexagonal" and seen["staggerindex"] == "odd"
        assert seen["staggeraxis"] == ("y" if grid == "pointy" else "x")
    values = (out / "spec.csv").read_text().split()
    gids = [int(v) + 1 for row in values for v in row.split(",")]
    assert seen["layers"][0]["data"] == gids
    names = {t["id"]: t["type"] for t in seen["tilesets"][0]["tiles"]}
    assert names == dict(enumerate(load_spec(spec).spec.runs[0].tiled.names))


def test_tiled_draws_a_square_map_we_write_as_our_picture(write_spec, tmp_path):
    spec = write_spec(model="tiled", tileset=str(PIPES), size=8, seed=2, write=["tmx"])
    assert main(["build", str(spec), "--out", str(tmp_path), "--quiet"]) == 0
    run_tiled(tiled_tool("tmxrasterizer"), tmp_path / "spec.tmx", tmp_path / "tiled.png")
    drawn = np.asarray(Image.open(tmp_path / "tiled.png").convert("RGB"))
    ours = np.asarray(Image.open(tmp_path / "spec.png").convert("RGB"))
    assert drawn.shape == ours.shape and np.array_equal(drawn, ours)


def test_tiled_draws_every_map_of_a_run_with_their_one_tileset(write_spec, tmp_path):
    spec = write_spec(model="tiled", tileset=str(PIPES), size=6, seed=4, outputs=2, write=["tmx"])
    assert main(["build", str(spec), "--out", str(tmp_path), "--quiet"]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.tsx")) == ["00-spec.tsx"]
    for k in range(2):
        drawn = tmp_path / f"tiled-{k}.png"
        run_tiled(tiled_tool("tmxrasterizer"), tmp_path / f"00-spec-{k}.tmx", drawn)
        ours = np.asarray(Image.open(tmp_path / f"00-spec-{k}.png").convert("RGB"))
        assert np.array_equal(np.asarray(Image.open(drawn).convert("RGB")), ours)
