"""A schema-valid `kind: wfc` document to a WfcSpec, every problem located in its source."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from ...core.errors import SpecError, did_you_mean
from ...core.files import NotReadable, read_bounded, unopenable
from ...core.sizes import counted, digits_value
from ...spec.document import Document
from ...spec.document import Path as DocPath
from ...spec.load import read_text
from .constraints import AXES, MIRRORS, max_consecutive, mirror, mirror_element, separation
from .examples import learn, read_map, stand_in
from .formats import read_tileset
from .formats_vox import VOX_SIDE, NotVox, read_vox
from .hexpatterns import HexPatterns, extract_hex, sample_values
from .inputs import Problems, outside, read_image
from .masks import read_mask
from .model import DEFAULT_SIZE, Connection, Count, Distance, Restriction, WfcRun, WfcSpec
from .orbits import (
    add_label_rules,
    add_world_rule,
    build_world_variants,
    labels_fit,
    letter_of,
    letters,
    variant_exits,
)
from .patterns import PatternModel, TooManyVariants, extract
from .tiles import (
    DIRECTIONS,
    TileDef,
    TiledModel,
    add_rule,
    build_variants,
    local_actions,
    rotate_exits,
)
from .topology import Topology
from .voxels import VoxelPatterns, extract_voxels

MAX_SAMPLE_PIXELS = 1 << 16
"""Pixels (or voxels) of an overlapping model's sample (256 x 256): its patterns are read at
validate, about 7 s for 300 x 300 (2-core machine), a minute for 1000 x 1000. Shipped
samples are at most 15 x 15."""

TILED_CONSTRAINTS = (
    "counts",
    "connected",
    "separation",
    "max_consecutive",
    "mirror",
    "acyclic",
    "distance",
)  # the constraint settings of a tiled run, in the order they are loaded
ONLY = {
    "overlapping": ("sample", "N", "symmetry", "periodic_input", "ground"),
    "tiled": (
        "tileset",
        "example",
        "tiles",
        "neighbors",
        "subset",
        "subsets",
        "tile_size",
        *TILED_CONSTRAINTS,
        "text_output",
        "black_background",
    ),
}
RUN_KEYS = (
    "model",
    "grid",
    "orientation",
    "rotations",
    "depth",
    "mask",
    "write",
    "width",
    "height",
    "size",
    "periodic",
    "heuristic",
    "outputs",
    "limit",
    "fixed",
    "border",
    "search",
    *ONLY["overlapping"],
    *ONLY["tiled"],
)
DEFAULT_TILE_SIZE = 8
SIDES = ("top", "bottom", "left", "right")
CUBE_SIDES = ("west", "east", "south", "north", "down", "up")  # x = 0, x = max, y, z
FROM_SIDES = "sides"  # the symmetry of a tile under `rotations: all`: read from its labels
# extra files and the grids they apply to
WRITES = {"csv": ("square", "hex", "cube"), "tmx": ("square", "hex")}


def load_wfc_spec(doc: Document, params: dict[str, Any]) -> WfcSpec:
    data = doc.data
    problems = Problems()
    folder = Path(doc.source).resolve().parent
    name = data.get("name") or Path(doc.source).stem
    if "samples" in data:
        stray = [k for k in data if k in RUN_KEYS]
        for key in stray:
            problems.add(
                doc,
                (key,),
                f"'{key}' is set both here and per entry of 'samples'",
                "move it into the entries",
            )
        problems.raise_any()
        runs = [
            _run(doc, ("samples", i), entry, folder, problems, entry.get("name") or f"{name}-{i}")
            for i, entry in enumerate(data["samples"])
        ]
    else:
        if "model" not in data:
            raise SpecError(
                doc.diag(
                    (), "the spec has no 'model'", "add 'model: tiled' or 'model: overlapping'"
                )
            )
        runs = [_run(doc, (), data, folder, problems, name)]
    problems.raise_any()
    return WfcSpec(doc, name, data.get("description", ""), [r for r in runs if r is not None])


def _run(doc, path, node, folder, problems: Problems, name: str) -> WfcRun | None:
    model = node["model"]
    other = "tiled" if model == "overlapping" else "overlapping"
    for key in ONLY[other]:
        if key in node:
            problems.add(
                doc,
                (*path, key),
                f"'{key}' applies to the {other} model, not to {model}",
                f"the {model} model takes: {', '.join(ONLY[model])}",
            )
    size = node.get("size", DEFAULT_SIZE[model])
    width, height = node.get("width", size), node.get("height", size)
    search = node.get("search") or {}
    if search.get("backtrack") is False and "max_backtracks" in search:
        problems.add(
            doc,
            (*path, "search", "max_backtracks"),
            "max_backtracks caps the backtracks of an attempt, and backtrack: false makes none "
            "(a contradiction restarts the attempt)",
            "leave out max_backtracks, or backtrack: false (0 backtracks is classic WFC too)",
        )
    layout, axes = _layout(doc, path, node, problems)
    if layout is None:
        return None
    spin = node.get("rotations", "vertical")
    if spin == "all" and (layout != "cube" or model != "tiled"):
        problems.add(
            doc,
            (*path, "rotations"),
            "'rotations: all' turns tiled-model tiles on cube grids only",
        )
        return None
    run = WfcRun(
        name=name,
        model=model,
        width=width,
        height=height,
        periodic=all(axes[:2]),
        heuristic=node.get("heuristic", "entropy"),
        outputs=node.get("outputs", 1),
        limit=node.get("limit"),
        tiled=None,
        patterns=None,
        backtrack=search.get("backtrack", True),
        max_backtracks=search.get("max_backtracks"),
        attempts=search.get("attempts", 10),
        text_output=node.get("text_output", True),
        black_background=node.get("black_background", False),
        depth=node.get("depth", size) if layout == "cube" else 1,
        path=path,
    )
    try:
        _learn(doc, path, node, folder, problems, run, layout, axes, spin)
    except TooManyVariants as exc:
        source = "sample" if model == "overlapping" else _tile_source(node)
        problems.add(doc, (*path, source) if source else path, str(exc))
    if run.tiled is None and run.patterns is None:
        return None
    columns, rows = run.grid
    bounded = run.patterns is not None and not run.periodic and layout == "cube"
    shape = (columns, rows, run.depth - run.patterns.n + 1 if bounded else run.depth)
    shown = " x ".join(map(str, shape[: 3 if layout == "cube" else 2]))
    for axis, key in enumerate(("width", "height", "depth")[: 3 if layout == "cube" else 2]):
        low = 2 if axes[axis] else 1
        if shape[axis] < low:
            problems.add(
                doc,
                (*path, key if key in node else "size"),
                f"the grid of cells is {shown}, too small",
                f"the {key} needs at least {counted(low, 'cell')}"
                + (" (it wraps)" if axes[axis] else ""),
            )
            return None
    if layout == "cube":  # its output is one .vox model
        extents = (run.width, run.height, run.depth)
        for key, extent in zip(("width", "height", "depth"), extents, strict=True):
            if extent > VOX_SIDE:
                problems.add(
                    doc,
                    (*path, key if key in node else "size"),
                    f"a cube grid is written as a MagicaVoxel .vox, at most {VOX_SIDE} voxels "
                    f"along each axis, not {extent:,}",
                    f"give a {key} of at most {VOX_SIDE}",
                )
                return None
    stagger = {"pointy": 1, "flat": 0}.get(layout)
    if stagger is not None and axes[stagger] and shape[stagger] % 2:
        problems.add(
            doc,
            (*path, "periodic"),
            f"a periodic {layout}-top hex map needs an even number of "
            f"{'rows' if stagger else 'columns'}, not {shape[stagger]}",
            "the staggered rows (or columns) must pair up across the seam",
        )
        return None
    mask = None
    if "mask" in node:
        mask = read_mask(doc, (*path, "mask"), node["mask"], shape, folder, problems)
        if mask is None:
            return None
    run.topology = Topology(layout, shape, axes, mask, spin)
    run.extra = _writes(doc, path, node, run.topology, model, problems)
    for i, item in enumerate(node.get("fixed") or []):
        with _setting(run, (*path, "fixed", i)) as at:
            _fixed(doc, at, item, run, problems)
    if "border" in node:
        with _setting(run, (*path, "border")) as at:
            _border(doc, at, node["border"], run, problems)
    if node.get("ground"):
        with _setting(run, (*path, "ground")):
            _ground(run)
    if run.tiled is None:  # the tiled-only keys below were reported above
        return run
    for i, item in enumerate(node.get("counts") or []):
        with _setting(run, (*path, "counts", i)) as at:
            _count(doc, at, item, run, problems)
    if "connected" in node:
        with _setting(run, (*path, "connected")) as at:
            _connected(doc, at, node["connected"], run, problems)
    for i, item in enumerate(node.get("separation") or []):
        with _setting(run, (*path, "separation", i)) as at:
            _separation(doc, at, item, run, problems)
    for i, item in enumerate(node.get("max_consecutive") or []):
        with _setting(run, (*path, "max_consecutive", i)) as at:
            _max_consecutive(doc, at, item, run, problems)
    for i, axis in enumerate(node.get("mirror") or []):
        with _setting(run, (*path, "mirror", i)) as at:
            _mirror(doc, at, axis, run, problems)
    if "acyclic" in node:
        with _setting(run, (*path, "acyclic")) as at:
            through = _connection(doc, at, node["acyclic"], run, problems)
            if through is not None:
                run.acyclic.append(through)
    for i, item in enumerate(node.get("distance") or []):
        with _setting(run, (*path, "distance", i)) as at:
            _distance(doc, at, item, run, problems)
    return run


@contextmanager
def _setting(run: WfcRun, at: DocPath) -> Iterator[DocPath]:
    """Mark the constraints the block adds to `run` as asked for by the setting at `at`."""
    before = {id(c) for c in run.constraints()}
    yield at
    for constraint in run.constraints():
        if id(constraint) not in before:
            constraint.at = at


# ---------------------------------------------------------------- inputs


def _layout(doc, path, node, problems: Problems):
    """(square | pointy | flat | cube, periodic per axis x, y, z), or (None, None)."""
    grid, model = node.get("grid", "square"), node["model"]
    for key, owner in (("orientation", "hex"), ("depth", "cube")):
        if key in node and grid != owner:
            problems.add(doc, (*path, key), f"'{key}' applies to {owner} grids, not {grid}")
            return None, None
    layout = node.get("orientation", "pointy") if grid == "hex" else grid
    periodic = node.get("periodic", False)
    axes = 3 if grid == "cube" else 2
    if isinstance(periodic, bool):
        return layout, (periodic, periodic, periodic and axes == 3)
    names = "x, y, z" if axes == 3 else "x, y"
    if model == "overlapping" or len(periodic) != axes:
        problems.add(
            doc,
            (*path, "periodic"),
            f"per-axis 'periodic' takes {axes} booleans ({names}) on a {grid} grid"
            if model == "tiled"
            else "the overlapping model wraps both axes or neither",
            "or one boolean for every axis",
        )
        return None, None
    return layout, (*periodic, False)[:3]


def _writes(doc, path, node, topology: Topology, model: str, problems) -> tuple[str, ...]:
    """The extra files asked for, each checked against the grid and the model."""
    out = []
    for i, what in enumerate(node.get("write") or []):
        grids = WRITES[what]
        if model == "overlapping":
            problems.add(doc, (*path, "write", i), f"'{what}' holds tile ids: tiled model only")
        elif topology.grid not in grids:
            problems.add(
                doc,
                (*path, "write", i),
                f"'{what}' files are not written for {topology.grid} grids",
                f"'{what}' is for {' and '.join(grids)} grids",
            )
        else:
            out.append(what)
    return tuple(out)


def _learn(doc, path, node, folder, problems, run: WfcRun, layout: str, axes, spin) -> None:
    """The run's patterns (overlapping) or tiles (tiled), from the files the spec names."""
    model = run.model
    if model == "overlapping" and "sample" not in node:
        kinds = {"square": "a PNG", "cube": "a MagicaVoxel .vox"}
        problems.add(
            doc,
            (*path, "model"),
            "the overlapping model learns its patterns from a sample, and none is given",
            f"add 'sample: FILE' ({kinds.get(layout, 'a hex .tmx or CSV map')}, relative to "
            "the spec), or use model: tiled",
        )
    elif model == "overlapping" and layout == "cube":
        run.patterns = _voxel_patterns(doc, path, node, folder, problems)
    elif model == "overlapping" and layout != "square":
        run.patterns = _hex_patterns(doc, path, node, folder, problems, layout)
    elif model == "overlapping":
        run.patterns = _patterns(doc, path, node, folder, problems)
    else:
        run.topology = Topology(layout, (run.width, run.height, run.depth), axes, spin=spin)
        run.tiled = _tiles(doc, path, node, folder, problems, run.topology)


