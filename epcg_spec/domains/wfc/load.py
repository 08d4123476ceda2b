"""A schema-valid `kind: wfc` document to a WfcSpec, every problem located in its source."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.errors import SpecError
from ...core.sizes import counted
from ...spec.document import Document
from .formats_vox import VOX_SIDE
from .inputs import Problems
from .load_constraints import TILED_CONSTRAINTS, add_settings
from .load_models import learn_model, tile_source
from .masks import read_mask
from .model import DEFAULT_SIZE, WfcRun, WfcSpec
from .patterns import TooManyVariants
from .topology import Topology

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
        learn_model(doc, path, node, folder, problems, run, layout, axes, spin)
    except TooManyVariants as exc:
        source = "sample" if model == "overlapping" else tile_source(node)
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
    add_settings(doc, path, node, run, problems)
    return run


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
