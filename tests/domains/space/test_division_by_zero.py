"""`x // 0`, `x % 0`, `x / 0` and `0 ** -k` are 0 (docs/kinds/space.md), in every loop a
kernel runs in: the exhaustive loop is compiled with numba's Python error model, in which
the inlined division raised ZeroDivisionError, an internal error (exit 3)."""

import itertools
import json

import pytest

from epcg_spec.cli.main import main

CONSTRAINT = (
    "q[1] // q[0] + q[2] % q[0] + q[3] / (q[0] - 1) + q[1] // (q[2] - q[3])"
    " + (q[0] // 4) ** (q[1] - 2) <= 2"
)


def _holds(q: tuple[int, ...]) -> bool:
    """The constraint in plain Python, a division by zero giving 0."""

    def div(a, b, op):
        return op(a, b) if b != 0 else 0

    total = div(q[1], q[0], int.__floordiv__) + div(q[2], q[0], int.__mod__)
    total += div(q[3], q[0] - 1, int.__truediv__) + div(q[1], q[2] - q[3], int.__floordiv__)
    base, exponent = q[0] // 4, q[1] - 2
    total += 0 if base == 0 and exponent < 0 else base**exponent
    return total <= 2


@pytest.mark.parametrize("prune", [True, False])
def test_a_division_by_zero_is_0_in_the_kernels(prune, tmp_path, capsys):
    expected = sum(map(_holds, itertools.permutations(range(5), 4)))
    assert expected == 68  # by brute force, of 120
    spec = tmp_path / "div.yaml"
    spec.write_text(
        "kind: space\nname: div\nspace: {type: k-permutation, n: 5, k: 4, name: q}\n"
        f"constraints:\n  - {CONSTRAINT}\n"
    )
    out = tmp_path / "out"
    flags = [] if prune else ["--no-prune"]
    assert main(["build", str(spec), "--out", str(out), "-q", *flags]) == 0
    assert json.loads((out / "result.json").read_text())["count"] == expected
    capsys.readouterr()