def _tile_source(node: dict) -> str | None:
    """The key that names a tiled model's tiles, if one does."""
    return next((key for key in ("tileset", "tiles", "example") if key in node), None)


def _patterns(doc, path, node, folder, problems) -> PatternModel | None:
    image = read_image(doc, (*path, "sample"), node["sample"], folder, problems, MAX_SAMPLE_PIXELS)
    if image is None:
        return None
    n = node.get("N", 3)
    height, width = image.shape[:2]
    if n > min(width, height):
        problems.add(doc, (*path, "N"), f"N = {n} is larger than the {width} x {height} sample")
        return None
    return extract(image, n, node.get("symmetry", 8), node.get("periodic_input", True))


def _hex_patterns(doc, path, node, folder, problems, layout: str) -> HexPatterns | None:
    """The N x N rhombi of a hex sample map (a hexagonal .tmx or a CSV of tile ids)."""
    where = (*path, "sample")
    data = read_map(doc, where, node["sample"], folder, problems)
    if data is None:
        return None
    if data.layout not in (None, layout) or data.ids.shape[0] != 1:
        problems.add(
            doc, where, f"the sample is not a flat {layout}-top hex map", "match 'orientation'"
        )
        return None
    n, symmetry = node.get("N", 2), node.get("symmetry", 1)
    ground = node.get("ground", False)
    if ground and (layout != "pointy" or node.get("periodic", False)):
        problems.add(
            doc,
            (*path, "ground"),
            "ground on a hex grid needs pointy-top hexes and a map that does not wrap"
            if layout == "pointy"
            else "ground on flat-top hexes: their rows zigzag, so there is no straight floor",
            "give orientation: pointy and periodic: false",
        )
        return None
    if symmetry > 2:
        problems.add(
            doc,
            (*path, "symmetry"),
            f"a hex rhombus has 2 images (itself and its half turn), not {symmetry}",
            "give symmetry 1 or 2",
        )
        return None
    values, colors = sample_values(
        data.ids[0], lambda t: data.colors.get(t) or (stand_in(t) if t >= 0 else (255,) * 3)
    )
    if n > min(values.shape) - 1:
        shown = " x ".join(map(str, values.shape[::-1]))
        problems.add(doc, (*path, "N"), f"N = {n} leaves no whole rhombus in the {shown} sample")
        return None
    return extract_hex(values, colors, layout, n, symmetry, ground)


