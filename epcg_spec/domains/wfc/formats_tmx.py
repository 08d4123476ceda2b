"""Tiled maps (.tmx) and tilesets (.tsx): read with PyTMX, written by us.

Reading takes what WFC needs from a map: its grid (orthogonal, or hexagonal with odd stagger
index: staggeraxis y is our pointy layout, x our flat one), its tile layers as global tile ids
(0: no tile), each used tile's `type` (or `class`, as Tiled 1.9 wrote it) and the mean colour
of its image (atlas and image-collection tilesets, embedded or external .tsx). PyTMX decodes
the layers (CSV, base64 plain, zlib or gzip) and the tilesets; before it runs, every file it
will open is read by our hardened XML parser (no entity declarations, bounded size and depth),
so what is wrong is reported where it stands: a tileset or image path outside the spec's
folder (or the map's), zstd data, infinite maps, compressed data that would grow past the
map, atlases whose stated sizes ask for more than MAX_TILES tiles, flipped or rotated tiles.
Layers written as XML <tile> elements (which PyTMX no longer reads) are handed to it as CSV.

Writing gives a map the editor opens: `{stem}.tmx` (one CSV layer, gid = variant + 1, 0 where
undecided or masked) naming its tileset, `{tileset}.tsx` (one tile per variant, its `type` the
variant's name) with `{tileset}-tiles.png` (the variants' pictures: square tiles as drawn, hexes
as hexes). The tileset depends on the run alone, so the outputs of a run share one.
"""

from __future__ import annotations

import base64
import io
import logging
import math
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree
from xml.sax.saxutils import quoteattr

import numpy as np
from PIL import Image

from ...core.errors import BuildError, Diagnostic, Pos, SpecError
from ...core.files import NotReadable, contained, read_bounded, unopenable
from ...core.inputs import note as note_input
from .formats import Element, parse_xml
from .inputs import TooLarge, opened
from .model import WfcRun
from .render_worlds import RADIUS, hex_tile

FLIPS = 0xF0000000  # Tiled's flip and rotation bits (bit 28: a hex tile turned by 120 degrees)
MAX_BYTES = 1 << 24  # a map and the tilesets it names (each time it names one), together
MAX_CELLS = 1 << 20  # so is a map of more cells
MAX_TILES = 1 << 16  # the tiles of the map's atlases together
ATLAS_COLUMNS = 8
TILED_VERSION = ('version="1.10"', 'tiledversion="1.10.2"')
WINDOW_BITS = {"zlib": 15, "gzip": 31}


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


def _int(source: str, element: Element, key: str) -> int:
    try:
        return int(element.attrs[key])
    except (KeyError, ValueError):
        raise _fail(source, element, f"<{element.tag}> needs a whole number '{key}'") from None


def _walk(element: Element):
    yield element
    for child in element.children:
        yield from _walk(child)


@dataclass
class _Budget:
    """What a map and its tilesets may still ask for: bytes to parse, atlas tiles to cut."""

    bytes: int = MAX_BYTES
    tiles: int = MAX_TILES


def _parse(file: Path, budget: _Budget, where: tuple[str, Element] | None = None) -> Element:
    """A .tmx or .tsx file's elements; refused (at `where`, else at its start) when it would
    take the bytes read past the budget."""
    budget.bytes -= file.stat().st_size
    if budget.bytes < 0:
        message = f"the map and its tilesets are larger than {MAX_BYTES >> 20} MiB together"
        if where is None:
            raise SpecError(Diagnostic(Pos(str(file), 1, 1), message))
        raise _fail(*where, message)
    try:
        data = read_bounded(file, MAX_BYTES)
    except NotReadable as exc:
        if where is None:
            raise SpecError(Diagnostic(Pos(str(file), 1, 1), str(exc))) from None
        raise _fail(*where, str(exc)) from None
    return parse_xml(data.decode(errors="replace"), str(file))


def read_tmx(path: Path, folder: Path | None = None) -> TmxMap:
    """The map at `path`, its layers decoded and its tiles named and coloured. Tilesets and
    images it names must lie inside `folder` (the spec's) or the map's own folder."""
    source = str(path)
    budget = _Budget()
    root = _parse(path, budget)
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
    if min(columns, rows) < 1 or columns * rows > MAX_CELLS:
        raise _fail(source, root, f"a map has 1 to {MAX_CELLS} cells, this one {columns * rows}")
    roots = [path.parent] + ([folder] if folder is not None else [])
    layers = [e for e in _walk(root) if e.tag == "layer"]
    if not layers:
        raise _fail(source, root, "the map has no tile layer")
    for layer in layers:
        _check_data(source, layer, columns * rows)
    _check_files(source, root, path.parent, roots, budget)
    tiled, tile_layers = _pytmx(source, root, path)
    return _collect(source, tiled, tile_layers, layers, TmxMap(layout, (columns, rows)))


