"""The overlapping and tiled models: pattern counts, variants and rules, known answers."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from epcg_spec.cli.main import main
from epcg_spec.domains.wfc.network import build_network
from epcg_spec.domains.wfc.patterns import extract
from epcg_spec.domains.wfc.tiles import DIRECTIONS, rotate_exits
from epcg_spec.search import backtrack
from epcg_spec.spec.load import load_spec
from tests.domains.wfc.paths import DATA, PIPE_EXITS, PIPES
from tests.oracles.wfc_oracle import count_tilings

EXPECTED = json.loads((DATA / "expected.json").read_text())


@pytest.mark.parametrize("key", sorted(EXPECTED["overlapping"]))
def test_pattern_counts_match_the_fixtures(key):
    name, n, symmetry, periodic = key.split()
    image = np.asarray(Image.open(DATA / f"{name}.png").convert("RGB"))
    model = extract(image, int(n[2:]), int(symmetry[9:]), periodic.endswith("True"))
    assert model.count == EXPECTED["overlapping"][key]
    assert model.weights.sum() == (
        image.shape[0] * image.shape[1] if periodic.endswith("True") else
        (image.shape[0] - int(n[2:]) + 1) * (image.shape[1] - int(n[2:]) + 1)
    ) * int(symmetry[9:])  # fmt: skip


def tiled(write_spec, **fields):
    return load_spec(write_spec(model="tiled", tileset=str(PIPES), **fields)).spec.runs[0]


def test_the_pipes_tileset_has_twelve_variants(write_spec):
    run = tiled(write_spec)
    assert run.tiled.count == EXPECTED["tiled"]["pipes"]["T_all_variants"]
    assert (
        PIPES.read_text().count("<neighbor ")
        == EXPECTED["tiled"]["pipes"]["neighbor_lines_written"]
    )


def test_rules_closed_under_symmetry_are_exactly_the_matching_pipe_ends(write_spec):
    run = tiled(write_spec)
    model = run.tiled
    exits = [
        rotate_exits(set(PIPE_EXITS[name.split()[0]]), int(name.split()[1])) for name in model.names
    ]
    for a in range(model.count):
        for b in range(model.count):
            assert model.right[a, b] == (("right" in exits[a]) == ("left" in exits[b]))
            assert model.down[a, b] == (("down" in exits[a]) == ("up" in exits[b]))


def test_a_subset_keeps_its_tiles_and_their_rules(write_spec):
    run = tiled(write_spec, subset="Loops")
    assert sorted({n.split()[0] for n in run.tiled.names}) == ["corner", "empty", "line"]
    assert run.tiled.count == 1 + 2 + 4


@pytest.mark.parametrize("width,height", [(1, 1), (1, 3), (3, 1), (2, 2), (3, 2), (3, 3)])
def test_exact_counts_of_small_tilings(write_spec, width, height):
    run = tiled(write_spec, width=width, height=height)
    model = build_network(run)
    expected = count_tilings(run.tiled.right, run.tiled.down, width, height)
    assert backtrack.count(model) == (expected, True)


def test_every_tiling_of_a_periodic_two_colour_checker_is_one_of_two():
    image = np.asarray(Image.open(DATA / "checker.png").convert("RGB"))
    model = extract(image, 2, 8, True)
    assert model.count == 2
    assert model.right.tolist() == [[False, True], [True, False]]


def test_directions_are_a_quarter_turn_apart():
    assert rotate_exits({"right"}, 1) == {"up"}
    assert rotate_exits({"right", "up"}, 4) == {"left", "up"}
    assert DIRECTIONS == ("right", "up", "left", "down")


def test_a_noise_sample_of_16384_patterns_is_refused_before_its_tables(tmp_path, capsys):
    """Its tables of overlaps (2 x 16,384^2) were made as the spec was read: a 256 x 256
    sample of noise asked for 253 GiB (exit 3), a 128 x 128 one took 0.5 GiB."""
    noise = np.random.default_rng(1).integers(0, 256, (128, 128, 3), dtype=np.uint8)
    Image.fromarray(noise).save(tmp_path / "noise.png")
    spec = tmp_path / "noise.yaml"
    spec.write_text("kind: wfc\nmodel: overlapping\nsample: noise.png\nN: 3\nsymmetry: 1\n")
    assert main(["validate", "-q", str(spec)]) == 1
    assert capsys.readouterr().out == (
        f"{spec}:3:9: 16,384 patterns, more than the 11,585 whose neighbour tables "
        "(2 x 11,585^2) are made when a spec is read; use a smaller sample, N or symmetry\n"
    )


def test_9000_tiles_are_refused_before_their_tables(tmp_path, capsys):
    tiles = [{"name": f"t{i}", "color": "#000000"} for i in range(9000)]
    spec = tmp_path / "tiles.yaml"
    spec.write_text(json.dumps({"kind": "wfc", "model": "tiled", "size": 4, "tiles": tiles}))
    assert main(["validate", "-q", str(spec)]) == 1
    assert capsys.readouterr().out == (
        f"{spec}:1:55: 9,000 tile variants (tiles and their turns), more than the 8,192 whose "
        "neighbour tables (4 x 8,192^2) are made when a spec is read; use fewer tiles, or "
        "tiles with fewer symmetries\n"
    )