def _voxel_patterns(doc, path, node, folder, problems) -> VoxelPatterns | None:
    """The N x N x N patterns of a .vox sample (its colour indices, no voxel as one more)."""
    where = (*path, "sample")
    file = problems.named_file(doc, where, folder, node["sample"])
    if file is None:
        return None
    if file.suffix.lower() != ".vox":
        problems.add(doc, where, "a cube grid's sample is a MagicaVoxel .vox file")
        return None
    if not file.exists():
        problems.add(doc, where, f"no sample at {file}", "paths are relative to the spec's folder")
        return None
    try:
        grid, palette = read_vox(read_bounded(file))
    except NotReadable as exc:
        problems.add(doc, where, str(exc))
        return None
    except NotVox as exc:
        problems.add(doc, where, f"{file.name}: {exc}")
        return None
    if grid.size > MAX_SAMPLE_PIXELS:
        shown = " x ".join(map(str, grid.shape[::-1]))
        problems.add(
            doc,
            where,
            f"the sample is {shown} voxels, more than the {MAX_SAMPLE_PIXELS:,} a sample may have",
            "crop it",
        )
        return None
    n = node.get("N", 2)
    if n > min(grid.shape):
        shown = " x ".join(map(str, grid.shape[::-1]))
        problems.add(doc, (*path, "N"), f"N = {n} is larger than the {shown} sample")
        return None
    used = {c: palette[c] for c in np.unique(grid).tolist() if c > 0}
    return extract_voxels(grid, used, n, node.get("symmetry", 8), node.get("periodic_input", True))


