"""Hex and cube grids and masks: topology tables against geometry, symmetry orbits, every result
against every rule, exhaustive counts of tiny maps against brute force."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from epcg_spec.cli.main import main
from epcg_spec.domains.wfc.formats_csv import read_csv
from epcg_spec.domains.wfc.network import build_network
from epcg_spec.domains.wfc.orbits import elements, orbit, variant_exits
from epcg_spec.domains.wfc.tiles import SYMMETRIES, local_actions
from epcg_spec.domains.wfc.topology import Topology
from epcg_spec.search import backtrack
from epcg_spec.spec.load import load_spec
from tests.domains.wfc.paths import DATA
from tests.oracles.wfc_worlds_oracle import (
    brute_count,
    cube_neighbours,
    hex_neighbours,
    violations,
)

# hex pipes: a pipe leaves through the sides labelled p (directions counter-clockwise from 0)
HEX_PIPES = {
    "model": "tiled",
    "grid": "hex",
    "tiles": [
        {"name": "empty", "color": "#e8e0c8", "sides": list("oooooo"), "weight": 3},
        {"name": "line", "symmetry": "I", "color": "#a0c0e0", "sides": list("poopoo")},
        {"name": "arc", "symmetry": "T", "color": "#a0c0e0", "sides": list("opooop")},
        {"name": "hook", "symmetry": "L", "color": "#a0c0e0", "sides": list("ppoooo")},
        {"name": "fork", "symmetry": "Y", "color": "#a0c0e0", "sides": list("popopo")},
    ],
}
# a voxel terrain: stone under grass under air, trees of trunk and leaves
CUBE_TERRAIN = {
    "model": "tiled",
    "grid": "cube",
    "tiles": [
        {"name": "air", "color": "#ffffff", "air": True, "weight": 4},
        {"name": "stone", "color": "#808080"},
        {"name": "grass", "color": "#40a040"},
        {"name": "trunk", "color": "#805020", "weight": 0.2},
    ],
    "neighbors": [
        {"left": "air", "right": "air"},
        {"left": "stone", "right": "stone"},
        {"left": "grass", "right": "grass"},
        {"left": "grass", "right": "air"},
        {"left": "stone", "right": "air"},
        {"left": "trunk", "right": "air"},
        {"top": "air", "bottom": "air"},
        {"top": "stone", "bottom": "stone"},
        {"top": "grass", "bottom": "stone"},
        {"top": "air", "bottom": "grass"},
        {"top": "trunk", "bottom": "grass"},
        {"top": "trunk", "bottom": "trunk"},
        {"top": "air", "bottom": "trunk"},
    ],
}

RAMPS = {
    "model": "tiled",
    "grid": "cube",
    "rotations": "all",
    "tiles": [
        {"name": "air", "color": "#ffffff", "air": True, "sides": list("oooooo")},
        {"name": "pipe", "color": "#404040", "sides": ["p", "o", "o", "o", "p", "o"]},
        {"name": "odd", "color": "#a04040", "sides": ["p", "q", "o", "o", "r", "o"]},
    ],
}


def links_of(topology: Topology) -> dict:
    found = {}
    for d in range(len(topology.directions)):
        u, v = topology.links(d)
        found.update({(int(a), d): int(b) for a, b in zip(u, v, strict=True)})
    return found


@pytest.mark.parametrize("layout", ["pointy", "flat"])
@pytest.mark.parametrize("periodic", [(False, False), (True, False), (False, True), (True, True)])
def test_hex_links_are_the_geometric_neighbours(layout, periodic):
    topology = Topology(layout, (4, 6, 1), (*periodic, False))
    assert links_of(topology) == hex_neighbours(layout, 4, 6, periodic)


@pytest.mark.parametrize("periodic", [(False, False, False), (True, False, True)])
def test_cube_links_are_the_axis_steps(periodic):
    topology = Topology("cube", (3, 4, 2), periodic)
    assert links_of(topology) == cube_neighbours((3, 4, 2), periodic)


@pytest.mark.parametrize("layout", ["square", "cube"])
@pytest.mark.parametrize("letter", sorted(SYMMETRIES))
def test_orbits_number_variants_as_the_square_letters_do(layout, letter):
    topology = Topology(layout, (1, 1, 1), (False, False, False))
    actions, _ = orbit(topology, letter)
    assert np.array_equal(actions, local_actions(letter))


def test_hex_letters_have_their_variant_counts():
    topology = Topology("pointy", (1, 1, 1), (False, False, False))
    counts = {k: len(orbit(topology, k)[0]) for k in ("X", "Y", "I", "T", "L", "F")}
    assert counts == {"X": 1, "Y": 2, "I": 3, "T": 6, "L": 6, "F": 12}


def hex_run(write_spec, fields: dict, **more):
    return load_spec(write_spec(**{**fields, **more})).spec.runs[0]


PIPE_SIDES = {
    t["name"]: {d for d, x in enumerate(t["sides"]) if x == "p"} for t in HEX_PIPES["tiles"]
}


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_side_labels_give_exactly_the_pipe_join_rule(write_spec, orientation):
    run = hex_run(write_spec, HEX_PIPES, orientation=orientation, size=4)
    model = run.tiled
    assert model.count == 1 + 3 + 6 + 6 + 2
    exits = [
        variant_exits(model, v, PIPE_SIDES[model.names[v].split()[0]]) for v in range(model.count)
    ]
    for d in range(6):
        back = (d + 3) % 6
        want = [[(d in a) == (back in b) for b in exits] for a in exits]
        assert model.sides[d].tolist() == want


def test_neighbour_rules_and_side_labels_agree_on_hex(write_spec):
    tiles = [
        {"name": "empty", "color": "#ffffff"},
        {"name": "line", "symmetry": "I", "color": "#000000"},
    ]
    rules = [
        {"left": "empty", "right": "empty"},
        {"left": "line 0", "right": "line 0"},
        {"left": "line 1", "right": "empty"},
        {"left": "empty", "right": "line 1"},
        {"left": "line 1", "right": "line 1"},
        {"left": "line 1", "right": "line 2"},
    ]
    by_rules = hex_run(
        write_spec, {"model": "tiled", "grid": "hex", "tiles": tiles}, neighbors=rules
    )
    labelled = [
        {**tiles[0], "sides": list("oooooo")},
        {**tiles[1], "sides": list("poopoo")},
    ]
    by_labels = hex_run(write_spec, {"model": "tiled", "grid": "hex", "tiles": labelled})
    assert np.array_equal(by_rules.tiled.sides, by_labels.tiled.sides)


def build(spec, out) -> dict:
    assert main(["build", str(spec), "--out", str(out), "--quiet"]) == 0
    return json.loads((out / "result.json").read_text())


def components(values, neighbours, exits) -> int:
    """Pipe networks joined through open sides (plain BFS over the oracle's neighbours)."""
    seen, parts = set(), 0
    for start in range(len(values)):
        if start in seen or values[start] < 0 or not exits[values[start]]:
            continue
        parts += 1
        todo = [start]
        seen.add(start)
        while todo:
            u = todo.pop()
            for d in exits[values[u]]:
                v = neighbours.get((u, d))
                if v is not None and v not in seen:
                    seen.add(v)
                    todo.append(v)
    return parts


@pytest.mark.parametrize(
    "orientation,periodic,seed",
    [("pointy", False, 1), ("flat", False, 2), ("pointy", True, 3), ("flat", [True, False], 4)],
)
def test_hex_outputs_meet_every_rule_and_stay_connected(
    write_spec, tmp_path, orientation, periodic, seed
):
    fields = {
        **HEX_PIPES,
        "orientation": orientation,
        "width": 10,
        "height": 8,
        "periodic": periodic,
        "seed": seed,
        "write": ["csv"],
        "connected": {
            "tiles": ["line", "arc", "hook", "fork"],
            "exits": {
                t: [
                    (("east", "northeast", "northwest", "west", "southwest", "southeast")
                     if orientation == "pointy" else
                     ("northeast", "north", "northwest", "southwest", "south", "southeast"))[d]
                    for d in sorted(PIPE_SIDES[t])
                ]
                for t in ("line", "arc", "hook", "fork")
            },
        },
    }  # fmt: skip
    spec = write_spec(**fields)
    result = build(spec, tmp_path / "out")
    assert result["outputs"][0]["status"] == "solved"
    values = read_csv((tmp_path / "out" / "spec.csv").read_text(), "spec.csv").ravel()
    run = load_spec(spec).spec.runs[0]
    axes = (periodic, periodic) if isinstance(periodic, bool) else tuple(periodic)
    neighbours = hex_neighbours(orientation, 10, 8, axes)
    assert violations(values, neighbours, run.tiled.sides) == []
    exits = [
        variant_exits(run.tiled, v, PIPE_SIDES[run.tiled.names[v].split()[0]])
        for v in range(run.values)
    ]
    assert components(values, neighbours, exits) == 1
    assert (tmp_path / "out" / "spec.svg").read_text().count("<polygon") == 80


def test_cube_outputs_meet_every_rule_and_write_the_voxels(write_spec, tmp_path):
    from epcg_spec.domains.wfc.formats_vox import read_vox

    spec = write_spec(
        **CUBE_TERRAIN, width=8, height=6, depth=5, seed=2, write=["csv"],
        fixed=[{"layer": 0, "tile": "stone"}, {"layer": -1, "tile": "air"}],
    )  # fmt: skip
    result = build(spec, tmp_path / "out")
    assert result["outputs"][0]["status"] == "solved"
    assert result["outputs"][0]["grid"] == [8, 6, 5]
    values = read_csv((tmp_path / "out" / "spec.csv").read_text(), "spec.csv")
    assert values.shape == (5, 6, 8)
    run = load_spec(spec).spec.runs[0]
    flat = values.ravel()
    assert violations(flat, cube_neighbours((8, 6, 5), (False,) * 3), run.tiled.sides) == []
    names = np.array([n.split()[0] for n in run.tiled.names])[values]
    assert (names[0] == "stone").all() and (names[-1] == "air").all()
    grid, palette = read_vox((tmp_path / "out" / "spec.vox").read_bytes())
    code = {"air": 0, "stone": 1, "grass": 2, "trunk": 3}  # solid tiles numbered in order
    assert np.array_equal(grid, np.vectorize(code.get)(names))
    assert palette[1] == (128, 128, 128) and palette[2] == (64, 160, 64)


def count_of(run) -> int:
    model = build_network(run)
    found, complete = backtrack.count(model)
    assert complete
    return found


LINES = {
    "model": "tiled",
    "grid": "hex",
    "tiles": [
        {"name": "empty", "color": "#ffffff", "sides": list("oooooo")},
        {"name": "line", "symmetry": "I", "color": "#000000", "sides": list("poopoo")},
    ],
}


@pytest.mark.parametrize(
    "orientation,width,height,periodic",
    [
        ("pointy", 3, 2, False),
        ("flat", 2, 3, False),
        ("pointy", 3, 2, True),
        ("flat", 2, 2, [True, False]),
    ],
)
def test_tiny_hex_maps_count_as_brute_force(write_spec, orientation, width, height, periodic):
    run = hex_run(
        write_spec, LINES, orientation=orientation, width=width, height=height, periodic=periodic
    )
    axes = (periodic, periodic) if isinstance(periodic, bool) else tuple(periodic)
    neighbours = hex_neighbours(orientation, width, height, axes)
    expected = brute_count(width * height, run.values, neighbours, run.tiled.sides)
    assert expected > 0
    assert count_of(run) == expected


def test_a_masked_hex_map_counts_as_brute_force(write_spec):
    run = hex_run(write_spec, LINES, width=3, height=3, mask={"cells": [[0, 0], [2, 1]]})
    inside = run.topology.inside()
    assert inside.sum() == 7
    neighbours = hex_neighbours("pointy", 3, 3, (False, False))
    expected = brute_count(9, run.values, neighbours, run.tiled.sides, inside)
    assert count_of(run) == expected


def test_a_tiny_cube_counts_as_brute_force(write_spec):
    run = hex_run(write_spec, CUBE_TERRAIN, width=2, height=2, depth=2)
    neighbours = cube_neighbours((2, 2, 2), (False, False, False))
    expected = brute_count(8, run.values, neighbours, run.tiled.sides)
    assert expected > 0
    assert count_of(run) == expected


def test_rotating_cube_tiles_turn_about_the_vertical_only(write_spec):
    tiles = [
        {"name": "floor", "color": "#ffffff"},
        {"name": "ramp", "symmetry": "T", "color": "#000000"},
    ]
    rules = [
        {"left": "floor", "right": "floor"},
        {"left": "ramp 0", "right": "floor"},
        {"top": "floor", "bottom": "ramp"},
    ]
    run = hex_run(write_spec, {"model": "tiled", "grid": "cube", "tiles": tiles}, neighbors=rules)
    sides = run.tiled.sides
    assert run.values == 5
    east, north, west, south, up, down = range(6)
    ramps = [run.tiled.first["ramp"] + k for k in range(4)]
    # T is mirror-symmetric across north-south: ramp k meets the floor towards k and k + 2
    for k, ramp in enumerate(ramps):
        assert [bool(sides[d, ramp, 0]) for d in (east, north, west, south)] == [
            d % 2 == k % 2 for d in range(4)
        ]
        assert sides[up, ramp, 0] and not sides[down, ramp, 0]
        assert sides[down, 0, ramp] and not sides[up, 0, ramp]


def test_a_mask_takes_cells_out_of_the_square_map(write_spec, tmp_path):
    spec = write_spec(
        model="tiled", size=4, seed=1, write=["csv"],
        tiles=[{"name": "a", "color": "#ff0000"}, {"name": "b", "color": "#0000ff"}],
        neighbors=[{"left": "a", "right": "b"}],
        mask={"cells": [[0, 0], [3, 3]]},
    )  # fmt: skip
    build(spec, tmp_path / "out")
    lines = (tmp_path / "out" / "spec.txt").read_text().splitlines()
    assert lines[0].startswith("-, ") and lines[3].endswith("-, ")
    values = read_csv((tmp_path / "out" / "spec.csv").read_text(), "x")[0]
    assert values[0, 0] == values[3, 3] == -2 and (np.delete(values.ravel(), [0, 15]) >= 0).all()
    # a checkerboard of a and b around the holes
    parity = np.indices((4, 4)).sum(axis=0) % 2
    kept = values >= 0
    assert len(set((values[kept] == parity[kept]).tolist())) == 1


def test_a_mask_image_takes_out_its_dark_pixels(write_spec, tmp_path):
    from PIL import Image

    picture = np.full((3, 4, 3), 255, dtype=np.uint8)
    picture[1, 2] = 0
    Image.fromarray(picture).save(tmp_path / "mask.png")
    run = hex_run(write_spec, LINES, width=4, height=3, mask={"image": str(tmp_path / "mask.png")})
    assert np.flatnonzero(~run.topology.inside()).tolist() == [1 * 4 + 2]


MAZE = str(DATA / "maze.png")
BROKEN = [
    ({"model": "overlapping", "sample": MAZE, "grid": "hex"}, "maze.png is not a map WFC reads"),
    (
        {**LINES, "grid": "square", "tiles": LINES["tiles"][:1]},
        "side labels are for hex and cube grids",
    ),
    ({**LINES, "depth": 3}, "'depth' applies to cube grids, not hex"),
    ({**LINES, "height": 5, "periodic": True}, "needs an even number of rows, not 5"),
    ({**LINES, "periodic": [True, False, True]}, "takes 2 booleans (x, y) on a hex grid"),
    (
        {**LINES, "tiles": [{**LINES["tiles"][1], "symmetry": "Y"}]},
        "do not have symmetry 'Y'",
    ),
    ({**LINES, "tiles": [{**LINES["tiles"][1], "sides": list("poop")}]}, "is too short"),
    (
        {**LINES, "connected": {"tiles": ["line"], "exits": {"line": ["east", "up"]}}},
        "'up' is not a direction of a hex grid",
    ),
    ({**CUBE_TERRAIN, "write": ["tmx"]}, "'tmx' files are not written for cube"),
    (
        {**LINES, "width": 6, "height": 5, "fixed": [{"row": 5, "tile": "line"}]},
        "row 5 is outside the 5 rows; rows are 0-4 (-1 is the last)",
    ),
    (
        {**CUBE_TERRAIN, "depth": 2, "fixed": [{"layer": -3, "tile": "stone"}]},
        "layer -3 is outside the 2 layers; layers are 0-1 (-1 is the last)",
    ),
    (
        {**LINES, "mask": {"cells": [[5, 0]]}, "size": 4},
        "[5, 0] lies outside the 4 x 4 grid; x is 0-3 and y is 0-3",
    ),
    ({**LINES, "fixed": [{"at": [1, 1, 1], "tile": "line"}]}, "a cell of a hex grid is [x, y]"),
    (
        {**LINES, "width": 6, "height": 5, "fixed": [{"at": [2, -6], "tile": "line"}]},
        "at: [2, -6] lies outside the 6 x 5 grid; x is 0-5 and y is 0-4 (-1 is the last)",
    ),
    (
        {
            **CUBE_TERRAIN,
            "width": 4,
            "height": 3,
            "depth": 2,
            "fixed": [{"at": [0, 0, 2], "tile": "air"}],
        },
        "lies outside the 4 x 3 x 2 grid; x is 0-3, y is 0-2 and z is 0-1",
    ),
    ({**CUBE_TERRAIN, "fixed": [{"row": 1, "tile": "air"}]}, "'layer: z' on a cube grid"),
    (
        {**CUBE_TERRAIN, "border": {"tile": "air", "sides": ["top"]}},
        "'top' is not a side of this cube",
    ),
    (
        {
            "model": "tiled",
            "grid": "hex",
            "tiles": [{"name": "a", "color": "#ffffff"}],
            "neighbors": [{"top": "a", "bottom": "a"}],
        },
        "'top'/'bottom' rules stack tiles on cube grids",
    ),
    ({"model": "tiled", "example": "missing.csv"}, "no map at"),
    ({**LINES, "rotations": "all"}, "'rotations: all' turns tiled-model tiles on cube grids"),
    (
        {**RAMPS, "tiles": [{**RAMPS["tiles"][1], "symmetry": "T"}]},
        "with 'rotations: all' a tile's 'sides' give its symmetry",
    ),
    (
        {**RAMPS, "neighbors": [{"left": "air", "right": "air"}]},
        "with 'rotations: all' tiles meet by their side labels",
    ),
    ({"model": "tiled", "example": MAZE}, "maze.png is not a map WFC reads"),
]


@pytest.mark.parametrize("fields,message", BROKEN)
def test_broken_world_specs_give_one_located_line(write_spec, tmp_path, capsys, fields, message):
    spec = write_spec(**fields)
    code = main(["build", str(spec), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and message in err[0], err
    assert err[0].startswith(f"{spec}:")


@pytest.mark.parametrize(
    "grid,sides,given,hint,fixed",
    [
        ("hex", "popopo", "I", "they have symmetry 'Y': give symmetry: Y", ("Y", "popopo")),
        ("hex", "opooop", "L", "they have symmetry 'T': give symmetry: T", ("T", "opooop")),
        ("hex", "poopoo", "Y", "they have symmetry 'I': give symmetry: I", ("I", "poopoo")),
        (
            "hex", "opoooo", "T",  # a dead end towards side 1: a T turned
            "they have the symmetry of 'T' turned: give sides ['p', 'o', 'o', 'o', 'o', 'o'] "
            "with symmetry: T (and its exits turned the same way)",
            ("T", "pooooo"),
        ),
        (
            "hex", "opopoo", "L",  # sides 1 and 3 open: a wide bend about side 2
            "they have the symmetry of 'T' turned: give sides ['o', 'p', 'o', 'o', 'o', 'p'] "
            "with symmetry: T (and its exits turned the same way)",
            ("T", "opooop"),
        ),
        (
            "hex", "abcabc", "I",  # a half turn keeps them: no letter has it alone
            "no letter names their symmetries: give symmetry: F",
            ("F", "abcabc"),
        ),
        ("cube", "popooo", "X", "they have symmetry 'I': give symmetry: I", ("I", "popooo")),
        ("cube", "ppoooo", "I", "they have symmetry 'L': give symmetry: L", ("L", "ppoooo")),
    ],
)  # fmt: skip
def test_a_symmetry_that_the_sides_lack_is_told_the_one_they_have(
    write_spec, capsys, grid, sides, given, hint, fixed
):
    tile = {"name": "t", "color": "#000000", "symmetry": given, "sides": list(sides)}
    fields = {"model": "tiled", "grid": grid, "size": 3, **({"depth": 2} if grid == "cube" else {})}
    spec = write_spec(**fields, tiles=[tile])
    assert main(["validate", "-q", str(spec)]) == 1
    message = f"the sides {list(sides)} do not have symmetry {given!r}; {hint}"
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"{spec}:") and line.endswith(f": {message}")
    letter, labels = fixed  # as the hint says: then one variant per distinct orientation
    run = hex_run(write_spec, fields, tiles=[{**tile, "symmetry": letter, "sides": list(labels)}])
    group = elements(run.topology)
    turned = {tuple(labels[g[d]] for d in range(6)) for g in group}
    assert run.tiled.count == (len(turned) if letter != "F" else len(group))


def test_explain_names_the_grid(write_spec, capsys):
    spec = write_spec(**LINES, orientation="flat", width=6, height=5, periodic=[True, False],
                      mask={"cells": [[0, 0]]})  # fmt: skip
    assert main(["explain", str(spec)]) == 0
    assert "6 x 5 cells, hex (flat top), periodic along x, 1 masked out" in capsys.readouterr().out


def test_a_border_runs_along_the_mask_too(write_spec, tmp_path):
    tiles = [{**HEX_PIPES["tiles"][0], "weight": 0.01}, *HEX_PIPES["tiles"][1:]]
    spec = write_spec(
        **{**HEX_PIPES, "tiles": tiles}, width=10, height=10, seed=2, write=["csv"],
        mask={"cells": [[4, 4], [5, 5]]}, border={"tile": "empty"},
    )  # fmt: skip
    build(spec, tmp_path / "out")
    values = read_csv((tmp_path / "out" / "spec.csv").read_text(), "x").ravel()
    neighbours = hex_neighbours("pointy", 10, 10, (False, False))
    out = {4 * 10 + 4, 5 * 10 + 5}
    beside = {u for (u, _), v in neighbours.items() if v in out and u not in out}
    edge = {c for c in range(100) if c % 10 in (0, 9) or c // 10 in (0, 9)}
    assert len(beside) == 10 and all(values[c] == 0 for c in beside | edge)
    assert (values[[c for c in range(100) if c not in beside | edge | out]] > 0).any()


def test_a_mask_from_a_map_takes_out_its_empty_cells(write_spec, tmp_path):
    (tmp_path / "level.csv").write_text("-1,3,3,3\n3,3,-1,3\n3,3,3,-1\n")
    run = hex_run(write_spec, LINES, width=4, height=3, mask={"map": str(tmp_path / "level.csv")})
    assert np.flatnonzero(~run.topology.inside()).tolist() == [0, 6, 11]
    layers = [{"layer": z, "tile": t} for z, t in enumerate(("stone", "grass", "air"))]
    voxels = write_spec("v", **CUBE_TERRAIN, width=3, height=2, depth=3, seed=1, fixed=layers)
    build(voxels, tmp_path / "v")
    cube = hex_run(write_spec, CUBE_TERRAIN, width=3, height=2, depth=3,
                   mask={"map": str(tmp_path / "v" / "v.vox")})  # fmt: skip
    assert cube.topology.inside().tolist() == [True] * 12 + [False] * 6  # air is out


def test_partial_hex_and_cube_outputs_and_counts_through_the_cli(write_spec, tmp_path, capsys):
    spec = write_spec("h", **HEX_PIPES, size=8, limit=5, write=["csv", "tmx"])
    result = build(spec, tmp_path / "h")
    assert result["outputs"][0]["status"] == "paused"
    values = read_csv((tmp_path / "h" / "h.csv").read_text(), "x")
    assert (values == -1).sum() > 0 and (values >= 0).sum() >= 5
    assert "?" in (tmp_path / "h" / "h.txt").read_text()
    cube = write_spec("c", **CUBE_TERRAIN, size=4, limit=3)
    assert build(cube, tmp_path / "c")["outputs"][0]["status"] == "paused"
    assert (tmp_path / "c" / "c.vox").read_bytes()[:4] == b"VOX "
    tiny = write_spec("t", **LINES, width=3, height=2)
    capsys.readouterr()
    assert main(["count", str(tiny), "--json"]) == 0
    run = load_spec(tiny).spec.runs[0]
    expected = brute_count(6, run.values, hex_neighbours("pointy", 3, 2, (False, False)),
                           run.tiled.sides)  # fmt: skip
    assert json.loads(capsys.readouterr().out)["count"] == expected


def test_an_overlapping_run_with_a_mask_keeps_its_border_on_the_rectangle(write_spec, tmp_path):
    wall = "#" + bytes(Image.open(DATA / "maze.png").convert("RGB").getpixel((0, 0))).hex()
    spec = write_spec(
        model="overlapping", sample=str(DATA / "maze.png"), N=3, size=12, periodic=False,
        mask={"cells": [[4, 4]]}, border={"color": wall}, seed=1,
    )  # fmt: skip
    run = load_spec(spec).spec.runs[0]
    assert run.topology.shape == (10, 10, 1) and not run.topology.inside()[4 * 10 + 4]
    assert build(spec, tmp_path / "out")["outputs"][0]["status"] == "solved"
    out = np.asarray(Image.open(tmp_path / "out" / "spec.png").convert("RGB"))
    assert (out[0] == out[0, 0]).all() and (out[:, -1] == out[0, 0]).all()


@pytest.mark.parametrize(
    "name",
    [
        "wfc-hex-pipes",
        "wfc-hex-lakes",
        "wfc-voxel-terrain",
        "wfc-voxel-patterns",
        "wfc-tiled-example",
        "wfc-hex-tiled-example",
    ],
)
def test_the_world_example_specs_build(tmp_path, name):
    spec = Path(__file__).parents[3] / "specs" / f"{name}.yaml"
    result = build(spec, tmp_path)
    assert [o["status"] for o in result["outputs"]] == ["solved"]


# direction -> unit vector on a cube grid (east, north, west, south, up, down)
UNIT = [(1, 0, 0), (0, 1, 0), (-1, 0, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]


def signed_permutations():
    """The 48 symmetries of a cube as 3 x 3 matrices (axes permuted, signs flipped)."""
    for axes in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            matrix = np.zeros((3, 3), dtype=int)
            for row, (axis, sign) in enumerate(zip(axes, signs, strict=True)):
                matrix[row, axis] = sign
            yield matrix


def arrangements(labels) -> set[tuple]:
    """Every placement of the side labels under the 48 cube symmetries (matrices)."""
    out = set()
    for m in signed_permutations():
        placed = [None] * 6
        for d, label in enumerate(labels):
            placed[UNIT.index(tuple(int(c) for c in m @ np.array(UNIT[d])))] = label
        out.add(tuple(placed))
    return out


def test_all_24_turns_are_the_cube_symmetries():
    topology = Topology("cube", (1, 1, 1), (False,) * 3, spin="all")
    group = elements(topology)
    assert len(set(group)) == 48
    for k, perm in enumerate(group):
        m = np.array([UNIT[perm[d]] for d in (0, 1, 4)]).T  # images of x, y, z as columns
        assert round(np.linalg.det(m)) == (1 if k < 24 else -1)


def test_all_turns_give_every_placement_of_the_sides(write_spec):
    run = hex_run(write_spec, RAMPS, size=2)
    model = run.tiled
    for tile in RAMPS["tiles"]:
        placed = set()
        for v in model.variants(tile["name"]):
            labels = [None] * 6
            for d, label in enumerate(tile["sides"]):
                labels[model.makers[v][d]] = label
            placed.add(tuple(labels))
        assert placed == arrangements(tile["sides"])
        assert len(model.variants(tile["name"])) == len(placed)
    assert [len(model.variants(t)) for t in ("air", "pipe", "odd")] == [1, 12, 48]


def test_a_tiny_all_turns_cube_counts_as_brute_force(write_spec):
    tiles = RAMPS["tiles"][:2]
    run = hex_run(write_spec, {**RAMPS, "tiles": tiles}, width=2, height=2, depth=1)
    near = cube_neighbours((2, 2, 1), (False,) * 3)
    assert count_of(run) == brute_count(4, run.values, near, run.tiled.sides) > 1
