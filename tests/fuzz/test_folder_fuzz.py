"""Damaged build folders through `merge` and `gallery`: exit 0, or one line with exit 1 or
2; never exit 3, never a hang, never hostile markup on a page (see folder_mutator.py)."""

from __future__ import annotations

import pytest

from .folder_mutator import build_folders, run_folder_fuzz

SEED = 26
COUNT = 200  # about 15 s on a busy 2-core machine
SHARDED = {"n-queens.yaml": ["--param", "n=6"], "sudoku-4x4.epcg": [], "tracery-weather.epcg": []}
SINGLE = ("sudoku-16.yaml",)  # a kind with a booklet


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("built")
    build_folders(root, SHARDED, SINGLE)
    return root


def test_damaged_folders_are_merged_shown_or_refused_in_one_line(built, tmp_path):
    figures = run_folder_fuzz(SEED, COUNT, built, tmp_path)
    assert figures.tried == COUNT
    assert not figures.failures, [(f.argv, f.code, f.output[-300:]) for f in figures.failures[:5]]
    codes = {code for _, code in figures.exits}
    assert codes <= {0, 1, 2} and {0, 1} <= codes  # the damage is found, not only missed
