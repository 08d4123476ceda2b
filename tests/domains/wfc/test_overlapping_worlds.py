"""fixed, border and ground for the overlapping model on hex and cube grids: counts of tiny
maps equal brute force over what a cell shows, builds keep every rule, and a bad argument is
one located line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from epcg_spec.cli.main import main
from epcg_spec.domains.wfc.formats_vox import read_vox
from epcg_spec.domains.wfc.network import build_network
from epcg_spec.domains.wfc.voxels import pattern_voxels
from epcg_spec.search import backtrack
from epcg_spec.spec.load import load_spec
from tests.oracles.wfc_worlds_oracle import brute_count, cube_neighbours, hex_neighbours

SPECS = Path(__file__).parents[3] / "specs"
LAKES = {
    "model": "overlapping",
    "grid": "hex",
    "sample": str(SPECS / "wfc-worlds" / "hex-lakes.csv"),
    "N": 2,
    "width": 2,
    "height": 2,
}
# the sample's tile ids 2, 1, 0 are values 0, 1, 2 (first appearance), in these colours
SHOWN = ("#ae93a2", "#77b951", "#404040")
TERRAIN = {
    "model": "overlapping",
    "grid": "cube",
    "sample": str(SPECS / "wfc-worlds" / "terrain-sample.vox"),
    "N": 2,
    "periodic_input": False,
    "symmetry": 1,
}
STONE, AIR = "#8a8a8a", "#ffffff"


def counted(spec) -> int:
    found, complete = backtrack.count(build_network(load_spec(spec).spec.runs[0]))
    assert complete
    return found


@pytest.mark.parametrize(
    "rule,shows",
    [
        ({"fixed": [{"at": [1, 1], "color": SHOWN[0]}]}, lambda g, c: c[g[3]] == 0),
        ({"fixed": [{"row": 0, "color": SHOWN[2]}]}, lambda g, c: c[g[0]] == c[g[1]] == 2),
        ({"border": {"color": SHOWN[1], "sides": ["left"]}}, lambda g, c: c[g[0]] == c[g[2]] == 1),
    ],
)
def test_hex_fixed_and_border_count_as_brute_force(write_spec, rule, shows):
    free = load_spec(write_spec(**LAKES)).spec.runs[0]
    corner = free.patterns.patterns[:, 0, 0]  # the value a hex shows
    near = hex_neighbours("pointy", 2, 2, (False, False))
    everything = brute_count(4, free.values, near, free.patterns.sides)
    expected = brute_count(
        4, free.values, near, free.patterns.sides, extra=lambda g: shows(g, corner)
    )
    assert 0 < expected < everything
    assert counted(write_spec(**LAKES, **rule)) == expected


def test_hex_ground_lays_the_floor_at_the_bottom_only(write_spec, tmp_path):
    sample = tmp_path / "ground.csv"
    sky, hill, soil = 0, 1, 2
    rows = [[sky] * 8] * 3 + [[sky, hill, hill, sky, sky, sky, hill, sky], [soil] * 8]
    sample.write_text("\n".join(",".join(map(str, r)) for r in rows))
    spec = write_spec(model="overlapping", grid="hex", sample=str(sample), N=2, width=12,
                      height=7, ground=True, seed=2)  # fmt: skip
    run = load_spec(spec).spec.runs[0]
    # resting on the floor: sky or hill pairs over soil (sh, hh, hs, ss); hanging: soil pairs
    assert [len(f) for f in run.patterns.floor] == [4, 1]
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    outcome = backtrack.solve(build_network(run), 2, backtrack.Policy(), None)
    shown = run.patterns.patterns[outcome.values, 0, 0].reshape(7, 12)
    assert (shown[-1] == soil).all() and not (shown[:-1] == soil).any()  # ids are values here


def test_cube_fixed_and_border_count_as_brute_force(write_spec):
    size = {"width": 3, "height": 2, "depth": 2}
    free = load_spec(write_spec(**TERRAIN, **size)).spec.runs[0]
    cells = free.topology.shape
    near = cube_neighbours(cells, (False, False, False))
    codes = free.patterns.codes
    stone = int(np.flatnonzero([tuple(c) == (138, 138, 138) for c in free.patterns.colors])[0])

    def voxels(grid):
        return pattern_voxels(free.patterns, cells, np.asarray(grid), (3, 2, 2)).reshape(2, 2, 3)

    def stone_at(grid) -> bool:
        return voxels(grid)[1, 1, 2] == codes[stone]

    def air_on_top(grid) -> bool:
        return (voxels(grid)[1] == 0).all()

    n = int(np.prod(cells))
    everything = brute_count(n, free.values, near, free.patterns.sides)
    for rule, extra in (
        ({"fixed": [{"at": [2, 1, 1], "color": STONE}]}, stone_at),
        ({"border": {"color": AIR, "sides": ["up"]}}, air_on_top),
    ):
        expected = brute_count(n, free.values, near, free.patterns.sides, extra=extra)
        assert 0 < expected < everything
        assert counted(write_spec(**TERRAIN, **size, **rule)) == expected


def test_a_cube_build_keeps_its_fixed_voxel_and_its_border(write_spec, tmp_path):
    spec = write_spec(**TERRAIN, width=8, height=8, depth=4, seed=3,
                      fixed=[{"at": [4, 4, 0], "color": STONE}],
                      border={"color": AIR, "sides": ["up"]})  # fmt: skip
    assert main(["build", str(spec), "--out", str(tmp_path), "--quiet"]) == 0
    grid, palette = read_vox((tmp_path / "spec.vox").read_bytes())
    assert grid.shape == (4, 8, 8) and (grid[3] == 0).all() and (grid[:3] > 0).any()
    assert palette[int(grid[0, 4, 4])] == (138, 138, 138)


BROKEN = [
    ({**LAKES, "ground": True, "orientation": "flat"}, "ground", "flat-top hexes"),
    ({**LAKES, "ground": True, "periodic": True}, "ground", "does not wrap"),
    ({**LAKES, "fixed": [{"at": [1, 1], "color": "#123456"}]}, "color", "not a colour of"),
    ({**LAKES, "border": {"color": SHOWN[0], "sides": ["up"]}}, "up", "'up' is not a side"),
    ({**TERRAIN, "fixed": [{"at": [1, 1], "color": STONE}]}, "- 1", "[x, y, z]"),
    ({**TERRAIN, "border": {"color": STONE, "sides": ["top"]}}, "top", "'top' is not a side"),
]


@pytest.mark.parametrize("fields,key,message", BROKEN)
def test_bad_arguments_give_one_located_line(write_spec, tmp_path, capsys, fields, key, message):
    spec = write_spec(**fields)
    assert main(["build", str(spec), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and err[0].startswith(f"{spec}:"), err
    line = spec.read_text().splitlines()[int(err[0].split(":")[1]) - 1]
    assert key in line, (err, line)