def _check_data(source: str, layer: Element, cells: int) -> None:
    """A layer's <data> is one PyTMX decodes to at most `cells` ids (XML tiles become CSV)."""
    data = layer.one("data")
    if data is None:
        raise _fail(source, layer, "this layer has no <data>")
    if data.all("chunk"):
        raise _fail(source, data, "infinite maps (chunked layers) are not read")
    encoding, compression = data.attrs.get("encoding"), data.attrs.get("compression") or None
    if encoding is None:
        gids = [_int(source, t, "gid") if "gid" in t.attrs else 0 for t in data.all("tile")]
        data.text = ",".join(map(str, gids))
        data.attrs["encoding"], data.children = "csv", []
    elif encoding == "base64" and compression is not None:
        if compression not in WINDOW_BITS:
            raise _fail(
                source, data, f"{compression} compression is not read", "save as CSV or zlib"
            )
        try:
            stream = zlib.decompressobj(WINDOW_BITS[compression])
            raw = stream.decompress(base64.b64decode(data.text), 4 * cells + 1)
            complete = stream.eof and not stream.unused_data
        except (ValueError, zlib.error):  # binascii.Error, and text that is not ASCII
            complete = False
        if not complete or len(raw) > 4 * cells:
            raise _fail(source, data, f"the {compression} data is broken or holds more than "
                        f"the map's {cells} cells")  # fmt: skip
    elif encoding not in ("csv", "base64"):
        raise _fail(source, data, f"unknown layer encoding {encoding!r}", "save as CSV")


def _inside(source: str, element: Element, file: Path, roots: list[Path]) -> Path:
    """`file` resolved, checked to lie inside one of `roots` (and to be a name a file can have)."""
    if why := unopenable(file):
        raise _fail(source, element, why)
    for root in roots:
        try:
            return contained(root, file)
        except BuildError:
            continue
    raise _fail(
        source,
        element,
        f"{file} lies outside {' and '.join(str(r.resolve()) for r in roots)}",
        "keep tilesets and images beside the map or the spec",
    )


def _check_files(
    source: str, root: Element, folder: Path, roots: list[Path], budget: _Budget
) -> None:
    """Every tileset and image the map names lies inside `roots`; .tsx files parse."""
    for element in _walk(root):
        if element.tag == "image" and element.attrs.get("source"):  # may be missing: stand-ins
            _inside(source, element, folder / element.attrs["source"], roots)
        if element.tag == "tileset" and "source" in element.attrs:
            if root.tag != "map":
                raise _fail(source, element, "a tileset file names no other tileset")
            name = element.attrs["source"]
            if not name.lower().endswith(".tsx"):
                raise _fail(source, element, f"{name} is not read", "use a .tsx tileset")
            file = _inside(source, element, folder / name, roots)
            if not file.exists():
                raise _fail(source, element, f"no tileset at {file}")
            tileset = _parse(file, budget, (source, element))
            if tileset.tag != "tileset":
                raise _fail(str(file), tileset, "a Tiled tileset's root is <tileset>")
            _check_files(str(file), tileset, file.parent, roots, budget)
        atlas = element.one("image") if element.tag == "tileset" else None
        if atlas is not None:
            _check_atlas(source, element, atlas, budget)


def _check_atlas(source: str, tileset: Element, atlas: Element, budget: _Budget) -> None:
    """PyTMX cuts an atlas into tiles by its stated size: sizes it can cut, and at most
    MAX_TILES tiles over all atlases (else a few bytes could ask for billions)."""
    sizes = {key: _int(source, atlas, key) for key in ("width", "height")}
    for key in ("tilewidth", "tileheight", "margin", "spacing"):
        sizes[key] = _int(source, tileset, key) if key in tileset.attrs else 0
    if min(sizes.values()) < 0 or min(sizes["tilewidth"], sizes["tileheight"]) < 1:
        raise _fail(source, tileset, "a tileset's tile sizes are whole numbers from 1 up, "
                    "its margin, spacing and image size from 0")  # fmt: skip
    across = (sizes["width"] - sizes["margin"]) // (sizes["tilewidth"] + sizes["spacing"]) + 1
    down = (sizes["height"] - sizes["margin"]) // (sizes["tileheight"] + sizes["spacing"]) + 1
    budget.tiles -= across * down
    if budget.tiles < 0:
        raise _fail(source, atlas, f"the map's atlases hold more than {MAX_TILES} tiles")


def _etree(element: Element) -> ElementTree.Element:
    node = ElementTree.Element(element.tag, element.attrs)
    node.text = element.text
    node.extend(_etree(child) for child in element.children)
    return node


def _pytmx(source: str, root: Element, path: Path) -> tuple:
    """The checked map read by PyTMX (tile pictures as mean colours or None), its tile layers."""
    # PyTMX logs what we report as located errors, and on import that pygame is missing
    logging.getLogger("pytmx").setLevel(logging.CRITICAL)
    import pytmx

    loader = _colour_loader()
    tiled = pytmx.TiledMap(image_loader=loader, load_all=False, allow_duplicate_names=True)
    tiled.filename = str(path)
    try:
        tiled.parse_xml(_etree(root))
    except Exception as error:  # PyTMX raises bare Exception, ValueError, KeyError, ...
        raise _fail(source, root, f"PyTMX could not read the map: {error}") from None
    return tiled, [layer for layer in tiled.layers if isinstance(layer, pytmx.TiledTileLayer)]


