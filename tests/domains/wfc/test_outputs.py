"""Outputs through the CLI: windows in the pattern set, allowed neighbours, constraints held."""

from __future__ import annotations

import dataclasses
import json
from collections import deque

import numpy as np
import pytest
from PIL import Image

from epcg_spec.cli.main import main
from epcg_spec.domains.wfc import render
from epcg_spec.domains.wfc.network import build_network
from epcg_spec.domains.wfc.patterns import extract
from epcg_spec.domains.wfc.tiles import rotate_exits
from epcg_spec.search import backtrack
from epcg_spec.spec.load import load_spec
from tests.domains.wfc.paths import DATA, PIPE_EXITS, PIPES


def build(spec, out) -> dict:
    assert main(["build", str(spec), "--out", str(out), "--quiet"]) == 0
    return json.loads((out / "result.json").read_text())


def grid_of(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.split(",") if c.strip()] for line in text.splitlines()]


@pytest.mark.parametrize(
    "sample,n,symmetry,periodic,size",
    [("maze", 3, 8, True, 24), ("bricks", 3, 8, False, 20), ("ground", 3, 2, True, 20)],
)
def test_every_window_of_an_overlapping_output_is_a_pattern(
    write_spec, tmp_path, sample, n, symmetry, periodic, size
):
    spec = write_spec(
        model="overlapping", sample=str(DATA / f"{sample}.png"), N=n, symmetry=symmetry,
        periodic=periodic, size=size, seed=4,
    )  # fmt: skip
    result = build(spec, tmp_path / "out")
    assert result["outputs"][0]["status"] == "solved"
    out = np.asarray(Image.open(tmp_path / "out" / "spec.png").convert("RGB"))
    model = extract(
        np.asarray(Image.open(DATA / f"{sample}.png").convert("RGB")), n, symmetry, True
    )
    known = {tuple(model.colors[p].ravel()) for p in model.patterns}
    height, width = out.shape[:2]
    last = (width, height) if periodic else (width - n + 1, height - n + 1)
    for y in range(last[1]):
        for x in range(last[0]):
            rows = np.arange(y, y + n) % height
            cols = np.arange(x, x + n) % width
            assert tuple(out[np.ix_(rows, cols)].ravel()) in known


def test_a_periodic_checker_output_is_a_perfect_checkerboard(write_spec, tmp_path):
    spec = write_spec(
        model="overlapping", sample=str(DATA / "checker.png"), N=2, periodic=True, size=16
    )
    build(spec, tmp_path / "out")
    out = np.asarray(Image.open(tmp_path / "out" / "spec.png").convert("L")) > 127
    parity = np.indices(out.shape).sum(axis=0) % 2 == 1
    assert np.array_equal(out, parity) or np.array_equal(out, ~parity)


def exits_of(name: str) -> set[str]:
    tile, k = name.split()
    return rotate_exits(set(PIPE_EXITS[tile]), int(k))


def check_pipes(grid: list[list[str]], periodic: bool) -> None:
    """Every pipe end meets a pipe end: adjacent tiles are allowed neighbours."""
    height, width = len(grid), len(grid[0])
    for y in range(height):
        for x in range(width):
            here = exits_of(grid[y][x])
            if x + 1 < width or periodic:
                assert ("right" in here) == ("left" in exits_of(grid[y][(x + 1) % width]))
            if y + 1 < height or periodic:
                assert ("down" in here) == ("up" in exits_of(grid[(y + 1) % height][x]))


@pytest.mark.parametrize("periodic", [False, True])
def test_tiled_outputs_join_every_pipe(write_spec, tmp_path, periodic):
    spec = write_spec(model="tiled", tileset=str(PIPES), size=20, periodic=periodic, seed=7)
    build(spec, tmp_path / "out")
    grid = grid_of((tmp_path / "out" / "spec.txt").read_text())
    assert len(grid) == 20 and all(len(row) == 20 for row in grid)
    check_pipes(grid, periodic)
    image = Image.open(tmp_path / "out" / "spec.png")
    assert image.size == (200, 200)