def _tiles(doc, path, node, folder, problems, topology: Topology) -> TiledModel | None:
    if sum(key in node for key in ("tileset", "tiles", "example")) != 1:
        problems.add(
            doc,
            path,
            "a tiled model needs one of 'tileset' (a tileset XML), 'tiles' (inline) and "
            "'example' (a map to learn from)",
        )
        return None
    if "example" in node:
        return _example(doc, (*path, "example"), node, folder, problems, topology)
    if "tileset" in node:
        if "neighbors" in node or "subsets" in node:
            key = "neighbors" if "neighbors" in node else "subsets"
            problems.add(doc, (*path, key), f"'{key}' comes from the tileset XML here")
            return None
        file = problems.named_file(doc, (*path, "tileset"), folder, node["tileset"])
        if file is None:
            return None
        if not file.is_file():
            why = f"{file} is not a regular file" if file.exists() else f"no tileset at {file}"
            problems.add(doc, (*path, "tileset"), why)
            return None
        tile_doc = read_tileset(file, read_text(file))
        tile_path: DocPath = ()
        tile_folder = file.parent
        source = tile_doc.data
    else:
        tile_doc, tile_path, tile_folder, source = doc, path, folder, node
    subset = _subset(doc, path, node, source, problems)
    defs = _tile_defs(tile_doc, tile_path, source, tile_folder, subset, node, problems, topology)
    if defs is None:
        return None
    world = topology.grid != "square"
    if topology.spin == "all" and source.get("neighbors"):
        problems.add(
            tile_doc,
            (*tile_path, "neighbors"),
            "with 'rotations: all' tiles meet by their side labels",
            "leave out 'neighbors'",
        )
        return None
    model = build_world_variants(defs, topology) if world else build_variants(defs)
    labelled = [t.labels is not None for t in defs]
    if any(labelled):
        if not all(labelled):
            name = defs[labelled.index(False)].name
            problems.add(
                tile_doc,
                (*tile_path, "tiles"),
                f"tile '{name}' has no 'sides' while others do",
                "label every tile's sides, or none and give 'neighbors'",
            )
            return None
        add_label_rules(model, topology)
    known = {str(entry.get("name")) for entry in source.get("tiles") or []}
    for i, rule in enumerate(source.get("neighbors") or []):
        where = (*tile_path, "neighbors", i)
        sides = ("top", "bottom") if "top" in rule or "bottom" in rule else ("left", "right")
        if sides[0] == "top" and topology.grid != "cube":
            problems.add(
                tile_doc,
                (*where, "top" if "top" in rule else "bottom"),
                f"'top'/'bottom' rules stack tiles on cube grids, not on {topology.grid} grids",
                "give 'left' and 'right'",
            )
            continue
        pair = []
        for side in sides:
            text = str(rule.get(side, ""))
            name = text.split()[0] if text.split() else ""
            if name not in known:
                _unknown_tile(tile_doc, (*where, side), name, sorted(known), problems)
            elif name in model.first:
                pair.append(_variant(tile_doc, (*where, side), text, model, problems))
        if len(pair) == 2 and None not in pair:
            if not world:
                add_rule(model, pair[0], pair[1])
            else:  # left/right: b in direction 0 of a; top/bottom: b below a
                down = topology.directions.index("down") if sides[0] == "top" else 0
                add_world_rule(model, topology, pair[0], pair[1], down)
    return model  # a rule naming no tile is reported and left out: the checks below go on


def _example(doc, path, node, folder, problems, topology: Topology) -> TiledModel | None:
    """Tiles and adjacency learned from a map drawn in Tiled, MagicaVoxel or as CSV."""
    for key in ("neighbors", "subsets", "subset"):
        if key in node:
            problems.add(doc, (*path[:-1], key), f"'{key}' comes from the example map here")
            return None
    data = read_map(doc, path, node["example"], folder, problems)
    if data is None:
        return None
    if data.layout is not None and data.layout != topology.layout:
        problems.add(
            doc,
            path,
            f"the example is a {data.layout} map but the grid is {topology.layout}",
            "set 'grid' (and 'orientation') to match the example",
        )
        return None
    if data.ids.shape[0] > 1 and topology.grid != "cube":
        problems.add(doc, path, "the example has layers but the grid is flat", "use 'grid: cube'")
        return None
    if not (data.ids >= 0).any():
        problems.add(doc, path, "the example map holds no tile")
        return None
    return learn(data, topology.layout)


def _subset(doc, path, node, source, problems) -> set[str] | None:
    if "subset" not in node:
        return None
    subsets = source.get("subsets") or {}
    wanted = node["subset"]
    if wanted not in subsets:
        problems.add(
            doc,
            (*path, "subset"),
            f"the tileset has no subset '{wanted}'",
            did_you_mean(wanted, list(subsets), "subsets", enclosed=True),
        )
        return None
    return set(subsets[wanted])


