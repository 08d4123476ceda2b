"""Maps drawn in other tools, read as tile ids: a Tiled map (.tmx), a MagicaVoxel model (.vox)
or a CSV of ids. A tiled run learns its tiles and adjacency from one (`example: file`): every
tile id used is a tile, weighted by how often it appears, and b may stand in direction d of a
exactly where the example shows b in direction d of a. A partly drawn map fixes cells
(`fixed: [{map: file}]`): each drawn cell holds the tile its id names (a .vox's empty voxels
count as undrawn there).

Names: a Tiled tile's `type` (our .tsx files give each variant's name, "corner 1"), else
`t<gid>`; a .vox colour index i is `c<i>`, index 0 (no voxel) the air tile `air`; a CSV id n is
`t<n>`. A cell with no tile (gid 0, a negative CSV id) takes no part.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...core.errors import SpecError
from ...core.files import NotReadable, read_bounded
from .formats_csv import read_csv
from .formats_tmx import read_tmx
from .formats_vox import NotVox, read_vox
from .inputs import Problems
from .orbits import build_world_variants
from .tiles import TileDef, TiledModel, build_variants
from .topology import Topology

SUFFIXES = (".tmx", ".vox", ".csv")
STAND_IN = 8  # pixel size of the plain-colour picture of a learned tile


@dataclass
class MapData:
    """Tile ids per cell (layers, rows, columns; -1: no tile), with names and colours."""

    layout: str | None  # square | pointy | flat | cube; None: any (CSV)
    ids: np.ndarray
    names: dict[int, str] = field(default_factory=dict)
    colors: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    air: set[int] = field(default_factory=set)

    def name(self, tile: int) -> str:
        """The tile's name as a spec writes it (spaces become underscores)."""
        raw = self.names.get(tile)
        return raw.replace(" ", "_") if raw else f"t{tile}"

    @property
    def shape(self) -> tuple[int, int, int]:
        layers, rows, columns = self.ids.shape
        return columns, rows, layers


def read_map(doc, path, relative: str, folder: Path, problems: Problems) -> MapData | None:
    """The map file at `relative` (to the spec's folder), or None with a located problem."""
    file = problems.named_file(doc, path, folder, relative)
    if file is None:
        return None
    if file.suffix.lower() not in SUFFIXES:
        problems.add(doc, path, f"{file.name} is not a map WFC reads", "give a .tmx, .vox or .csv")
        return None
    if not file.is_file():
        problems.add(doc, path, f"no map at {file}", "paths are relative to the spec's folder")
        return None
    try:
        return _read(file, folder)
    except NotReadable as exc:
        problems.add(doc, path, str(exc))
    except NotVox as exc:
        problems.add(doc, path, f"{file.name}: {exc}")
    except SpecError as error:
        problems.found.extend(error.diagnostics)
    return None


def _read(file: Path, folder: Path) -> MapData:
    suffix = file.suffix.lower()
    if suffix == ".tmx":
        tmx = read_tmx(file, folder)
        gids = next(iter(tmx.layers.values()))
        ids = np.where(gids > 0, gids, -1)[None]
        return MapData(tmx.layout, ids, dict(tmx.names), dict(tmx.colors))
    if suffix == ".vox":
        grid, palette = read_vox(read_bounded(file))
        names = {i: f"c{i}" for i in np.unique(grid).tolist()}
        names[0] = "air"
        return MapData("cube", grid, names, {**palette, 0: (255, 255, 255)}, {0})
    ids = read_csv(read_bounded(file).decode(errors="replace"), str(file))
    return MapData(None, np.where(ids >= 0, ids, -1))


def stand_in(tile: int) -> tuple[int, int, int]:
    """A colour for a tile whose picture is unknown, fixed by its id."""
    mixed = (tile * 2654435761) & 0xFFFFFF
    return (64 + (mixed >> 16) % 160, 64 + (mixed >> 8 & 0xFF) % 160, 64 + (mixed & 0xFF) % 160)


def learn(data: MapData, layout: str) -> TiledModel:
    """Tiles (one variant each) and the adjacency the example shows, per direction."""
    used, counts = np.unique(data.ids[data.ids >= 0], return_counts=True)
    defs, seen = [], set()
    for tile, count in zip(used.tolist(), counts.tolist(), strict=True):
        color = np.array(data.colors.get(tile) or stand_in(tile), dtype=np.uint8)
        picture = np.broadcast_to(color, (STAND_IN, STAND_IN, 3)).copy()
        name = data.name(tile) if data.name(tile) not in seen else f"t{tile}"
        seen.add(name)
        defs.append(TileDef(name, "X", float(count), (picture,), tile in data.air, tile))
    example = Topology(layout, data.shape, (False, False, False))
    model = build_variants(defs) if layout == "square" else build_world_variants(defs, example)
    index = np.full(int(used.max()) + 1, -1, dtype=np.int64)
    index[used] = np.arange(len(used))
    flat = data.ids.ravel()
    for d in range(len(example.directions)):
        u, v = example.links(d)
        both = (flat[u] >= 0) & (flat[v] >= 0)
        model.sides[d, index[flat[u[both]]], index[flat[v[both]]]] = True
    return model