def pipe_components(grid):
    """Connected pipe networks, joined only through matching pipe ends."""
    height, width = len(grid), len(grid[0])
    steps = {"right": (1, 0), "left": (-1, 0), "up": (0, -1), "down": (0, 1)}
    seen, parts = set(), 0
    for y in range(height):
        for x in range(width):
            if (x, y) in seen or not exits_of(grid[y][x]):
                continue
            parts += 1
            todo = deque([(x, y)])
            seen.add((x, y))
            while todo:
                cx, cy = todo.popleft()
                for side in exits_of(grid[cy][cx]):
                    nx, ny = cx + steps[side][0], cy + steps[side][1]
                    if 0 <= nx < width and 0 <= ny < height and (nx, ny) not in seen:
                        seen.add((nx, ny))
                        todo.append((nx, ny))
    return parts


def test_fixed_tiles_borders_counts_and_one_connected_network_hold(write_spec, tmp_path):
    exits = {k: v for k, v in PIPE_EXITS.items() if v}
    spec = write_spec(
        model="tiled", tileset=str(PIPES), size=12, seed=3,
        border={"tile": "empty"},
        fixed=[{"at": [5, 6], "tile": "cross"}, {"at": [2, 2], "tile": "corner 1"}],
        counts=[{"tile": "cross", "max": 3}, {"tile": "t", "min": 4, "max": 10}],
        connected={"tiles": ["line", "corner", "t", "cross"], "exits": exits},
    )  # fmt: skip
    result = build(spec, tmp_path / "out")
    grid = grid_of((tmp_path / "out" / "spec.txt").read_text())
    check_pipes(grid, False)
    assert all(grid[0][x] == grid[-1][x] == "empty 0" for x in range(12))
    assert all(grid[y][0] == grid[y][-1] == "empty 0" for y in range(12))
    assert grid[6][5] == "cross 0" and grid[2][2] == "corner 1"
    tiles = [name.split()[0] for row in grid for name in row]
    assert tiles.count("cross") <= 3 and 4 <= tiles.count("t") <= 10
    assert pipe_components(grid) == 1
    assert result["outputs"][0]["attempts"] >= 1


LOOP = {
    "model": "tiled",
    "tileset": str(PIPES),
    "subset": "Loops",
    "size": 10,
    "border": {"tile": "empty"},
    "counts": [{"tile": "empty", "max": 50}],
    "connected": {
        "tiles": ["line", "corner"],
        "exits": {"line": ["left", "right"], "corner": ["right", "up"]},
    },
}


def test_backtracking_completes_what_restarts_alone_fail(write_spec):
    run = load_spec(write_spec(**LOOP)).spec.runs[0]
    model = build_network(run)
    base = backtrack.prepare(model)
    seeds = range(12)
    restarts = backtrack.Policy(max_backtracks=0, attempts=1)
    undoing = backtrack.Policy(max_backtracks=-1, attempts=1)
    restart_wins = sum(backtrack.solve(model, s, restarts, base).status == "solved" for s in seeds)
    assert restart_wins <= 3
    for s in seeds:
        outcome = backtrack.solve(model, s, undoing, base)
        assert outcome.status == "solved"
        names = [run.tiled.names[v] for v in outcome.values]
        grid = [names[y * 10 : (y + 1) * 10] for y in range(10)]
        check_pipes(grid, False)
        assert pipe_components(grid) == 1
        assert sum(n.startswith("empty") for n in names) <= 50


def test_the_same_seed_gives_the_same_bytes(write_spec, tmp_path):
    spec = write_spec(
        model="overlapping", sample=str(DATA / "maze.png"), size=20, periodic=True, seed=9
    )
    build(spec, tmp_path / "a")
    build(spec, tmp_path / "b")
    assert (tmp_path / "a" / "spec.png").read_bytes() == (tmp_path / "b" / "spec.png").read_bytes()


def test_ground_puts_the_sample_bottom_at_the_output_bottom(write_spec, tmp_path):
    spec = write_spec(
        model="overlapping", sample=str(DATA / "ground.png"), N=3, symmetry=2, ground=True,
        periodic=True, size=24, seed=1,
    )  # fmt: skip
    build(spec, tmp_path / "out")
    out = np.asarray(Image.open(tmp_path / "out" / "spec.png").convert("RGB"))
    soil = np.array([110, 70, 30])
    assert np.all(out[-2:] == soil)
    assert not np.any(np.all(out[:-2] == soil, axis=-1))