def _tile_defs(doc, path, source, folder, subset, node, problems, topology: Topology):
    """The tiles to place, checked; None after a problem."""
    tiles: list[TileDef] = []
    unique = bool(source.get("unique", False))
    symmetries = letters(topology)
    if unique and topology.grid != "square":
        problems.add(doc, path, "a 'unique' tileset (one image per variant) is for square grids")
        return None
    sizes: set[tuple[int, ...]] = set()
    seen: set[str] = set()
    for i, entry in enumerate(source.get("tiles") or []):
        where = (*path, "tiles", i)
        name = entry.get("name")
        if not name or " " in str(name):
            problems.add(doc, (*where, "name"), "a tile needs a name without spaces")
            continue
        if name in seen:
            problems.add(doc, (*where, "name"), f"two tiles are named '{name}'")
            continue
        seen.add(name)
        if subset is not None and name not in subset:
            continue
        letter = entry.get("symmetry", "X")
        if topology.spin == "all":
            if "symmetry" in entry or "sides" not in entry:
                problems.add(
                    doc,
                    (*where, "symmetry" if "symmetry" in entry else "sides"),
                    "with 'rotations: all' a tile's 'sides' give its symmetry",
                    "label the six sides and leave out 'symmetry'",
                )
                continue
            letter = FROM_SIDES
        elif letter not in symmetries:
            problems.add(
                doc,
                (*where, "symmetry"),
                f"unknown symmetry {letter!r}"
                + (f" on a {topology.grid} grid" if topology.grid != "square" else ""),
                f"one of: {', '.join(symmetries)}",
            )
            continue
        weight = entry.get("weight", 1.0)
        if not isinstance(weight, int | float) or weight <= 0:
            problems.add(
                doc, (*where, "weight"), f"the weight must be a positive number, not {weight!r}"
            )
            continue
        images = _tile_images(doc, where, entry, name, letter, unique, folder, node, problems)
        if images is None:
            continue
        sizes |= {im.shape for im in images}
        air = bool(entry.get("air", False))
        if air and topology.grid != "cube":
            problems.add(doc, (*where, "air"), "'air' tiles leave voxels empty: cube grids only")
            continue
        labels = _labels(doc, where, entry, letter, topology, problems)
        if labels is False:
            continue
        tiles.append(TileDef(name, letter, float(weight), images, air, labels=labels))
    if len(sizes) > 1:
        problems.add(doc, (*path, "tiles"), f"the tile images differ in size: {sorted(sizes)}")
        return None
    if not tiles and not problems.found:
        problems.add(doc, (*path, "tiles"), "no tiles to place (check 'subset')")
        return None
    if problems.found:
        return None
    for tile in tiles:
        if tile.images[0].shape[0] != tile.images[0].shape[1]:
            problems.add(doc, (*path, "tiles"), f"tile '{tile.name}' is not square")
            return None
    return tiles


def _labels(doc, where, entry, letter: str, topology: Topology, problems):
    """A tile's side labels (None if it has none; False after a problem)."""
    if "sides" not in entry:
        return None
    if topology.grid == "square":
        problems.add(
            doc, (*where, "sides"), "side labels are for hex and cube grids", "give 'neighbors'"
        )
        return False
    labels = tuple(str(x) for x in entry["sides"])  # the schema asks for 6, as both grids have
    if letter != FROM_SIDES and not labels_fit(topology, letter, labels):
        problems.add(
            doc,
            (*where, "sides"),
            f"the sides {list(labels)} do not have symmetry {letter!r}",
            _symmetry_hint(topology, labels),
        )
        return False
    return labels


def _symmetry_hint(topology: Topology, labels: tuple[str, ...]) -> str:
    """The letter to give side labels (or the labels turned to fit a letter)."""
    fits, turned = letter_of(topology, labels)
    if fits is None:
        return "no letter names their symmetries: give symmetry: F"
    if turned is None:
        return f"they have symmetry {fits!r}: give symmetry: {fits}"
    return (
        f"they have the symmetry of {fits!r} turned: give sides {list(turned)} with "
        f"symmetry: {fits} (and its exits turned the same way)"
    )


def _tile_images(doc, where, entry, name, letter, unique, folder, node, problems):
    if "color" in entry:
        rgb = _color(doc, (*where, "color"), entry["color"], problems)
        if rgb is None:
            return None
        side = node.get("tile_size", DEFAULT_TILE_SIZE)
        return (np.broadcast_to(np.array(rgb, np.uint8), (side, side, 3)).copy(),)
    files = [entry["image"]] if "image" in entry else None
    if files is None:
        stems = [f"{name} {t}" for t in range(len(local_actions(letter)))] if unique else [name]
        files = [_find_tile(folder, stem) for stem in stems]
    images = []
    for file in files:
        image = read_image(
            doc, (*where, "image") if "image" in entry else where, str(file), folder, problems
        )
        if image is None:
            return None
        images.append(image)
    return tuple(images)


def _find_tile(folder: Path, stem: str) -> Path:
    """A tile image beside the tileset, or in the folder named after it (both layouts exist)."""
    for candidate in (
        folder / f"{stem}.png",
        *(d / f"{stem}.png" for d in sorted(folder.iterdir()) if d.is_dir()),
    ):
        if unopenable(candidate) is None and candidate.exists():
            return candidate
    return folder / f"{stem}.png"


def _color(doc, path, text, problems) -> tuple[int, int, int] | None:
    value = str(text).lstrip("#")
    if len(value) == 6:
        try:
            return tuple(int(value[k : k + 2], 16) for k in (0, 2, 4))
        except ValueError:
            pass
    problems.add(doc, path, f"{text!r} is not a colour", 'write it as "#rrggbb"')
    return None


def _variant(doc, path, text: str, model: TiledModel, problems) -> int | None:
    """'name' (variant 0) or 'name k' as a variant index."""
    parts = text.split()
    cardinality = len(model.variants(parts[0]))
    if len(parts) == 1:
        return model.first[parts[0]]
    variant = digits_value(parts[1]) if len(parts) == 2 else None
    if variant is not None and variant < cardinality:
        return model.first[parts[0]] + variant
    problems.add(
        doc,
        path,
        f"'{text}' is not a variant of '{parts[0]}'",
        f"write '{parts[0]}' or '{parts[0]} k' with k in 0..{cardinality - 1}",
    )
    return None


