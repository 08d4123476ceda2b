"""Tiled maps (.tmx) and tilesets (.tsx), read with the stdlib XML parser and written back.

Reading takes what WFC needs from a map: its grid (orthogonal, or hexagonal with odd stagger
index: staggeraxis y is our pointy layout, x our flat one), its tile layers as global tile ids
(0: no tile; layer data as XML tiles, CSV, or base64 plain, zlib or gzip), each used tile's
`type` (or `class`, as Tiled 1.9 wrote it) and the mean colour of its image (atlas tilesets
and image-collection tilesets, embedded or external .tsx). Flipped or rotated tiles, infinite
maps and zstd data are refused with a located error. PyTMX was not used: it reports no source
positions, writes nothing, and we need only this small part of the format.

Writing gives a map the editor opens: `{stem}.tmx` (one CSV layer, gid = variant + 1, 0 where
undecided or masked), `{stem}.tsx` (one tile per variant, its `type` the variant's name) and
`{stem}-tiles.png` (the variants' pictures: square tiles as drawn, hexes as hexes).
"""

from __future__ import annotations

import base64
import gzip
import io
import math
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

import numpy as np
from PIL import Image

from ...core.errors import Diagnostic, Pos, SpecError
from .formats import Element, parse_xml
from .model import WfcRun
from .render_worlds import RADIUS, hex_tile

FLAGS = 0xF0000000
ATLAS_COLUMNS = 8
TILED_VERSION = ('version="1.10"', 'tiledversion="1.10.2"')


@dataclass
class TmxMap:
    """A Tiled map as WFC reads it."""

    layout: str  # square | pointy | flat
    shape: tuple[int, int]  # columns, rows
    layers: dict[str, np.ndarray] = field(default_factory=dict)  # name -> (rows, columns) gids
    names: dict[int, str] = field(default_factory=dict)  # gid -> its tile's type/class
    colors: dict[int, tuple[int, int, int]] = field(default_factory=dict)


def _fail(source: str, element: Element, message: str, hint: str = "") -> SpecError:
    return SpecError(Diagnostic(Pos(source, element.line, element.col), message, hint))


def _int(source: str, element: Element, key: str, default: int | None = None) -> int:
    text = element.attrs.get(key)
    if text is None and default is not None:
        return default
    try:
        return int(text)
    except (TypeError, ValueError):
        raise _fail(source, element, f"<{element.tag}> needs a whole number '{key}'") from None


def read_tmx(path: Path) -> TmxMap:
    """The map at `path`, its layers decoded and its tiles named and coloured."""
    source = str(path)
    root = parse_xml(path.read_text(), source)
    if root.tag != "map":
        raise _fail(source, root, "a Tiled map's root is <map>")
    orientation = root.attrs.get("orientation", "orthogonal")
    if root.attrs.get("infinite", "0") == "1":
        raise _fail(source, root, "infinite maps are not read", "save the map with a fixed size")
    if orientation == "orthogonal":
        layout = "square"
    elif orientation == "hexagonal":
        if root.attrs.get("staggerindex", "odd") != "odd":
            raise _fail(source, root, "hex maps are read with staggerindex odd")
        layout = "pointy" if root.attrs.get("staggeraxis", "y") == "y" else "flat"
    else:
        raise _fail(
            source, root, f"{orientation} maps are not read", "use orthogonal or hexagonal maps"
        )
    columns, rows = _int(source, root, "width"), _int(source, root, "height")
    out = TmxMap(layout, (columns, rows))
    for layer in root.all("layer"):
        data = layer.one("data")
        if data is None:
            raise _fail(source, layer, "this layer has no <data>")
        gids = _decode(source, data, columns * rows)
        flipped = np.flatnonzero(gids & FLAGS)
        if len(flipped):
            y, x = divmod(int(flipped[0]), columns)
            raise _fail(
                source,
                data,
                f"the tile at [{x}, {y}] is flipped or rotated, which is not read",
                "draw the example without flips; WFC makes the rotations itself",
            )
        out.layers[layer.attrs.get("name", f"layer {len(out.layers)}")] = gids.reshape(
            rows, columns
        ).astype(np.int64)
    if not out.layers:
        raise _fail(source, root, "the map has no tile layer")
    used = set().union(*(set(np.unique(g)) for g in out.layers.values())) - {0}
    for tileset in root.all("tileset"):
        _read_tileset(path, tileset, used, out)
    return out


def _decode(source: str, data: Element, cells: int) -> np.ndarray:
    """A layer's <data> as `cells` global ids."""
    encoding, compression = data.attrs.get("encoding"), data.attrs.get("compression")
    if data.all("chunk"):
        raise _fail(source, data, "infinite maps (chunked layers) are not read")
    if encoding is None:
        gids = [_int(source, t, "gid", 0) for t in data.all("tile")]
    elif encoding == "csv":
        try:
            gids = [int(x) for x in data.text.replace(",", " ").split()]
        except ValueError:
            raise _fail(source, data, "the CSV layer data holds something not a number") from None
    elif encoding == "base64":
        raw = base64.b64decode(data.text.strip())
        if compression == "zlib":
            raw = zlib.decompress(raw)
        elif compression == "gzip":
            raw = gzip.decompress(raw)
        elif compression is not None:
            raise _fail(
                source, data, f"{compression} compression is not read", "save as CSV or zlib"
            )
        gids = np.frombuffer(raw, "<u4")
    else:
        raise _fail(source, data, f"unknown layer encoding {encoding!r}")
    gids = np.asarray(gids, dtype=np.uint64)
    if len(gids) != cells:
        raise _fail(source, data, f"the layer holds {len(gids)} tiles, the map {cells} cells")
    return gids


