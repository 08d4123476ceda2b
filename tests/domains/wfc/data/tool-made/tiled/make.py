"""Make the Tiled fixtures: maps drawn here as Tiled JSON, saved as .tmx/.tsx by Tiled itself.

Run from anywhere with Debian's `tiled` installed (1.8.2 made the files here):
`python tests/domains/wfc/data/tool-made/tiled/make.py`. It writes `terrain.png` (four plain
8 x 8 tiles), has `tiled --export-tileset` turn a JSON tileset into `terrain.tsx` and
`tiled --export-map` turn each JSON map into a `.tmx`, and records in `expected.json` the
tile ids every layer was given, which the tests compare with what is read from Tiled's files.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import subprocess
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).parent
NAMES = ["sea", "sand", "grass", "forest"]
COLOURS = [(40, 90, 200), (230, 210, 140), (90, 180, 70), (20, 100, 40)]
TILE = 8
FLIP_X = 1 << 31


def hex_distance(layout: str, a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two cells of an odd-staggered hex map (offset -> cube coordinates)."""

    def cube(x: int, y: int) -> tuple[int, int]:
        if layout == "pointy":  # odd rows shifted right
            return x - (y - (y & 1)) // 2, y
        return x, y - (x - (x & 1)) // 2  # flat: odd columns shifted down

    (q1, r1), (q2, r2) = cube(*a), cube(*b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


def islands(layout: str, columns: int, rows: int) -> np.ndarray:
    """Two islands: the terrain rises one step (sea, sand, grass, forest) every two cells
    inland, so neighbouring cells differ by at most one step. Gids 1..4, rows x columns."""
    centres = [(columns // 3, rows // 3), (2 * columns // 3 + 1, 2 * rows // 3)]
    grid = np.zeros((rows, columns), dtype=np.int64)
    for y in range(rows):
        for x in range(columns):
            if layout == "square":
                d = min(max(abs(x - cx), abs(y - cy)) for cx, cy in centres)
            else:
                d = min(hex_distance(layout, (x, y), c) for c in centres)
            grid[y, x] = 1 + min(3, max(0, (7 - d) // 2))
    return grid


def layer(name: str, ident: int, gids: np.ndarray, encoding: str) -> dict:
    rows, columns = gids.shape
    entry = {"id": ident, "name": name, "type": "tilelayer", "width": columns, "height": rows,
             "x": 0, "y": 0, "opacity": 1, "visible": True}  # fmt: skip
    flat = [int(g) for g in gids.ravel()]
    if encoding == "csv":
        return {**entry, "data": flat}
    raw = np.array(flat, dtype="<u4").tobytes()
    packed = {"base64": raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw, mtime=0)}
    entry.update(encoding="base64", data=base64.b64encode(packed[encoding]).decode())
    return entry if encoding == "base64" else {**entry, "compression": encoding}


def tiled_map(layout: str, layers: list[dict], tileset: dict) -> dict:
    rows, columns = layers[0]["height"], layers[0]["width"]
    shape = {"orientation": "orthogonal"}
    if layout != "square":
        shape = {"orientation": "hexagonal", "hexsidelength": TILE // 2, "staggerindex": "odd",
                 "staggeraxis": "y" if layout == "pointy" else "x"}  # fmt: skip
    return {"type": "map", "version": "1.8", "tiledversion": "1.8.2", **shape,
            "renderorder": "right-down", "width": columns, "height": rows, "tilewidth": TILE,
            "tileheight": TILE, "infinite": False, "nextlayerid": len(layers) + 1,
            "nextobjectid": 1, "compressionlevel": -1, "layers": layers,
            "tilesets": [tileset]}  # fmt: skip


def main() -> None:
    atlas = np.zeros((2 * TILE, 2 * TILE, 3), dtype=np.uint8)
    for i, colour in enumerate(COLOURS):
        row, column = divmod(i, 2)
        atlas[row * TILE : (row + 1) * TILE, column * TILE : (column + 1) * TILE] = colour
    Image.fromarray(atlas).save(HERE / "terrain.png")
    tileset = {"type": "tileset", "version": "1.8", "tiledversion": "1.8.2", "name": "terrain",
               "tilewidth": TILE, "tileheight": TILE, "tilecount": 4, "columns": 2,
               "margin": 0, "spacing": 0, "image": "terrain.png", "imagewidth": 2 * TILE,
               "imageheight": 2 * TILE,
               "tiles": [{"id": i, "type": name} for i, name in enumerate(NAMES)]}  # fmt: skip
    embedded = {**tileset, "firstgid": 1}
    del embedded["type"], embedded["version"], embedded["tiledversion"]
    external = {"firstgid": 1, "source": "terrain.tsx"}
    square = islands("square", 14, 11)
    marks = np.zeros_like(square)
    marks[2, 3], marks[5, 9], marks[8, 1] = 4, 4, 2
    flipped = square.copy()
    flipped[4, 6] |= FLIP_X
    maps = {  # name: (layout, [(layer, gids, encoding)], tileset)
        "square-csv": ("square", [("ground", square, "csv"), ("marks", marks, "csv")], external),
        "square-base64": ("square", [("ground", square.T.copy(), "base64")], embedded),
        "hex-pointy-zlib": ("pointy", [("ground", islands("pointy", 20, 16), "zlib")], embedded),
        "hex-flat-gzip": ("flat", [("ground", islands("flat", 15, 12), "gzip")], external),
        "square-flipped": ("square", [("ground", flipped, "csv")], external),
    }
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    source = HERE / "terrain.json"  # the JSON sources lie beside, so Tiled's paths are local
    source.write_text(json.dumps(tileset))
    tiled = ["tiled", "--export-tileset", "tsx", source, HERE / "terrain.tsx"]
    subprocess.run(tiled, check=True, env=env)
    source.unlink()
    expected = {}
    for name, (layout, layers, ts) in maps.items():
        entries = [layer(n, i + 1, g, enc) for i, (n, g, enc) in enumerate(layers)]
        source = HERE / f"{name}.json"
        source.write_text(json.dumps(tiled_map(layout, entries, ts)))
        subprocess.run(["tiled", "--export-map", "tmx", source, HERE / f"{name}.tmx"],
                       check=True, env=env)  # fmt: skip
        source.unlink()
        columns, rows = layers[0][1].shape[::-1]
        expected[f"{name}.tmx"] = {
            "layout": layout, "shape": [int(columns), int(rows)],
            "layers": {n: g.ravel().tolist() for n, g, _ in layers},
        }  # fmt: skip
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main()
