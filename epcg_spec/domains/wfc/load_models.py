"""A wfc run's patterns (overlapping model) or tiles (tiled model), from the files its spec
names, every problem located in its source."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ...core.errors import did_you_mean
from ...core.files import NotReadable, read_bounded, unopenable
from ...core.sizes import digits_value
from ...spec.document import Path as DocPath
from ...spec.load import read_text
from .examples import learn, read_map, stand_in
from .formats import read_tileset
from .formats_vox import NotVox, read_vox
from .hexpatterns import HexPatterns, extract_hex, sample_values
from .inputs import read_image
from .model import WfcRun
from .orbits import (
    add_label_rules,
    add_world_rule,
    build_world_variants,
    labels_fit,
    letter_of,
    letters,
)
from .patterns import PatternModel, extract
from .tiles import (
    TileDef,
    TiledModel,
    add_rule,
    build_variants,
    local_actions,
)
from .topology import Topology
from .voxels import VoxelPatterns, extract_voxels

MAX_SAMPLE_PIXELS = 1 << 16
"""Pixels (or voxels) of an overlapping model's sample (256 x 256): its patterns are read at
validate, about 7 s for 300 x 300 (2-core machine), a minute for 1000 x 1000. Shipped
samples are at most 15 x 15."""
DEFAULT_TILE_SIZE = 8
FROM_SIDES = "sides"  # the symmetry of a tile under `rotations: all`: read from its labels


def learn_model(doc, path, node, folder, problems, run: WfcRun, layout: str, axes, spin) -> None:
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


def tile_source(node: dict) -> str | None:
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
                unknown_tile(tile_doc, (*where, side), name, sorted(known), problems)
            elif name in model.first:
                pair.append(variant_index(tile_doc, (*where, side), text, model, problems))
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
        rgb = rgb_of(doc, (*where, "color"), entry["color"], problems)
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


def rgb_of(doc, path, text, problems) -> tuple[int, int, int] | None:
    value = str(text).lstrip("#")
    if len(value) == 6:
        try:
            return tuple(int(value[k : k + 2], 16) for k in (0, 2, 4))
        except ValueError:
            pass
    problems.add(doc, path, f"{text!r} is not a colour", 'write it as "#rrggbb"')
    return None


def variant_index(doc, path, text: str, model: TiledModel, problems) -> int | None:
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


def unknown_tile(doc, path, name: str, names: list[str], problems) -> None:
    hint = did_you_mean(name, names, "tiles", enclosed=True)
    problems.add(doc, path, f"unknown tile '{name}'", hint)
