"""separation, max_consecutive, mirror, acyclic and distance: exhaustive counts of small maps
equal brute force, and bad arguments give one located line."""

from __future__ import annotations

import contextlib
import io
import itertools
import json

import numpy as np
import pytest

from epcg_spec.cli.main import main
from epcg_spec.domains.wfc.checks import path_rules, paths_ok
from epcg_spec.domains.wfc.network import build_network
from epcg_spec.domains.wfc.tiles import rotate_exits
from epcg_spec.search import backtrack
from epcg_spec.spec.load import load_spec
from tests.domains.wfc.paths import DATA, PIPE_EXITS, PIPES
from tests.domains.wfc.test_worlds import CUBE_TERRAIN, LINES
from tests.oracles.wfc_worlds_oracle import (
    brute_count,
    cube_neighbours,
    far_enough,
    hex_mirror,
    hex_neighbours,
    no_cycle,
    path_length,
    short_runs,
    square_neighbours,
)

# three values on a square grid: empty, a horizontal line, a vertical line; lines may meet
SQUARE_LINES = {
    "model": "tiled",
    "tiles": [
        {"name": "empty", "color": "#ffffff"},
        {"name": "line", "symmetry": "I", "color": "#000000"},
    ],
    "neighbors": [
        {"left": "empty", "right": "empty"},
        {"left": "line 0", "right": "line 0"},
        {"left": "line 1", "right": "empty"},
        {"left": "empty", "right": "line 1"},
        {"left": "line 1", "right": "line 1"},
        {"left": "line 0", "right": "line 1"},
        {"left": "line 1", "right": "line 0"},
    ],
}


def run_of(write_spec, **fields):
    run = load_spec(write_spec(**fields)).spec.runs[0]
    if run.topology.grid == "square":  # the model keeps right and down; fill left and up
        run.tiled.sides[2] = run.tiled.sides[0].T
        run.tiled.sides[1] = run.tiled.sides[3].T
    return run


def counted(run) -> int:
    found, complete = backtrack.count(build_network(run))
    assert complete
    return found


def members(run, name: str) -> np.ndarray:
    return np.array([n.split()[0] == name for n in run.tiled.names])


@pytest.mark.parametrize("distance", [2, 3])
def test_separation_on_a_square_map(write_spec, distance):
    run = run_of(write_spec, **SQUARE_LINES, width=3, height=3,
                 separation=[{"tiles": ["line"], "distance": distance}])  # fmt: skip
    near = square_neighbours(3, 3)
    line = members(run, "line")
    expected = brute_count(
        9, run.values, near, run.tiled.sides, extra=lambda g: far_enough(g, near, line, distance)
    )
    assert 0 < expected < brute_count(9, run.values, near, run.tiled.sides)
    assert counted(run) == expected


def test_separation_on_a_hex_map(write_spec):
    run = run_of(write_spec, **LINES, width=3, height=3,
                 separation=[{"tiles": ["line"], "distance": 2}])  # fmt: skip
    near = hex_neighbours("pointy", 3, 3, (False, False))
    line = members(run, "line")
    expected = brute_count(
        9, run.values, near, run.tiled.sides, extra=lambda g: far_enough(g, near, line, 2)
    )
    assert counted(run) == expected > 0


@pytest.mark.parametrize("axis,d", [("x", 0), ("y", 3)])
def test_max_consecutive_on_a_square_map(write_spec, axis, d):
    run = run_of(write_spec, **SQUARE_LINES, width=4, height=3,
                 max_consecutive=[{"tiles": ["line"], "max": 2, "axis": axis}])  # fmt: skip
    near = square_neighbours(4, 3)
    line = members(run, "line")
    expected = brute_count(
        12, run.values, near, run.tiled.sides, extra=lambda g: short_runs(g, near, line, 2, d)
    )
    assert 0 < expected < brute_count(12, run.values, near, run.tiled.sides)
    assert counted(run) == expected