def _read_tileset(path: Path, element: Element, used: set[int], out: TmxMap) -> None:
    """Names and colours of the used tiles of one tileset (embedded or a .tsx file)."""
    first = _int(str(path), element, "firstgid")
    folder, source, tileset = path.parent, str(path), element
    if "source" in element.attrs:
        file = (path.parent / element.attrs["source"]).resolve()
        if not file.exists():
            raise _fail(source, element, f"no tileset at {file}")
        source, folder = str(file), file.parent
        tileset = parse_xml(file.read_text(), source)
    count = _int(source, tileset, "tilecount", 1 << 30)
    mine = sorted(g for g in used if first <= g < first + count)
    tiles = {_int(source, t, "id"): t for t in tileset.all("tile")}
    atlas = None
    image = tileset.one("image")
    if image is not None:
        atlas = _picture(folder / image.attrs.get("source", ""))
    width, height = _int(source, tileset, "tilewidth", 1), _int(source, tileset, "tileheight", 1)
    margin, spacing = _int(source, tileset, "margin", 0), _int(source, tileset, "spacing", 0)
    columns = _int(source, tileset, "columns", 1)
    for gid in mine:
        local = gid - first
        tile = tiles.get(local)
        if tile is not None:
            name = tile.attrs.get("type") or tile.attrs.get("class")
            if name:
                out.names[gid] = name
        picture = None
        if tile is not None and tile.one("image") is not None:
            picture = _picture(folder / tile.one("image").attrs.get("source", ""))
        elif atlas is not None:
            row, column = divmod(local, columns)
            x, y = margin + column * (width + spacing), margin + row * (height + spacing)
            picture = atlas[y : y + height, x : x + width]
        if picture is not None and picture.size:
            opaque = picture[picture[:, :, 3] > 0] if (picture[:, :, 3] > 0).any() else picture
            out.colors[gid] = tuple(int(c) for c in opaque[:, :3].mean(axis=0))


def _picture(file: Path) -> np.ndarray | None:
    """An image as RGBA, or None if it cannot be read (the tiles then get stand-in colours)."""
    try:
        with Image.open(file) as image:
            return np.asarray(image.convert("RGBA"))
    except OSError:
        return None


# ---------------------------------------------------------------- writing


def _hex_size(layout: str, radius: int) -> tuple[int, int]:
    """Tile width and height of a hex of circumradius `radius` in Tiled's terms."""
    across = round(math.sqrt(3) * radius)
    return (across, 2 * radius) if layout == "pointy" else (2 * radius, across)


def variant_pictures(run: WfcRun) -> np.ndarray:
    """(variants, height, width, 4): the picture of every variant as a Tiled tile."""
    if run.topology.grid == "square":
        images = run.tiled.images
        alpha = np.full((*images.shape[:3], 1), 255, dtype=np.uint8)
        return np.concatenate([images, alpha], axis=3)
    size = _hex_size(run.topology.layout, RADIUS)
    return np.stack([hex_tile(run, v, size) for v in range(run.values)])


def write_tmx(run: WfcRun, values: np.ndarray, stem: str) -> dict[str, bytes]:
    """The output as a Tiled map, its tileset and the tileset's picture."""
    columns, rows, _ = run.topology.shape
    pictures = variant_pictures(run)
    count, height, width = pictures.shape[:3]
    across = min(count, ATLAS_COLUMNS)
    down = -(-count // across)
    atlas = np.zeros((down * height, across * width, 4), dtype=np.uint8)
    for v in range(count):
        row, column = divmod(v, across)
        atlas[row * height : (row + 1) * height, column * width : (column + 1) * width] = pictures[
            v
        ]
    buffer_png = _rgba_png(atlas)
    tsx = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f"<tileset {TILED_VERSION[0]} {TILED_VERSION[1]} name={quoteattr(stem)} "
        f'tilewidth="{width}" tileheight="{height}" tilecount="{count}" columns="{across}">',
        f' <image source={quoteattr(stem + "-tiles.png")} width="{atlas.shape[1]}" '
        f'height="{atlas.shape[0]}"/>',
        *(f' <tile id="{v}" type={quoteattr(name)}/>' for v, name in enumerate(run.tiled.names)),
        "</tileset>",
    ]
    if run.topology.grid == "hex":
        axis = "y" if run.topology.layout == "pointy" else "x"
        shape = (
            f'orientation="hexagonal" renderorder="right-down" width="{columns}" '
            f'height="{rows}" tilewidth="{width}" tileheight="{height}" '
            f'hexsidelength="{RADIUS}" staggeraxis="{axis}" staggerindex="odd"'
        )
    else:
        shape = (
            f'orientation="orthogonal" renderorder="right-down" width="{columns}" '
            f'height="{rows}" tilewidth="{width}" tileheight="{height}"'
        )
    gids = np.where(values >= 0, values + 1, 0).reshape(rows, columns)
    data = "\n".join(
        ",".join(map(str, row)) + ("," if y + 1 < rows else "") for y, row in enumerate(gids)
    )
    tmx = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map {TILED_VERSION[0]} {TILED_VERSION[1]} {shape} infinite="0" '
        'nextlayerid="2" nextobjectid="1">',
        f' <tileset firstgid="1" source={quoteattr(stem + ".tsx")}/>',
        f' <layer id="1" name="wfc" width="{columns}" height="{rows}">',
        '  <data encoding="csv">',
        data,
        "</data>",
        " </layer>",
        "</map>",
    ]
    return {
        f"{stem}.tmx": ("\n".join(tmx) + "\n").encode(),
        f"{stem}.tsx": ("\n".join(tsx) + "\n").encode(),
        f"{stem}-tiles.png": buffer_png,
    }


def _rgba_png(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), "RGBA").save(buffer, "PNG")
    return buffer.getvalue()
