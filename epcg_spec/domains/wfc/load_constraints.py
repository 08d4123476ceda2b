"""A wfc run's fixed cells, border, ground and constraint settings, checked against its
tiles or patterns and located in its source."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ...spec.document import Path as DocPath
from .constraints import AXES, MIRRORS, max_consecutive, mirror, mirror_element, separation
from .examples import read_map
from .hexpatterns import HexPatterns
from .inputs import Problems, outside
from .load_models import rgb_of, unknown_tile, variant_index
from .model import Connection, Count, Distance, Restriction, WfcRun
from .orbits import variant_exits
from .tiles import DIRECTIONS, rotate_exits

SIDES = ("top", "bottom", "left", "right")
CUBE_SIDES = ("west", "east", "south", "north", "down", "up")  # x = 0, x = max, y, z


def add_settings(doc, path, node, run: WfcRun, problems: Problems) -> None:
    """The run's fixed cells, border, ground and (tiled) constraint settings, each located."""
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
        return
    for key, load in TILED_LOADERS.items():
        if key in LISTED:
            entries = [((*path, key, i), item) for i, item in enumerate(node.get(key) or [])]
        else:
            entries = [((*path, key), node[key])] if key in node else []
        for where, item in entries:
            with _setting(run, where) as at:
                load(doc, at, item, run, problems)


@contextmanager
def _setting(run: WfcRun, at: DocPath) -> Iterator[DocPath]:
    """Mark the constraints the block adds to `run` as asked for by the setting at `at`."""
    before = {id(c) for c in run.constraints()}
    yield at
    for constraint in run.constraints():
        if id(constraint) not in before:
            constraint.at = at


def _tile_mask(doc, path, names: list[str], run: WfcRun, problems) -> np.ndarray | None:
    """The variants named ('name': all its variants, 'name k': one) as a mask."""
    mask = np.zeros(run.values, dtype=bool)
    for i, text in enumerate(names):
        where = (*path, i) if len(names) > 1 else path
        parts = str(text).split()
        name = parts[0] if parts else ""
        if name not in run.tiled.first:
            unknown_tile(doc, where, name, list(run.tiled.first), problems)
            return None
        if len(parts) == 1:
            mask[run.tiled.variants(name)] = True
        else:
            variant = variant_index(doc, where, str(text), run.tiled, problems)
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
    rgb = rgb_of(doc, (*path, "color"), item["color"], problems)
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
        z = _line(doc, path, "layer", item["layer"], run.depth, problems)
        if z is None:
            return
        ys, xs = (a.ravel() for a in np.indices((height, width)))
        zs = np.full(len(xs), z)
    elif "row" in item:
        y = _line(doc, path, "row", item["row"], height, problems)
        if y is None:
            return
        xs, ys = np.arange(width), np.full(width, y)
    else:
        x = _line(doc, path, "column", item["column"], width, problems)
        if x is None:
            return
        xs, ys = np.full(height, x), np.arange(height)
    _apply(run, xs, ys, what, zs)


def _line(doc, path, key: str, value: int, extent: int, problems) -> int | None:
    """A layer, row or column of `extent` (negative: counted from the end) as an index; None
    after a problem."""
    if -extent <= value < extent:
        return value % extent
    problems.add(
        doc,
        (*path, key),
        f"{key} {value} is outside the {extent} {key}s",
        f"{key}s are 0-{extent - 1} (-1 is the last)",
    )
    return None


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


def _acyclic(doc, path, item, run: WfcRun, problems) -> None:
    through = _connection(doc, path, item, run, problems)
    if through is not None:
        run.acyclic.append(through)


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
            unknown_tile(doc, (*path, "exits", name), name, list(run.tiled.first), problems)
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


TILED_LOADERS = {  # the constraint settings of a tiled run, in the order they are loaded
    "counts": _count,
    "connected": _connected,
    "separation": _separation,
    "max_consecutive": _max_consecutive,
    "mirror": _mirror,
    "acyclic": _acyclic,
    "distance": _distance,
}
TILED_CONSTRAINTS = tuple(TILED_LOADERS)
LISTED = ("counts", "separation", "max_consecutive", "mirror", "distance")  # lists of entries