def test_max_consecutive_on_hex_and_cube(write_spec):
    run = run_of(write_spec, **LINES, width=4, height=2,
                 max_consecutive=[{"tiles": ["empty"], "max": 1}])  # fmt: skip
    near = hex_neighbours("pointy", 4, 2, (False, False))
    empty = members(run, "empty")
    expected = brute_count(
        8, run.values, near, run.tiled.sides, extra=lambda g: short_runs(g, near, empty, 1, 0)
    )
    assert counted(run) == expected > 0
    run = run_of(write_spec, **CUBE_TERRAIN, width=2, height=1, depth=4,
                 max_consecutive=[{"tiles": ["stone"], "max": 2, "axis": "z"}])  # fmt: skip
    near = cube_neighbours((2, 1, 4), (False, False, False))
    stone = members(run, "stone")
    expected = brute_count(
        8, run.values, near, run.tiled.sides, extra=lambda g: short_runs(g, near, stone, 2, 4)
    )
    assert counted(run) == expected > 0


CORNERS = {
    "model": "tiled",
    "tiles": [
        {"name": "empty", "color": "#ffffff"},
        {"name": "corner", "symmetry": "L", "color": "#000000"},
    ],
    "neighbors": [
        {"left": "empty", "right": "empty"},
        {"left": "corner 0", "right": "empty"},
        {"left": "corner 1", "right": "corner 0"},
        {"left": "empty", "right": "corner 1"},
    ],
}
EXITS = {"empty": set(), "corner": {"right", "up"}}
FLIP = {
    "x": {"right": "left", "left": "right", "up": "up", "down": "down"},
    "y": {"right": "right", "left": "left", "up": "down", "down": "up"},
}


@pytest.mark.parametrize("axis,width,height", [("x", 3, 2), ("y", 2, 3)])
def test_mirror_on_a_square_map(write_spec, axis, width, height):
    run = run_of(write_spec, **CORNERS, width=width, height=height, mirror=[axis])
    near = square_neighbours(width, height)
    exits = []
    for name in run.tiled.names:
        tile, k = name.split()
        exits.append(rotate_exits(EXITS[tile], int(k)))

    def symmetric(grid) -> bool:
        for y in range(height):
            for x in range(width):
                px, py = (width - 1 - x, y) if axis == "x" else (x, height - 1 - y)
                mirrored = {FLIP[axis][e] for e in exits[grid[x + y * width]]}
                if mirrored != exits[grid[px + py * width]]:
                    return False
        return True

    expected = brute_count(width * height, run.values, near, run.tiled.sides, extra=symmetric)
    assert 0 < expected < brute_count(width * height, run.values, near, run.tiled.sides)
    assert counted(run) == expected


@pytest.mark.parametrize("layout,axis,width,height", [("pointy", "y", 2, 3), ("flat", "x", 3, 2)])
def test_mirror_on_a_hex_map(write_spec, layout, axis, width, height):
    run = run_of(write_spec, **LINES, orientation=layout, width=width, height=height,
                 mirror=[axis])  # fmt: skip
    near = hex_neighbours(layout, width, height, (False, False))
    partner, turned = hex_mirror(layout, width, height)
    assert len(partner) == width * height
    opens = []  # "line k" (turned k sixths of a turn) joins directions k and k + 3
    for name in run.tiled.names:
        tile, k = name.split()
        opens.append({int(k) % 6, (int(k) + 3) % 6} if tile == "line" else set())

    def symmetric(grid) -> bool:
        return all(opens[grid[partner[c]]] == {turned[d] for d in opens[grid[c]]} for c in partner)

    expected = brute_count(width * height, run.values, near, run.tiled.sides, extra=symmetric)
    assert 0 < expected < brute_count(width * height, run.values, near, run.tiled.sides)
    assert counted(run) == expected


