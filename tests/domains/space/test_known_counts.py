"""Counts that mathematics fixes, computed from the example specs in specs/."""

import pytest

from epcg_spec.core.context import RunContext
from epcg_spec.spec.load import load_spec
from tests.docs.test_examples import ROOT, fenced_blocks
from tests.domains.space.helpers import run

QUEENS = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200}  # A000170
COSTAS = {1: 1, 2: 2, 3: 4, 4: 12, 5: 40, 6: 116, 7: 200, 8: 444, 9: 760}  # A008404
LANGFORD = {3: 1, 4: 1, 5: 0, 6: 0, 7: 26, 8: 150}  # A014552
GOLOMB = {4: 6, 5: 11, 6: 17, 7: 25, 8: 34}  # A003022: optimal lengths


@pytest.mark.parametrize(("n", "expected"), QUEENS.items())
def test_n_queens(n, expected):
    result = run("n-queens", n=n)
    assert result["count"] == expected
    assert result["evaluated"] + result["pruned"] == result["space_size"]


def test_magic_squares_of_order_3():
    result = run("magic-square")
    assert result["count"] == 8
    centre = {tuple(b["state"]["m"]) for b in result["best"]}
    assert len(centre) == 8 and all(state[4] == 5 for state in centre)


@pytest.mark.parametrize(("n", "expected"), COSTAS.items())
def test_costas_arrays(n, expected):
    assert run("costas-array", n=n)["count"] == expected


@pytest.mark.parametrize(("n", "expected"), LANGFORD.items())
def test_langford_pairings(n, expected):
    assert run("langford", n=n)["count"] == expected


@pytest.mark.parametrize(("marks", "length"), [(m, n) for m, n in GOLOMB.items() if m < 8])
def test_optimal_golomb_rulers(marks, length):
    result = run("golomb-ruler", marks=marks, max_length=length + 3)
    assert result["best"][0]["score"] == length
    ruler = result["best"][0]["state"]["mark"]
    distances = [b - a for i, a in enumerate(ruler) for b in ruler[i + 1 :]]
    assert len(set(distances)) == len(distances)


@pytest.mark.slow
def test_optimal_golomb_ruler_of_8_marks():
    assert run("golomb-ruler", marks=8, max_length=36)["best"][0]["score"] == GOLOMB[8]


def test_sicherman_dice_are_the_only_other_pair():
    result = run("sicherman-dice")
    assert result["count"] == 3
    pairs = {(tuple(b["state"]["a"]), tuple(b["state"]["b"])) for b in result["best"]}
    ordinary, sicherman = (1, 2, 3, 4, 5, 6), ((1, 2, 2, 3, 3, 4), (1, 3, 4, 5, 6, 8))
    assert pairs == {(ordinary, ordinary), sicherman, sicherman[::-1]}


def test_the_partitions_of_30_with_the_total_alone_as_the_docs_give(tmp_path):
    (block,) = [b for b in fenced_blocks(ROOT / "docs/kinds/space.md") if "partitions" in b.text]
    spec = tmp_path / "partitions.yaml"
    spec.write_text(block.text)
    loaded = load_spec(spec)
    result = loaded.domain.compile(loaded.spec).run(RunContext(time_limit=60)).result
    assert "partial" not in result
    assert result["count"] == 5604  # A000041
    assert result["pruned"] > 1000 * result["evaluated"]