def _unknown_tile(doc, path, name: str, names: list[str], problems) -> None:
    hint = did_you_mean(name, names, "tiles", enclosed=True)
    problems.add(doc, path, f"unknown tile '{name}'", hint)


# ---------------------------------------------------------------- constraints


def _tile_mask(doc, path, names: list[str], run: WfcRun, problems) -> np.ndarray | None:
    """The variants named ('name': all its variants, 'name k': one) as a mask."""
    mask = np.zeros(run.values, dtype=bool)
    for i, text in enumerate(names):
        where = (*path, i) if len(names) > 1 else path
        parts = str(text).split()
        name = parts[0] if parts else ""
        if name not in run.tiled.first:
            _unknown_tile(doc, where, name, list(run.tiled.first), problems)
            return None
        if len(parts) == 1:
            mask[run.tiled.variants(name)] = True
        else:
            variant = _variant(doc, where, str(text), run.tiled, problems)
            if variant is None:
                return None
            mask[variant] = True
    return mask


def _values_of(doc, path, item, run: WfcRun, problems):
    """What a fixed/border item allows: a tile mask (tiled) or a colour index (overlapping)."""
    if run.tiled is not None:
        if "color" in item:
            problems.add(
                doc, (*path, "color"), "a tiled model fixes tiles", "use 'tile' or 'tiles'"
            )
            return None
        if ("tile" in item) == ("tiles" in item):
            problems.add(doc, path, "give exactly one of 'tile' and 'tiles'")
            return None
        key = "tile" if "tile" in item else "tiles"
        names = [item["tile"]] if key == "tile" else item["tiles"]
        return _tile_mask(doc, (*path, key), names, run, problems)
    if "color" not in item:
        problems.add(doc, path, "an overlapping model fixes colours", "use 'color: \"#rrggbb\"'")
        return None
    rgb = _color(doc, (*path, "color"), item["color"], problems)
    if rgb is None:
        return None
    matches = np.flatnonzero(np.all(run.patterns.colors == np.array(rgb, np.uint8), axis=1))
    if len(matches) == 0:
        shown = ", ".join("#" + bytes(c).hex() for c in run.patterns.colors)
        problems.add(
            doc,
            (*path, "color"),
            f"{item['color']} is not a colour of the sample",
            f"colours: {shown}",
        )
        return None
    return int(matches[0])


def _restrict_pixels(run: WfcRun, xs: np.ndarray, ys: np.ndarray, color: int, zs=None) -> None:
    """Every cell whose pattern covers one of the pixels (xs, ys) or voxels (xs, ys, zs) shows
    `color` there."""
    n, topology = run.patterns.n, run.topology
    points = np.stack([xs, ys, np.zeros_like(xs) if zs is None else zs], axis=1)
    for offset in itertools.product(range(n), repeat=2 if zs is None else 3):
        cells = points - np.array((*offset, 0)[:3])
        keep = np.ones(len(cells), dtype=bool)
        for axis in range(3):
            if topology.periodic[axis]:
                cells[:, axis] %= topology.shape[axis]
            keep &= (cells[:, axis] >= 0) & (cells[:, axis] < topology.shape[axis])
        if not np.any(keep):
            continue
        allowed = run.patterns.patterns[(slice(None), *offset[::-1])] == color
        run.restrictions.append(Restriction(np.unique(topology.index(cells[keep])), allowed))


def _apply(run: WfcRun, xs: np.ndarray, ys: np.ndarray, what, zs=None) -> None:
    """Restrict the cells (tiled), hexes or pixels and voxels (overlapping) at (xs, ys[, zs])
    to `what`: a hex shows the corner of its pattern."""
    if run.tiled is not None:
        columns, rows = run.grid
        layer = 0 if zs is None else zs * columns * rows
        run.restrictions.append(Restriction(np.unique(xs + ys * columns + layer), what))
    elif isinstance(run.patterns, HexPatterns):
        cells = np.unique(xs + ys * run.grid[0])
        run.restrictions.append(Restriction(cells, run.patterns.patterns[:, 0, 0] == what))
    else:
        _restrict_pixels(run, xs, ys, what, zs)


def _fixed(doc, path, item, run: WfcRun, problems) -> None:
    width, height = run.width, run.height
    cube = run.topology.grid == "cube"
    if "map" in item:
        _fixed_map(doc, path, item, run, problems)
        return
    allowed = ("at", "layer") if cube else ("at", "row", "column")
    where = [k for k in ("at", "row", "column", "layer") if k in item]
    if len(where) != 1 or where[0] not in allowed:
        problems.add(
            doc,
            path,
            "give exactly one of 'at: [x, y, z]' and 'layer: z' on a cube grid"
            if cube
            else "give exactly one of 'at: [x, y]', 'row: y' and 'column: x'",
        )
        return
    what = _values_of(doc, path, item, run, problems)
    if what is None:
        return
    zs = None
    if "at" in item:
        at, sizes = item["at"], (width, height, run.depth)[: 3 if cube else 2]
        if len(at) != len(sizes):
            problems.add(
                doc,
                (*path, "at"),
                f"a cell of a {run.topology.grid} grid is [{'x, y, z'[: 3 * len(sizes) - 2]}]",
            )
            return
        if not all(-n <= c < n for c, n in zip(at, sizes, strict=True)):
            problems.add(doc, (*path, "at"), *outside("at: ", at, sizes))
            return
        xs, ys = np.array([at[0] % width]), np.array([at[1] % height])
        if cube:
            zs = np.array([at[2] % run.depth])
    elif "layer" in item:
        z = item["layer"]
        if not -run.depth <= z < run.depth:
            problems.add(
                doc,
                (*path, "layer"),
                f"layer {z} is outside the {run.depth} layers",
                f"layers are 0-{run.depth - 1} (-1 is the last)",
            )
            return
        ys, xs = (a.ravel() for a in np.indices((height, width)))
        zs = np.full(len(xs), z % run.depth)
    elif "row" in item:
        y = item["row"]
        if not -height <= y < height:
            problems.add(
                doc,
                (*path, "row"),
                f"row {y} is outside the {height} rows",
                f"rows are 0-{height - 1} (-1 is the last)",
            )
            return
        xs, ys = np.arange(width), np.full(width, y % height)
    else:
        x = item["column"]
        if not -width <= x < width:
            problems.add(
                doc,
                (*path, "column"),
                f"column {x} is outside the {width} columns",
                f"columns are 0-{width - 1} (-1 is the last)",
            )
            return
        xs, ys = np.full(height, x % width), np.arange(height)
    _apply(run, xs, ys, what, zs)


