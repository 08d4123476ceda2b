"""Compiled expressions agree with the plain-Python oracle on random states."""

import numpy as np
import pytest

from epcg_spec.compile.connector import generated_module
from epcg_spec.spec.expr.analysis import Analyzer, Reads
from epcg_spec.spec.expr.ast import parse_expression
from epcg_spec.spec.expr.check import BOOL, FLOAT, ArraySymbol, ParamSymbol, check
from epcg_spec.spec.expr.codegen import ExpressionWriter
from tests.oracles.expr_oracle import evaluate

SYMBOLS = {
    "n": ParamSymbol("n", 0, 5),
    "m": ParamSymbol("m", 1, 3),
    "a": ArraySymbol("a", 0, 5, 0, 5),
    "b": ArraySymbol("b", 5, 4, -3, 3, start=-3),
}
CONDITIONS = [
    "all(a[i] != a[j] for i in range(n) for j in range(i + 1, n))",
    "any(a[i] == b[i] + 3 for i in range(4))",
    "count(a[i] > m for i in range(n)) == 2",
    "sum(a[i] * i for i in range(n)) % 3 == 1",
    "min(a[i] for i in range(n)) <= 1 < max(b[j] for j in range(len(b)))",
    "distinct(a[i] - i for i in range(n))",
    "distinct(a[i] * 20 + b[i % 4] for i in range(n))",
    "all(a[j] >= a[i] for i in range(n) for j in range(i, n) if b[i % 4] > 0)",
    "not (a[0] == 1 or a[4] == 2) and abs(b[0] - b[3]) >= 2",
    "(a[1] if b[1] > 0 else a[2]) // 2 == a[3] % 2",
    "all(distinct(a[i + d] - a[i] for i in range(n - d)) for d in range(1, n))",
    "min(a[0], a[1], b[2]) + max(a[3], 2) ** 2 > 7",
    "sum(count(a[i] == v for i in range(n)) for v in range(m)) >= 2",
    "a[a[0] % 5] != b[0] + 3",
    "-a[0] + a[1] - -b[2] < a[n - 1]",
    "a[1] // b[0] + a[2] % b[1] == b[2] // a[3] - a[4] % (b[3] - 1)",  # by zero: 0
]
NUMBERS = [
    "sum(a[i] for i in range(n)) / (1 + abs(b[0]))",
    "max(a[i] - b[i] for i in range(4))",
    "a[0] / b[1] + b[2] / (a[3] - 2)",
]


def _module():
    writer = ExpressionWriter(SYMBOLS, {}, prefix="t")
    analyzer = Analyzer(SYMBOLS, 9)
    writer.facts = analyzer.facts
    for i, text in enumerate(CONDITIONS + NUMBERS):
        expr = parse_expression(text)
        assert check(expr, SYMBOLS, BOOL if i < len(CONDITIONS) else FLOAT) == []
        analyzer.value(expr, {}, Reads())
        writer.function(f"f{i}", (), [f"return {writer.expr(expr, ())}"])
    module = generated_module("expression tests", writer.imports, [writer.source()])
    params = np.array([5, 3, *writer.constants], dtype=np.int64)
    return module, params


@pytest.fixture(scope="module")
def compiled():
    return _module()


def test_every_expression_matches_the_oracle_on_random_states(compiled):
    module, params = compiled
    parsed = [parse_expression(text) for text in CONDITIONS + NUMBERS]  # once, not per state
    rng = np.random.default_rng(2026)
    for _ in range(300):
        x = np.concatenate([rng.integers(0, 6, 5), rng.integers(0, 7, 4)]).astype(np.int64)
        arrays = {"a": x[:5].tolist(), "b": (x[5:] - 3).tolist()}
        for i, (text, expr) in enumerate(zip(CONDITIONS + NUMBERS, parsed, strict=True)):
            want = evaluate(expr, arrays, {"n": 5, "m": 3})
            got = getattr(module, f"f{i}")(x, params)
            assert got == pytest.approx(want), (text, arrays)
