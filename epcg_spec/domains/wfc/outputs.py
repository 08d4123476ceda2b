"""The files one output writes, by grid: square PNG; hex PNG and SVG; cube isometric PNG and
.vox; and what `write:` asks for besides (csv, tmx)."""

from __future__ import annotations

import numpy as np

from .formats_csv import write_csv
from .formats_tmx import write_tmx
from .formats_vox import write_vox
from .model import WfcRun
from .render import pixels, png_bytes
from .render_worlds import hex_png, hex_svg, iso_png, tile_colors
from .voxels import pattern_voxels


def pictures(run: WfcRun, domains: np.ndarray, values: np.ndarray, stem: str) -> dict:
    """The output's pictures from the grid's candidates and values (see render.cell_*)."""
    grid = run.topology.grid
    if grid == "hex":
        return {
            f"{stem}.png": hex_png(run, domains, values),
            f"{stem}.svg": hex_svg(run, domains, values),
        }
    if grid == "cube":
        shape = (run.width, run.height, run.depth)
        if run.tiled is not None:
            codes, palette = voxel_codes(run, values), vox_palette(run)
        else:
            codes = pattern_voxels(run.patterns, run.topology.shape, values, shape)
            palette = run.patterns.palette
        return {
            f"{stem}.png": iso_png(shape, codes, palette),
            f"{stem}.vox": write_vox(shape, codes, palette),
        }
    return {f"{stem}.png": png_bytes(pixels(run, domains))}


def vox_palette(run: WfcRun) -> dict[int, tuple[int, int, int]]:
    """Colour index -> RGB of every solid tile: its `code` from a .vox example, else 1, 2, ..."""
    colors = tile_colors(run)
    out = {}
    for t, code in enumerate(_codes(run)):
        if code > 0:
            out[code] = tuple(int(c) for c in colors[run.tiled.first[run.tiled.tiles[t].name]])
    return out


def _codes(run: WfcRun) -> list[int]:
    """Per tile, its colour index in a .vox (0: air)."""
    tiles = run.tiled.tiles
    if all(t.code is not None for t in tiles):
        return [0 if t.air else t.code for t in tiles]
    out, next_code = [], 1
    for t in tiles:
        out.append(0 if t.air else next_code)
        next_code += not t.air
    return out


def voxel_codes(run: WfcRun, values: np.ndarray) -> np.ndarray:
    """Per cell, the .vox colour index of its tile (0: air, undecided or out of the map)."""
    per_variant = np.array(_codes(run), dtype=np.int64)[run.tiled.tile_of]
    return np.where(values >= 0, per_variant[np.maximum(values, 0)], 0)


def written_files(run: WfcRun, values: np.ndarray, stem: str, shared: str) -> dict:
    """The files `write:` asks for: the output's, named `stem`..., and those every output of
    the run shares (a Tiled tileset), named `shared`..."""
    files = {}
    if "csv" in run.extra:
        files[f"{stem}.csv"] = write_csv(values, run.topology.shape).encode()
    if "tmx" in run.extra:
        files.update(write_tmx(run, values, stem, shared))
    return files