def test_a_limit_writes_the_partial_output(write_spec, tmp_path):
    spec = write_spec(model="tiled", tileset=str(PIPES), size=12, limit=10)
    result = build(spec, tmp_path / "out")
    assert result["outputs"][0]["status"] == "paused"
    assert "?" in (tmp_path / "out" / "spec.txt").read_text()


CHECKER = {
    "model": "tiled",
    "tiles": [{"name": "a", "color": "#000000"}, {"name": "b", "color": "#ffffff"}],
    "neighbors": [{"left": "a", "right": "b"}],
}


def test_one_attempt_contradiction_and_backtrack_are_said_in_the_singular(
    write_spec, tmp_path, capsys
):
    spec = write_spec(**CHECKER, width=2, height=1, seed=1)
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("spec: solved after 1 attempt, 0 contradictions, 0 backtracks, ")
    odd = write_spec(**CHECKER, width=3, height=1, periodic=[True, False], search={"attempts": 1})
    assert main(["build", str(odd), "--out", str(tmp_path / "odd"), "-q"]) == 1
    assert "every choice (2 contradictions, 1 backtrack)" in capsys.readouterr().err
    flat = write_spec(**CHECKER, width=3, height=1, periodic=True)
    assert main(["validate", "-q", str(flat)]) == 1
    assert "the height needs at least 2 cells (it wraps)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "fields,where,message",
    [
        # a checkerboard cannot wrap around 3 columns: the search proves it, trying every choice
        (
            {**CHECKER, "width": 3, "height": 1, "periodic": [True, False]},
            "12:1",
            "spec: no 3 x 1 output can meet the tile rules: the search tried every choice "
            "(2 contradictions, 1 backtrack), so more attempts cannot help",
        ),
        # two neighbours fixed to one colour of a checkerboard: propagation alone refutes it
        (
            {**CHECKER, "width": 4, "height": 1, "fixed": [
                {"at": [3, 0], "tile": "a"}, {"at": [0, 0], "tile": "a"},
                {"at": [1, 0], "tile": "a"},
            ]},
            "19:3",
            "spec: fixed[1] and fixed[2] clash with the tile rules before any choice: no 4 x 1 "
            "output can meet them, and more attempts cannot help",
        ),
        # no pipe path from corner to corner of a 4 x 4 map is 2 steps long: the check of the
        # start says so (before, it was left to the search, which ran out of attempts)
        (
            {"model": "tiled", "tileset": str(PIPES), "size": 4, "distance": [
                {"from": [0, 0], "to": [3, 3], "tiles": ["line", "corner"], "max": 2},
            ]},
            "7:3",
            "spec: distance[0] clashes with the tile rules before any choice: no 4 x 4 output "
            "can meet it, and more attempts cannot help",
        ),
        # a line tile has no neighbour across it: no 2 x 2 map, whatever the constraints
        (
            {"model": "tiled", "size": 2, "tiles": [
                {"name": "h", "symmetry": "I", "color": "#000000"},
            ], "neighbors": [{"left": "h", "right": "h"}]},
            "4:1",
            "spec: the tile rules allow no 2 x 2 output: they contradict before any choice, so "
            "more attempts cannot help",
        ),
    ],
    ids=["search-proof", "fixed-cells-clash", "start-check", "tile-rules-alone"],
)  # fmt: skip
def test_a_proof_that_no_output_exists_says_more_attempts_cannot_help(
    write_spec, tmp_path, capsys, fields, where, message
):
    spec = write_spec(**fields, search={"attempts": 3})
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 1
    assert capsys.readouterr().err == f"{spec}:{where}: {message}\n"


