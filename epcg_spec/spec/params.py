"""Spec parameters: named integers, overridable from the command line."""

from __future__ import annotations

from typing import Any

from ..core.errors import Diagnostic, Pos, SpecError, UsageError, closest, listed, shortened
from ..core.sizes import count_text
from .document import Document, Path, describe_path
from .expr.analysis import Analyzer, Reads
from .expr.ast import parse_expression
from .expr.check import INT, ExprProblem, ParamSymbol, check
from .grammar import SyntaxProblem


def parse_overrides(items: list[str]) -> dict[str, int]:
    """`NAME=VALUE` strings from --param into a dict; a malformed one is a usage error."""
    out: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip().isidentifier():
            raise UsageError(f"--param {item!r}: write NAME=VALUE, e.g. --param n=10")
        if name.strip() in out:  # the first would be ignored without a word
            raise UsageError(f"--param {name.strip()} is given twice; give it once")
        try:
            out[name.strip()] = int(value)
        except ValueError:
            raise UsageError(
                f"--param {shortened(item)!r}: the value must be an integer of at most 4,300 digits"
            ) from None
    return out


def resolve_params(doc: Document, overrides: dict[str, Any]) -> dict[str, int]:
    """The spec's `params` with command-line overrides applied; unknown overrides rejected."""
    params = dict(doc.data.get("params") or {})
    unknown = sorted(set(overrides) - set(params))
    if unknown:
        name = unknown[0]
        close = closest(name, list(params))
        hint = f" (did you mean '{close}'?)" if close else ""
        raise UsageError(
            f"--param {name}: the spec has no such param{hint}; params: {listed(list(params))}"
        )
    params.update(overrides)
    return params


def param_symbols(params: dict[str, int]) -> dict[str, ParamSymbol]:
    """Symbols for the expression language, one array slot per param in spec order."""
    return {
        name: ParamSymbol(name, slot, value) for slot, (name, value) in enumerate(params.items())
    }


def expression_problem(doc: Document, path: Path, problem: SyntaxProblem | ExprProblem):
    """A parse or check problem of the expression at `path`, located at its character."""
    hint = getattr(problem, "hint", "")
    message = problem.message
    if isinstance(problem, SyntaxProblem):
        message = problem.placed(lambda offset: _line_col(doc.text_pos(path, offset)))
    return Diagnostic(doc.text_pos(path, problem.offset), message, hint)


def _line_col(pos: Pos) -> str:
    return f"{pos.line}:{pos.col}"


MAX_FIELD = 2**31 - 1
"""Largest magnitude of an integer field (a size, a count, a coordinate)."""


def integer_field(doc: Document, path: Path, params: dict[str, int]) -> int:
    """An integer field that may also be written as an expression over the params;
    its value must lie within +-MAX_FIELD."""
    value = doc.get(path)
    result = value if isinstance(value, int) else _evaluate(doc, path, params)
    if abs(result) > MAX_FIELD:
        raise SpecError(
            doc.diag(
                path,
                f"{describe_path(path)} is {count_text(result)}, beyond the +-{MAX_FIELD:,} "
                "an integer field may hold",
                "use a smaller value",
            )
        )
    return result


def _evaluate(doc: Document, path: Path, params: dict[str, int]) -> int:
    value = doc.get(path)
    symbols = param_symbols(params)
    try:
        expr = parse_expression(value)
        problems = check(expr, symbols, INT)
        if problems:
            raise problems[0]
        result = Analyzer(symbols, 0).value(expr, {}, Reads())
    except (SyntaxProblem, ExprProblem) as problem:
        raise SpecError(expression_problem(doc, path, problem)) from None
    if not isinstance(result, int):
        raise SpecError(doc.diag(path, f"{value!r} is not an integer"))
    return result
