"""Bounds on prefixes (expr/interval.py): totals and counts prune before every position they
read is set, and every count stays the count of the unpruned run."""

import random

import pytest

import epcg_spec
from tests.domains.space.helpers import run

# Each template is chosen by the param `sel` (`sel != i or ...`): the params go to the
# kernels as data, so one compiled module serves every draw of a space's variant.
TEMPLATES = [
    "sum(x[i] for i in range(k)) == a",
    "a <= sum(x[i] * x[i] for i in range(k)) < b",
    "count(x[i] == c for i in range(k)) >= b",
    "count(x[i] > x[i + 1] for i in range(k - 1)) == c",
    "min(x[i] for i in range(1, k)) + max(x[i] for i in range(k - 1)) > a",
    "abs(x[0] - x[k - 1]) * 2 - x[1] <= a",
    "(x[0] + 2 * x[1]) % 3 + x[2] // 2 - x[k - 1] >= c",
    "sum(x[i] for i in range(k) if x[i] > c) <= a",
    "count(x[i] + x[j] == a for i in range(k) for j in range(i + 1, k)) <= b",
    "sum((x[i] if x[i] % 2 == 0 else -x[i]) for i in range(k)) > c",
    "max(x[0], x[1] * 2, -x[2]) - min(x[1], x[3]) < a",
    "-sum(x[i] * (i - 1) for i in range(k)) >= a",
    "x[0] * x[1] - x[2] * x[3] > a",
    "sum(x[i] for i in range(k)) // (x[0] + 1) <= c",
    "any(sum(x[j] for j in range(i + 1)) > a for i in range(k))",
    "c < x[0] + x[1] <= a + c",
    "count(not (x[i] < c) and x[i] != a for i in range(k)) < b",
    "x[x[0] % k] + x[1] >= c",
]
GUARDED = "all(sel != {i} or x[i] + x[i + 1] <= a for i in range(k - 1) if x[i] > c)"
VARIANTS = {  # the space, with its size params drawn in the ranges given
    "power": ("{type: power, base: n, k: k, name: x, start: -1}", (2, 4), (4, 5)),
    "permutation": ("{type: permutation, n: k, name: x, start: 1}", (0, 0), (4, 6)),
    "combination": ("{type: combination, n: n, k: k, name: x}", (6, 9), (4, 5)),
    "multiset": ("{type: multiset, n: n, k: k, name: x, start: 1}", (3, 6), (4, 6)),
    "product": (
        "{type: product, factors: [{type: power, base: 2, k: 2, name: y}, "
        "{type: multiset, n: n, k: k, name: x}]}",
        (3, 5),
        (4, 5),
    ),
}
DRAWS = 2  # per template and variant: 190 specs in all, 0.05 s each once compiled


def _spec(variant: str) -> str:
    space = VARIANTS[variant][0]
    lines = [f"  - sel != {i} or {t}" for i, t in enumerate(TEMPLATES)]
    lines.append(f"  - {GUARDED.format(i=len(TEMPLATES))}")
    params = "{sel: 0, n: 2, k: 4, a: 0, b: 0, c: 0}"
    return f"kind: space\nparams: {params}\nspace: {space}\nconstraints:\n" + "\n".join(lines)


def _draw(rng: random.Random, variant: str, sel: int) -> dict[str, int]:
    _, (n_lo, n_hi), (k_lo, k_hi) = VARIANTS[variant]
    k = rng.randint(k_lo, k_hi)
    n = max(rng.randint(n_lo, n_hi), k) if variant == "combination" else rng.randint(n_lo, n_hi)
    return {
        "sel": sel,
        "n": n,
        "k": k,
        "a": rng.randint(-2, 3 * k),
        "b": rng.randint(0, k + 2),
        "c": rng.randint(-1, 4),
    }


@pytest.mark.slow  # each param set is a kernel of its own: 190 compiles on a cold cache
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_bounded_specs_count_as_without_pruning(variant):
    rng = random.Random(f"bounds-{variant}")
    text = _spec(variant)
    telling = 0  # runs where bounds pruned and some states, not all, meet the constraint
    for sel in range(len(TEMPLATES) + 1):
        for _ in range(DRAWS):
            params = _draw(rng, variant, sel)
            spec = epcg_spec.loads(text, params=params)
            pruned = spec.build().data
            scanned = spec.build(no_prune=True).data
            assert pruned["count"] == scanned["count"], params
            assert pruned["best"] == scanned["best"], params
            assert pruned["evaluated"] + pruned["pruned"] == scanned["evaluated"], params
            telling += pruned["pruned"] > 0 and 0 < pruned["count"] < scanned["evaluated"]
    assert telling >= 6


def test_every_template_but_a_state_read_index_gets_bounds():
    spec = epcg_spec.loads(_spec("power"), params={"k": 5})
    families = spec.loaded.spec.pruning.terms
    bounded = [f for f in families if f.bounds]
    assert len(families) == len(TEMPLATES) + 1
    assert len(bounded) == len(TEMPLATES)  # x[x[0] % k]: where it reads, the state says


def test_magic_squares_prune_on_their_row_sums_before_a_row_is_full():
    three = run("magic-square")
    assert three["count"] == 8
    assert three["evaluated"] < 100  # checked whole on complete rows only: 1,008 evaluated
    assert three["evaluated"] + three["pruned"] == three["space_size"]


@pytest.mark.slow  # the kernel of order 3 above, on 2.1e13 ranks: 5 s of search on 2 cores
def test_magic_squares_of_order_4_are_counted_with_bounds():
    four = run("magic-square", order=4)  # 45 s without bounds, 5 s with (docs/benchmarks.md)
    assert four["count"] == 7040  # OEIS A006052
    assert four["evaluated"] + four["pruned"] == four["space_size"]


PARTITIONS = """kind: space
params: {n: 20}
space: {type: multiset, n: n + 1, k: n, name: part}
constraints:
  - sum(part[i] for i in range(n)) == n
"""


@pytest.mark.parametrize(("n", "expected"), [(20, 627), (30, 5604)])  # OEIS A000041
def test_partitions_with_the_total_alone(n, expected):
    """The parts never decrease: the last one set bounds every part after it from below."""
    spec = epcg_spec.loads(PARTITIONS, params={"n": n})
    result = spec.build(time_limit=60).data
    assert "partial" not in result
    assert result["count"] == expected
    assert result["pruned"] > 1000 * result["evaluated"]
    usable = dict(spec.explain())["  usable on prefixes"]
    assert usable == f"yes: bounds on its sums and counts from depth 1, checked whole at depth {n}"


LATIN = """kind: space
params: {n: 4}
space: {type: power, base: n, k: n * n, name: c}
constraints:
  - all(count(c[r * n + j] == v for j in range(n)) == 1 for r in range(n) for v in range(n))
  - all(count(c[i * n + j] == v for i in range(n)) == 1 for j in range(n) for v in range(n))
"""


@pytest.mark.parametrize(
    "n",
    [4, pytest.param(5, marks=pytest.mark.slow)],  # order 5: 20 s on 2 cores
)
def test_latin_squares_written_with_counts(n):
    expected = {4: 576, 5: 161280}[n]  # OEIS A002860
    result = epcg_spec.loads(LATIN, params={"n": n}).build(time_limit=300).data
    assert "partial" not in result
    assert result["count"] == expected
    assert result["evaluated"] == expected * n  # bounds leave only the last cell to try