BROKEN = [
    ({**LINES, "separation": [{"tiles": ["line"], "distance": 1}]}, "distance 1 keeps every"),
    ({**LINES, "max_consecutive": [{"tiles": ["line"], "max": 2, "axis": "y"}]},
     "rows of a pointy grid do not run along y"),
    ({**LINES, "mirror": ["x"]}, "mirror x: no mirror for a pointy-top hex grid"),
    ({**LINES, "width": 3, "height": 4, "mirror": ["y"]},
     "mirror y on a pointy-top hex map needs an odd number of rows, here 4"),
    ({**SQUARE_LINES, "separation": [{"tiles": ["lines"], "distance": 2}]}, "unknown tile 'lines'"),
    ({"model": "overlapping", "sample": str(DATA / "maze.png"), "mirror": ["x"]},
     "'mirror' applies to the tiled model"),
    ({**SQUARE_LINES, "size": 4, "distance": [{"from": [0, 0], "to": [4, 0], "tiles": ["line"]}]},
     "to: [4, 0] lies outside the 4 x 4 grid"),
    ({**SQUARE_LINES, "distance": [{"from": [0, 0], "to": [1, 0], "tiles": ["line"],
                                    "min": 5, "max": 2}]}, "min 5 is more than max 2"),
    ({**SQUARE_LINES, "acyclic": {"tiles": ["line"], "exits": {"line": ["east"]}}},
     "'east' is not a direction of a square grid"),
    ({**SQUARE_LINES, "size": 4, "counts": [{"tile": "line", "min": 20}]},
     "min 20 is more than the 16 cells of the map; give min 16 or less"),
    ({**SQUARE_LINES, "counts": [{"tile": "line", "min": 5, "max": 2}]},
     "min 5 is more than max 2; give min at most max"),
]  # fmt: skip