def _fixed_map(doc, path, item, run: WfcRun, problems) -> None:
    """Every drawn cell of a partly drawn map holds the tile (or variant) its id names."""
    others = [k for k in item if k != "map"]
    if others or run.tiled is None:
        problems.add(
            doc,
            (*path, others[0]) if others else (*path, "map"),
            "'map' fixes tiles on its own" if others else "a map fixes tiles: tiled model only",
        )
        return
    folder = Path(doc.source).resolve().parent
    data = read_map(doc, (*path, "map"), item["map"], folder, problems)
    if data is None:
        return
    shape = run.topology.shape
    if data.shape != shape:
        problems.add(
            doc,
            (*path, "map"),
            f"the map is {' x '.join(map(str, data.shape))} cells, the grid "
            f"{' x '.join(map(str, shape))}",
        )
        return
    flat = data.ids.ravel()
    drawn = (flat >= 0) & ~np.isin(flat, list(data.air))  # a .vox's empty voxels are undrawn
    for tile in np.unique(flat[drawn]).tolist():
        name = data.name(tile)
        if name not in run.tiled.first:
            name = data.names.get(tile, name)
        mask = _tile_mask(doc, (*path, "map"), [name], run, problems)
        if mask is None:
            return
        run.restrictions.append(Restriction(np.flatnonzero(flat == tile), mask))


def _border(doc, path, item, run: WfcRun, problems) -> None:
    what = _values_of(doc, path, item, run, problems)
    if what is None:
        return
    width, height = run.width, run.height
    names = CUBE_SIDES if run.topology.grid == "cube" else SIDES
    masked = run.topology.mask is not None
    along_mask = masked and run.tiled is not None
    wanted = list(item.get("sides", (*names, "mask") if along_mask else names))
    wrong = [s for s in wanted if s not in names and s != "mask"]
    if "mask" in wanted and not masked:
        wrong.append("mask")
    if wrong:
        problems.add(
            doc,
            (*path, "sides"),
            f"'{wrong[0]}' is not a side of this {run.topology.grid} grid",
            f"sides: {', '.join(names)}{', mask (where the grid has a mask)' if masked else ''}",
        )
        return
    if "mask" in wanted:
        wanted.remove("mask")
        if run.tiled is None:
            problems.add(doc, (*path, "sides"), "a border along the mask: tiled model only")
            return
        run.restrictions.append(Restriction(run.topology.beside_mask(), what))
    if run.topology.grid == "cube":
        sizes = (width, height, run.depth)  # voxels: cells of a tiled run
        z, y, x = (a.ravel() for a in np.indices(sizes[::-1]))
        xyz = np.stack([x, y, z], axis=1)
        for side in wanted:
            axis, end = divmod(names.index(side), 2)
            on = xyz[xyz[:, axis] == (sizes[axis] - 1) * end]
            _apply(run, on[:, 0], on[:, 1], what, on[:, 2])
        return
    for side in wanted:
        if side in ("top", "bottom"):
            xs, ys = np.arange(width), np.full(width, 0 if side == "top" else height - 1)
        else:
            xs, ys = np.full(height, 0 if side == "left" else width - 1), np.arange(height)
        _apply(run, xs, ys, what)


def _ground(run: WfcRun) -> None:
    """The sample's bottom patterns fill the bottom row (cube: the floor layer) of cells, and
    appear nowhere else."""
    columns, rows = run.grid
    cells = np.arange(run.topology.cells)
    if isinstance(run.patterns, HexPatterns):
        hang = cells // columns - (run.height - run.patterns.n)
        floor = run.patterns.floor
        for k, patterns in enumerate(floor):
            allowed = np.isin(np.arange(run.values), patterns)
            run.restrictions.append(Restriction(cells[hang == k], allowed))
        ground = np.isin(np.arange(run.values), np.concatenate(floor))
        run.restrictions.append(Restriction(cells[hang < 0], ~ground))
        return
    bottom = np.zeros(run.values, dtype=bool)
    bottom[run.patterns.bottom] = True
    if run.topology.grid == "cube":
        on_row = cells < columns * rows
    else:
        on_row = cells // columns == run.height - run.patterns.n
    run.restrictions.append(Restriction(cells[on_row], bottom))
    run.restrictions.append(Restriction(cells[~on_row], ~bottom))


def _count(doc, path, item, run: WfcRun, problems) -> None:
    mask = _tile_mask(doc, (*path, "tile"), [item["tile"]], run, problems)
    if mask is None:
        return
    bounds = _min_max(doc, path, item, run.cells, problems)
    if bounds is None:
        return
    run.counts.append(Count(str(item["tile"]), np.flatnonzero(mask), *bounds))