def _collect(source: str, tiled, tile_layers, layers: list[Element], out: TmxMap) -> TmxMap:
    """Tiled's gids per layer (flipped or rotated tiles refused), names and colours."""
    columns, rows = out.shape
    gids = np.zeros(tiled.maxgid, dtype=object)  # PyTMX's gid -> Tiled's gid with its flips
    for (gid, flags), mine in tiled.imagemap.items():
        if not gid:
            continue  # PyTMX's entry for "no tile"
        gids[mine[0]] = gid | sum(bit << (31 - i) for i, bit in enumerate(flags) if bit)
    for element, layer in zip(layers, tile_layers, strict=True):
        data = element.one("data")
        flat = gids[np.array([g for row in layer.data for g in row], dtype=np.int64)]
        if len(flat) != columns * rows:
            count = f"the layer holds {len(flat)} tiles, the map {columns * rows} cells"
            raise _fail(source, data, count)
        bad = np.flatnonzero((flat < 0) | (flat >= 1 << 32) | (flat & FLIPS != 0))
        if len(bad):
            y, x = divmod(int(bad[0]), columns)
            if 0 <= flat[bad[0]] < 1 << 32:
                raise _fail(
                    source,
                    data,
                    f"the tile at [{x}, {y}] is flipped or rotated, which is not read",
                    "draw the example without flips; WFC makes the rotations itself",
                )
            raise _fail(source, data, f"the tile at [{x}, {y}] has no tile id: {flat[bad[0]]}")
        name = layer.name if layer.name is not None else f"layer {len(out.layers)}"
        out.layers[name] = flat.astype(np.int64).reshape(rows, columns)
    used = set().union(*(set(np.unique(g).tolist()) for g in out.layers.values())) - {0}
    for (gid, flags), mine in tiled.imagemap.items():
        if gid not in used or any(flags):
            continue
        mine = mine[0]
        properties = tiled.tile_properties.get(mine, {})
        name = properties.get("type") or properties.get("class")
        if name:
            out.names[gid] = name
        if tiled.images[mine] is not None:
            out.colors[gid] = tiled.images[mine]
    return out


def _colour_loader():
    """PyTMX's image loader: each tile's picture as the mean colour of its opaque pixels; an
    image is read once, and only when a tile of it is used."""
    pictures: dict[str, np.ndarray | None] = {}

    def loader(filename: str, _colorkey, **_):
        def colour(rect=None, _flags=None) -> tuple[int, int, int] | None:
            if filename not in pictures:
                pictures[filename] = _picture(Path(filename))
            part = pictures[filename]
            if part is not None and rect is not None:
                x, y, width, height = rect
                part = part[y : y + height, x : x + width]
            if part is None or not part.size:
                return None
            opaque = part[part[:, :, 3] > 0] if (part[:, :, 3] > 0).any() else part.reshape(-1, 4)
            return tuple(int(c) for c in opaque[:, :3].mean(axis=0))

        return colour

    return loader


def _picture(file: Path) -> np.ndarray | None:
    """An image as RGBA, or None if it cannot be read or is over inputs.MAX_PIXELS (the tiles then
    get stand-in colours)."""
    try:
        with opened(read_bounded(file)) as image:
            return np.asarray(image.convert("RGBA"))
    except FileNotFoundError:
        note_input(file, None)  # part of the run all the same: adding it changes the tiles
        return None
    except (OSError, TooLarge):
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


def write_tmx(run: WfcRun, values: np.ndarray, stem: str, tileset: str) -> dict[str, bytes]:
    """The output as a Tiled map `stem`.tmx, and the run's tileset `tileset`.tsx with its
    picture (the same bytes for every output of the run)."""
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
        f"<tileset {TILED_VERSION[0]} {TILED_VERSION[1]} name={quoteattr(tileset)} "
        f'tilewidth="{width}" tileheight="{height}" tilecount="{count}" columns="{across}">',
        f' <image source={quoteattr(tileset + "-tiles.png")} width="{atlas.shape[1]}" '
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
        f' <tileset firstgid="1" source={quoteattr(tileset + ".tsx")}/>',
        f' <layer id="1" name="wfc" width="{columns}" height="{rows}">',
        '  <data encoding="csv">',
        data,
        "</data>",
        " </layer>",
        "</map>",
    ]
    return {
        f"{stem}.tmx": ("\n".join(tmx) + "\n").encode(),
        f"{tileset}.tsx": ("\n".join(tsx) + "\n").encode(),
        f"{tileset}-tiles.png": buffer_png,
    }


def _rgba_png(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), "RGBA").save(buffer, "PNG")
    return buffer.getvalue()
