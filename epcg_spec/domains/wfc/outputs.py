"""The files one output writes, by grid: square PNG; hex PNG and SVG; cube isometric PNG and
.vox; and what `write:` asks for besides (csv, tmx)."""

from __future__ import annotations

import numpy as np

from .formats_csv import write_csv
from .formats_tmx import write_tmx
from .formats_vox import write_vox
from .model import WfcRun
from .render import BAND_PIXELS, BAND_VALUES, pixels, png_bytes
from .render_worlds import hex_png, hex_size, hex_svg, iso_png, iso_size, tile_colors
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


PICTURE_BYTES = 14
"""Bytes a pixel of a picture holds while it is drawn and written: Pillow's image (4), numpy's
copy (3), Pillow's copy of that for the PNG (4) and the PNG (3 at most)."""


def picture_memory(run: WfcRun) -> int:
    """Bytes an output's pictures hold at the peak while they are drawn, from the sizes alone."""
    grid = run.topology.grid
    if grid == "hex":
        width, height = hex_size(run.topology)
        return width * height * PICTURE_BYTES
    if grid == "cube":
        width, height = iso_size((run.width, run.height, run.depth))
        return width * height * PICTURE_BYTES
    columns, rows = run.grid
    if run.tiled is not None:  # and a band of rows' means (float64) and its reshaped copy
        size = run.tiled.images.shape[1]
        pixels = (rows * size) * (columns * size)
        band = max(min(BAND_PIXELS, pixels), columns * size * size)
        return pixels * PICTURE_BYTES + band * 48
    # overlapping: per pixel three colour sums, a count and the three means (int64); a band
    # of rows' candidates and their colour sums (int64)
    held = min(BAND_VALUES, run.cells * run.values)
    band = held + held // run.values * len(run.patterns.colors)
    return run.width * run.height * (PICTURE_BYTES + 56) + band * 8


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