def _min_max(doc, path, item, cells: int, problems) -> tuple[int, int] | None:
    """An item's `min` and `max` (0 and the map's cells when left out), or None if min is
    more: at `min`, with the cells where `max` is left out."""
    lo, hi = item.get("min", 0), item.get("max", cells)
    if lo <= hi:
        return lo, hi
    if "max" in item:
        problems.add(doc, path, f"min {lo} is more than max {hi}", "give min at most max")
    else:
        problems.add(
            doc,
            (*path, "min"),
            f"min {lo} is more than the {cells} cells of the map",
            f"give min {cells} or less",
        )
    return None


def _connected(doc, path, item, run: WfcRun, problems) -> None:
    run.connection = _connection(doc, path, item, run, problems)


def _connection(doc, path, item, run: WfcRun, problems) -> Connection | None:
    """Path tiles, and the sides each opens if `exits` is given (connected, acyclic, distance)."""
    mask = _tile_mask(doc, (*path, "tiles"), item["tiles"], run, problems)
    if mask is None:
        return None
    if "exits" not in item:
        return Connection(np.flatnonzero(mask), None)
    directions = run.topology.directions
    exits = {d: np.zeros(run.values, dtype=bool) for d in range(len(directions))}
    for name, sides in item["exits"].items():
        if name not in run.tiled.first:
            _unknown_tile(doc, (*path, "exits", name), name, list(run.tiled.first), problems)
            return None
        wrong = [side for side in sides if side not in directions]
        if wrong:
            problems.add(
                doc,
                (*path, "exits", name),
                f"'{wrong[0]}' is not a direction of a {run.topology.grid} grid",
                f"directions: {', '.join(directions)}",
            )
            return None
        for variant in run.tiled.variants(name):
            if run.topology.grid == "square":
                local = variant - run.tiled.first[name]
                opened = {DIRECTIONS.index(d) for d in rotate_exits(set(sides), local)}
            else:
                base = {directions.index(side) for side in sides}
                opened = variant_exits(run.tiled, variant, base)
            for d in opened:
                exits[d][variant] = True
    return Connection(np.flatnonzero(mask), exits)


def _separation(doc, path, item, run: WfcRun, problems) -> None:
    mask = _tile_mask(doc, (*path, "tiles"), item["tiles"], run, problems)
    if mask is None:
        return
    if item["distance"] < 2:
        problems.add(
            doc,
            (*path, "distance"),
            f"distance {item['distance']} keeps every pair apart already",
            "give 2 or more: 2 keeps the tiles off neighbouring cells",
        )
        return
    run.nogoods.append(separation(run.topology, mask, item["distance"]))


def _max_consecutive(doc, path, item, run: WfcRun, problems) -> None:
    mask = _tile_mask(doc, (*path, "tiles"), item["tiles"], run, problems)
    if mask is None:
        return
    axes = AXES[run.topology.layout]
    axis = item.get("axis", "x")
    if axis not in axes:
        problems.add(
            doc,
            (*path, "axis") if "axis" in item else path,
            f"rows of a {run.topology.layout} grid do not run along {axis}",
            f"axes here: {', '.join(axes)}",
        )
        return
    run.nogoods.append(max_consecutive(run.topology, mask, item["max"], axis))


def _mirror(doc, path, axis: str, run: WfcRun, problems) -> None:
    axes = MIRRORS.get(run.topology.layout, {})
    hint = "mirrors are x or y on square and cube grids, y on pointy-top hexes, x on flat-top"
    if axis not in axes:
        where = f"a {run.topology.grid} grid" if not axes else f"axis {axis}"
        where = f"a {run.topology.layout}-top hex grid" if run.topology.grid == "hex" else where
        problems.add(doc, path, f"mirror {axis}: no mirror for {where}", hint)
        return
    flipped = MIRRORS[run.topology.layout][axis][1]
    if run.topology.grid == "hex" and run.topology.shape[flipped] % 2 == 0:
        lines = "rows" if run.topology.layout == "pointy" else "columns"
        problems.add(
            doc,
            path,
            f"mirror {axis} on a {run.topology.layout}-top hex map needs an odd number of "
            f"{lines}, here {run.topology.shape[flipped]}",
            f"odd {lines} are shifted by half a hex: an even count maps them onto even ones",
        )
        return
    nogoods, on_line = mirror(run.topology, run.tiled.actions, axis)
    run.nogoods.append(nogoods)
    image = run.tiled.actions[:, mirror_element(run.topology, axis)]
    if len(on_line):
        run.restrictions.append(Restriction(on_line, image == np.arange(run.values)))


def _distance(doc, path, item, run: WfcRun, problems) -> None:
    through = _connection(doc, path, item, run, problems)
    if through is None:
        return
    ends = []
    sizes = run.topology.shape[: 3 if run.topology.grid == "cube" else 2]
    for key in ("from", "to"):
        cell = item[key]
        if len(cell) != len(sizes):
            axes = ", ".join("xyz"[: len(sizes)])
            problems.add(doc, (*path, key), f"a cell of a {run.topology.grid} grid is [{axes}]")
            return
        if not all(0 <= c < n for c, n in zip(cell, sizes, strict=True)):
            problems.add(doc, (*path, key), *outside(f"{key}: ", cell, sizes, negatives=False))
            return
        number = int(run.topology.index(np.array([list(cell) + [0] * (3 - len(cell))]))[0])
        if not run.topology.inside()[number]:
            problems.add(doc, (*path, key), f"{cell} is a cell the mask took out")
            return
        ends.append(number)
    bounds = _min_max(doc, path, item, run.cells, problems)
    if bounds is None:
        return
    run.distances.append(Distance(through, ends[0], ends[1], *bounds))
