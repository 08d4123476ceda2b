"""Our readers on files made by Tiled and MagicaVoxel (see data/tool-made/FIXTURES.md): the
ids, names and colours of maps drawn here and saved by Tiled itself, the sizes, ids and voxel
counts a second reader (midvoxio) reports for the models, and a level learnt from a Tiled hex
map whose every joint occurs in that map."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from epcg_spec.cli.main import main
from epcg_spec.core.errors import SpecError
from epcg_spec.domains.wfc.formats_tmx import read_tmx
from epcg_spec.domains.wfc.formats_vox import read_vox
from epcg_spec.spec.load import load_spec
from tests.domains.wfc.paths import DATA
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
    grid, palette = read_vox((VOXELS / name).read_bytes(), name)
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
