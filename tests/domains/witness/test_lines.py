"""Candidate lines: counts from OEIS A007764, the oracle's walks, regions, the disk cache."""

import numpy as np
import pytest

from epcg_spec.core.errors import BuildError
from epcg_spec.domains.witness import lines
from epcg_spec.domains.witness.lines import (
    cache_path,
    cached_count,
    count_lines,
    enumerate_lines,
    line_path,
    line_set,
)
from epcg_spec.domains.witness.model import Grid
from tests.oracles import witness_oracle as oracle

# OEIS A007764: self-avoiding paths joining opposite corners of an n x n grid of cells.
A007764 = {1: 2, 2: 12, 3: 184, 4: 8512, 5: 1262816}


def square(n: int) -> Grid:
    return Grid(n, n, (0, 0), (n, n))


@pytest.mark.parametrize("n", sorted(A007764))
def test_line_counts_are_oeis_a007764(n):
    assert count_lines(square(n)) == A007764[n]


@pytest.mark.parametrize(
    ("width", "height", "start", "goal"),
    [
        (3, 2, (0, 0), (3, 2)),
        (2, 3, (1, 0), (2, 3)),
        (3, 3, (1, 1), (0, 3)),
        (1, 4, (0, 0), (1, 4)),
    ],
)
def test_lines_are_the_oracle_walks(width, height, start, goal):
    grid = Grid(width, height, start, goal)
    bits = enumerate_lines(grid)
    ours = sorted(tuple(line_path(grid, row)) for row in bits)
    theirs = sorted(tuple(p) for p in oracle.lines(width, height, start, goal))
    assert ours == theirs


def test_regions_are_the_oracle_regions():
    grid = square(3)
    lines = line_set(grid)
    for i in range(lines.count):
        path = line_path(grid, lines.bits[i])
        masks = lines.reg_mask[lines.reg_start[i] : lines.reg_start[i + 1]]
        ours = sorted(
            sorted(grid.cell_xy(c) for c in range(grid.cells) if int(m) >> c & 1) for m in masks
        )
        theirs = sorted(sorted(r) for r in oracle.regions(3, 3, path))
        assert ours == theirs
        for c in range(grid.cells):
            assert int(masks[lines.labels[i, c]]) >> c & 1


def test_lines_are_cached_on_disk_and_read_back():
    grid = Grid(2, 3, (0, 0), (2, 3))
    first = enumerate_lines(grid)
    assert cache_path(grid).exists()
    np.testing.assert_array_equal(enumerate_lines(grid), first)


def test_a_damaged_cache_file_is_reported_and_computed_again(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("EPCG_CACHE_DIR", str(tmp_path))
    grid = Grid(2, 3, (0, 0), (2, 3))
    first = enumerate_lines(grid)
    path = cache_path(grid)
    assert path.parent == tmp_path / "witness" and cached_count(grid) == len(first)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x10
    path.write_bytes(bytes(data))
    assert cached_count(grid) is None
    np.testing.assert_array_equal(enumerate_lines(grid), first)
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"damaged: {path}: its SHA-256 differs")
    assert cached_count(grid) == len(first) == 38  # OEIS A064298, 2 x 3 cells


def test_a_panel_with_too_many_lines_is_refused(monkeypatch):
    monkeypatch.setattr(lines, "MAX_LINES", 8000)
    with pytest.raises(BuildError, match="more than 8,000 candidate lines"):
        enumerate_lines(Grid(4, 4, (0, 0), (4, 0)))  # 8,590 lines
    assert count_lines(square(4)) == 8001
    assert count_lines(square(4), limit=10**6) == 8512
