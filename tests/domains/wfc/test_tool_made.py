"""Our readers on files made by Tiled and MagicaVoxel (see data/tool-made/FIXTURES.md): the
sizes, ids and voxel counts a second reader (PyTMX, midvoxio) reports, and a level learnt
from a Tiled hex map whose every joint occurs in that map."""

from __future__ import annotations

from collections import Counter

import numpy as np
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

# (file, layout, layer, (columns, rows), three commonest gids with counts, gid at (3, 5),
# gid at (0, 0), distinct gids): as PyTMX 3.32 reads them
MAPS = [
    ("desert.tmx", "square", "Ground", (40, 40), [(30, 1183), (34, 143), (10, 31)], 30, 30, 40),
    ("hexagonal-mini.tmx", "pointy", "Ground", (20, 20), [(2, 101), (14, 94), (13, 49)], 2, 15,
     15),
    ("sewers.tmx", "square", "Bottom", (50, 50), [(28, 2049), (13, 84), (34, 80)], 34, 13, None),
]  # fmt: skip


@pytest.mark.parametrize("name,layout,layer,shape,common,at35,at00,distinct", MAPS)
def test_tiled_maps_read_as_a_second_reader_reads_them(
    name, layout, layer, shape, common, at35, at00, distinct
):
    tmx = read_tmx(TILED / name)
    gids = tmx.layers[layer]
    assert tmx.layout == layout and tmx.shape == shape and gids.shape == shape[::-1]
    assert Counter(gids.ravel().tolist()).most_common(3) == common
    assert gids[5, 3] == at35 and gids[0, 0] == at00
    if distinct is not None:
        assert len(np.unique(gids[gids > 0])) == distinct


def test_a_second_layer_is_read_too():
    top = read_tmx(TILED / "sewers.tmx").layers["Top"]
    assert int((top > 0).sum()) == 30 and Counter(top.ravel().tolist())[54] == 4


def test_a_tiled_map_with_flipped_tiles_is_one_located_refusal():
    with pytest.raises(SpecError) as caught:
        read_tmx(TILED / "island.tmx")
    message = str(caught.value)
    assert message.startswith(f"{TILED / 'island.tmx'}:") and "flipped or rotated" in message


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
    spec = write_spec(model="tiled", grid="hex", example=str(TILED / "hexagonal-mini.tmx"),
                      width=10, height=8, seed=5, write=["tmx"])  # fmt: skip
    run = load_spec(spec).spec.runs[0]
    assert len(run.tiled.tiles) == 15
    assert main(["build", str(spec), "--out", str(tmp_path), "--quiet"]) == 0
    drawn = read_tmx(TILED / "hexagonal-mini.tmx").layers["Ground"].ravel()
    result = read_tmx(tmp_path / "spec.tmx")
    made = next(iter(result.layers.values())).ravel()
    assert result.layout == "pointy" and result.shape == (10, 8)

    def name(tmx, gid) -> str:  # learnt tiles are named t<gid>; written ones "t<gid> 0"
        return tmx.names.get(int(gid), f"t{int(gid)}").split()[0]

    seen = {(d, int(drawn[u]), int(drawn[v])) for (u, d), v in hex_neighbours(
        "pointy", 20, 20, (False, False)).items()}  # fmt: skip
    source = read_tmx(TILED / "hexagonal-mini.tmx")
    joints = {(d, name(source, a), name(source, b)) for d, a, b in seen}
    for (u, d), v in hex_neighbours("pointy", 10, 8, (False, False)).items():
        assert (d, name(result, made[u]), name(result, made[v])) in joints