@pytest.mark.parametrize(
    "search,hint",
    [
        (
            {"attempts": 2, "backtrack": False},
            "raise search.attempts or set search.backtrack: true",
        ),
        ({"attempts": 2, "max_backtracks": 0}, "raise search.attempts or search.max_backtracks"),
    ],
)
def test_attempts_that_run_out_ask_for_more(write_spec, tmp_path, capsys, search, hint):
    spec = write_spec(**CHECKER, width=3, height=1, periodic=[True, False], search=search)
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 1
    err = capsys.readouterr().err
    assert "spec: failed after 2 attempts (2 contradictions, 0 backtracks); " in err
    assert f"; {hint}, or loosen the constraints" in err


@pytest.mark.parametrize("black_background", [False, True])
def test_a_tiled_picture_drawn_by_bands_of_rows_is_the_whole_map_at_once(
    write_spec, black_background, monkeypatch
):
    """The picture was drawn from every cell's mean at once (16 bytes a pixel besides the
    picture: 1.2 GB for a 400 x 400 map of 10-pixel tiles); by bands of rows (here two rows
    a band, with a last band of one), the same bytes."""
    spec = write_spec(model="tiled", tileset=str(PIPES), width=9, height=5, seed=1)
    run = dataclasses.replace(load_spec(spec).spec.runs[0], black_background=black_background)
    monkeypatch.setattr(render, "BAND_PIXELS", 2 * 9 * run.tiled.images.shape[1] ** 2)
    rng = np.random.default_rng(7)
    domains = rng.random((run.cells, run.values)) < 0.3
    domains[::4] = True  # untouched cells: black on a black background
    domains[1::5] = False  # cells with no candidate left
    model, (columns, rows) = run.tiled, run.grid
    images = model.images.astype(np.float64)
    weights = domains * model.weights[None, :]
    total = weights.sum(axis=1, keepdims=True)
    mean = np.einsum("cv,vyxk->cyxk", weights / np.where(total > 0, total, 1.0), images)
    if black_background:
        mean[domains.all(axis=1)] = 0.0
    size = images.shape[1]
    whole = mean.reshape(rows, columns, size, size, 3).transpose(0, 2, 1, 3, 4)
    expected = np.floor(whole.reshape(rows * size, columns * size, 3)).astype(np.uint8)
    assert np.array_equal(render.tiled_pixels(run, domains), expected)
    assert len(np.unique(expected.reshape(-1, 3), axis=0)) > 10  # means, not tiles alone


def test_an_overlapping_picture_drawn_by_bands_of_rows_is_the_whole_map_at_once(
    write_spec, monkeypatch
):
    """The candidates of every cell were held as int64 at once (8 bytes a cell and pattern);
    by bands of rows (here two rows a band, with a last band of one), the same bytes."""
    spec = write_spec(model="overlapping", sample=str(DATA / "maze.png"), N=3, size=7, seed=1)
    run = load_spec(spec).spec.runs[0]
    monkeypatch.setattr(render, "BAND_VALUES", 2 * run.grid[0] * run.values)
    domains = np.random.default_rng(7).random((run.cells, run.values)) < 0.3
    domains[1::5] = False  # cells with no candidate left
    model, (columns, rows), colors = run.patterns, run.grid, run.patterns.colors.astype(np.int64)
    total = np.zeros((run.height, run.width, 3), dtype=np.int64)
    count = np.zeros((run.height, run.width), dtype=np.int64)
    cells = domains.reshape(rows, columns, -1).astype(np.int64)
    for dy in range(model.n):
        for dx in range(model.n):
            per_color = np.zeros((rows, columns, len(colors)), dtype=np.int64)
            for c in range(len(colors)):
                per_color[:, :, c] = cells @ (model.patterns[:, dy, dx] == c).astype(np.int64)
            ys, xs = (np.arange(rows) + dy) % run.height, (np.arange(columns) + dx) % run.width
            np.add.at(total, (ys[:, None], xs[None, :]), per_color @ colors)
            np.add.at(count, (ys[:, None], xs[None, :]), per_color.sum(axis=2))
    expected = (total // np.maximum(count, 1)[:, :, None]).astype(np.uint8)
    assert rows % 2 == 1 and np.array_equal(render.overlapping_pixels(run, domains), expected)
    assert len(np.unique(expected.reshape(-1, 3), axis=0)) > 5  # means, not the sample's alone