@pytest.mark.parametrize("fields,message", BROKEN)
def test_bad_constraint_arguments_give_one_located_line(
    write_spec, tmp_path, capsys, fields, message
):
    spec = write_spec(**fields)
    assert main(["build", str(spec), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and err[0].startswith(f"{spec}:"), err


LOOPS = {
    "model": "tiled",
    "tileset": str(PIPES),
    "subset": "Loops",
    "width": 3,
    "height": 2,
}
LOOP_EXITS = {"line": ["left", "right"], "corner": ["right", "up"]}
OPPOSITE = {0: 2, 1: 3, 2: 0, 3: 1}


def opens_of(run) -> list[set[int]]:
    order = ["right", "up", "left", "down"]
    out = []
    for name in run.tiled.names:
        tile, k = name.split()
        exits = rotate_exits(set(PIPE_EXITS[tile]), int(k))
        out.append({order.index(e) for e in exits})
    return out


def test_acyclic_counts_as_brute_force(write_spec):
    run = run_of(write_spec, **LOOPS, acyclic={"tiles": ["line", "corner"], "exits": LOOP_EXITS})
    near, opens = square_neighbours(3, 2), opens_of(run)
    expected = brute_count(
        6, run.values, near, run.tiled.sides, extra=lambda g: no_cycle(g, near, opens, OPPOSITE)
    )
    assert 0 < expected < brute_count(6, run.values, near, run.tiled.sides)
    spec = write_spec(**LOOPS, acyclic={"tiles": ["line", "corner"], "exits": LOOP_EXITS})
    assert counted_through_cli(spec) == expected


def counted_through_cli(spec) -> int:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["count", str(spec), "--json"]) == 0
    return json.loads(out.getvalue())["count"]


def test_distance_counts_as_brute_force(write_spec):
    rule = {"from": [0, 0], "to": [2, 1], "tiles": ["line", "corner"], "exits": LOOP_EXITS,
            "min": 3, "max": 3}  # fmt: skip
    run = run_of(write_spec, **LOOPS, distance=[rule])
    near, opens = square_neighbours(3, 2), opens_of(run)
    expected = brute_count(
        6, run.values, near, run.tiled.sides,
        extra=lambda g: path_length(g, near, opens, OPPOSITE, 0, 5) == 3,
    )  # fmt: skip
    assert expected > 0
    assert counted_through_cli(write_spec(**LOOPS, distance=[rule])) == expected


def test_an_acyclic_build_backtracks_instead_of_restarting(write_spec, tmp_path):
    exits = {k: v for k, v in PIPE_EXITS.items() if v}
    spec = write_spec(
        model="tiled", tileset=str(PIPES), size=5, seed=3,
        acyclic={"tiles": list(exits), "exits": exits}, search={"attempts": 1},
    )  # fmt: skip
    assert main(["build", str(spec), "--out", str(tmp_path), "--quiet"]) == 0
    record = json.loads((tmp_path / "result.json").read_text())["outputs"][0]
    assert record["status"] == "solved" and record["attempts"] == 1 and record["backtracks"] > 0
    names = [n.strip() for n in (tmp_path / "spec.txt").read_text().replace("\n", "").split(",")]
    run = load_spec(spec).spec.runs[0]
    grid = [run.tiled.names.index(n) for n in names if n]
    assert any(not n.startswith("empty") for n in names if n)
    assert no_cycle(grid, square_neighbours(5, 5), opens_of(run), OPPOSITE)


def test_acyclic_on_a_hex_map_counts_as_brute_force(write_spec):
    fields = {**LINES, "width": 3, "height": 2, "acyclic": {"tiles": ["line"]}}
    run = run_of(write_spec, **fields)
    near = hex_neighbours("pointy", 3, 2, (False, False))
    line = members(run, "line")
    opens = [set(range(6)) if on else set() for on in line]
    six = {d: (d + 3) % 6 for d in range(6)}
    expected = brute_count(
        6, run.values, near, run.tiled.sides, extra=lambda g: no_cycle(g, near, opens, six)
    )
    assert 0 < expected < brute_count(6, run.values, near, run.tiled.sides)
    assert counted_through_cli(write_spec(**fields)) == expected


def test_distance_on_a_cube_map_counts_as_brute_force(write_spec):
    rule = {"from": [0, 0, 0], "to": [1, 0, 1], "tiles": ["stone", "grass"], "min": 2, "max": 2}
    fields = {**CUBE_TERRAIN, "width": 2, "height": 1, "depth": 3, "distance": [rule]}
    run = run_of(write_spec, **fields)
    near = cube_neighbours((2, 1, 3), (False, False, False))
    on = members(run, "stone") | members(run, "grass")
    opens = [set(range(6)) if o else set() for o in on]
    six = {d: d ^ 1 if d >= 4 else (d + 2) % 4 for d in range(6)}
    expected = brute_count(
        6, run.values, near, run.tiled.sides,
        extra=lambda g: path_length(g, near, opens, six, 0, 3) == 2,
    )  # fmt: skip
    assert 0 < expected < brute_count(6, run.values, near, run.tiled.sides)
    assert counted_through_cli(write_spec(**fields)) == expected


@pytest.mark.parametrize("seed", range(3))
def test_the_partial_check_never_prunes_a_map_that_passes(write_spec, seed):
    """On random partial domains: a refusal means no assignment inside them passes (brute
    force, adjacency aside), and on complete maps the check is exactly the oracle's."""
    rule = {"from": [0, 0], "to": [2, 1], "tiles": ["line", "corner"], "exits": LOOP_EXITS,
            "min": 3, "max": 3}  # fmt: skip
    run = run_of(write_spec, **LOOPS, distance=[rule],
                 acyclic={"tiles": ["line", "corner"], "exits": LOOP_EXITS})  # fmt: skip
    rules = path_rules(run)
    near, opens = square_neighbours(3, 2), opens_of(run)

    def passes(grid) -> bool:
        return (
            no_cycle(grid, near, opens, OPPOSITE)
            and path_length(grid, near, opens, OPPOSITE, 0, 5) == 3
        )

    rng = np.random.default_rng(seed)
    refused = 0
    for _ in range(60):
        allowed = rng.random((6, run.values)) < 0.4
        allowed[np.arange(6), rng.integers(run.values, size=6)] = True
        dom = np.zeros((6, 1), dtype=np.uint64)
        for c, a in zip(*np.nonzero(allowed), strict=True):
            dom[c, 0] |= np.uint64(1) << np.uint64(a)
        choices = [np.flatnonzero(row).tolist() for row in allowed]
        any_passes = any(passes(g) for g in itertools.product(*choices))
        if not paths_ok(dom, rules):
            refused += 1
            assert not any_passes
        if allowed.sum() == 6:
            assert paths_ok(dom, rules) == any_passes
    assert refused > 0


def test_one_complete_output_is_in_the_singular(write_spec, capsys):
    spec = write_spec(**SQUARE_LINES, size=1, counts=[{"tile": "line", "max": 0}])
    assert main(["count", str(spec)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "spec: 1 complete output"
