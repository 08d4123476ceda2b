"""The overlapping model in 3D: every N x N x N block of a result occurs in the sample (turned
about the vertical or mirrored), and tiny outputs count as brute force."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from epcg_spec.cli.main import main
from epcg_spec.domains.wfc.formats_vox import read_vox, write_vox
from epcg_spec.domains.wfc.network import build_network
from epcg_spec.search import backtrack
from epcg_spec.spec.load import load_spec

SPECS = Path(__file__).parents[3] / "specs"


def blocks(grid: np.ndarray, n: int, wrap: bool) -> set[bytes]:
    """Every n-block of a (z, y, x) grid, with its turns about z and their mirrors."""
    out = set()
    spans = [s if wrap else s - n + 1 for s in grid.shape]
    for z, y, x in itertools.product(*(range(s) for s in spans)):
        block = grid
        for axis, start in enumerate((z, y, x)):
            block = np.take(block, range(start, start + n), axis, mode="wrap")
        for k in range(4):
            turned = np.rot90(block, k, axes=(1, 2))
            out |= {turned.tobytes(), turned[:, :, ::-1].copy().tobytes()}
    return out


def test_every_block_of_a_voxel_result_is_in_the_sample(tmp_path):
    spec = SPECS / "wfc-voxel-patterns.yaml"
    assert main(["build", str(spec), "--out", str(tmp_path), "--quiet"]) == 0
    sample, _ = read_vox((SPECS / "wfc-worlds" / "terrain-sample.vox").read_bytes())
    result, palette = read_vox((tmp_path / "wfc-voxel-patterns.vox").read_bytes())
    assert result.shape == (6, 20, 20)
    known = blocks(sample, 2, wrap=False)
    assert blocks(result, 2, wrap=False) <= known
    assert blocks(result[:2], 2, wrap=False) <= blocks(
        sample[:2], 2, wrap=False
    )  # ground: the floor's blocks at the bottom
    _, sample_palette = read_vox((SPECS / "wfc-worlds" / "terrain-sample.vox").read_bytes())
    assert all(palette[c] == sample_palette[c] for c in np.unique(result).tolist() if c)


def test_a_tiny_voxel_output_counts_as_brute_force(write_spec, tmp_path):
    sample = np.array([[[1, 0], [2, 1]], [[0, 3], [1, 1]]])  # (z, y, x)
    palette = {1: (9, 9, 9), 2: (1, 2, 3), 3: (4, 5, 6)}
    (tmp_path / "s.vox").write_bytes(write_vox((2, 2, 2), sample.ravel(), palette))
    spec = write_spec(model="overlapping", grid="cube", sample=str(tmp_path / "s.vox"), N=2,
                      symmetry=2, width=3, height=3, depth=2)  # fmt: skip
    run = load_spec(spec).spec.runs[0]
    assert run.topology.shape == (2, 2, 1)
    patterns = run.patterns.patterns

    # independent agreement: b one cell along an axis from a matches a's overlap
    def agree(a, b, axis):
        return np.array_equal(np.take(patterns[a], [1], axis), np.take(patterns[b], [0], axis))

    total = 0
    for choice in itertools.product(range(run.values), repeat=4):
        c = np.array(choice).reshape(2, 2)  # (y, x)
        if all(agree(c[y, 0], c[y, 1], 2) for y in range(2)) and all(
            agree(c[0, x], c[1, x], 1) for x in range(2)
        ):
            total += 1
    found, complete = backtrack.count(build_network(run))
    assert complete and found == total > 0
    assert run.patterns.codes.tolist() == [1, 0, 2, 3]  # in order of first appearance
