"""A plain-Python evaluator of the expression language: the reference for compiled kernels."""

from __future__ import annotations

import operator

from epcg_spec.spec.expr.ast import (
    Aggregate,
    Binary,
    Bool,
    BoolOp,
    Call,
    Compare,
    IfExp,
    Index,
    Name,
    Num,
    Unary,
)

OPS = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": lambda a, b: a / b if b != 0 else 0.0,  # by zero: 0, as docs/kinds/space.md says
    "//": lambda a, b: a // b if b != 0 else 0,
    "%": lambda a, b: a % b if b != 0 else 0,
    "**": lambda a, b: a**b if b >= 0 or a != 0 else 0,
}
COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def evaluate(e, arrays: dict[str, list[int]], names: dict[str, int]):
    """The value of `e` with state arrays and integer names bound."""
    if isinstance(e, Num | Bool):
        return e.value
    if isinstance(e, Name):
        return names[e.id]
    if isinstance(e, Index):
        return arrays[e.target.id][evaluate(e.index, arrays, names)]
    if isinstance(e, Call):
        if e.func == "len":
            return len(arrays[e.args[0].id])
        args = [evaluate(a, arrays, names) for a in e.args]
        return {"abs": abs, "min": min, "max": max}[e.func](*args)
    if isinstance(e, Unary):
        value = evaluate(e.operand, arrays, names)
        return (not value) if e.op == "not" else -value
    if isinstance(e, Binary):
        return OPS[e.op](evaluate(e.left, arrays, names), evaluate(e.right, arrays, names))
    if isinstance(e, Compare):
        values = [evaluate(o, arrays, names) for o in e.operands]
        return all(COMPARE[op](a, b) for op, a, b in zip(e.ops, values, values[1:], strict=False))
    if isinstance(e, BoolOp):
        values = (evaluate(v, arrays, names) for v in e.values)
        return all(values) if e.op == "and" else any(values)
    if isinstance(e, IfExp):
        if evaluate(e.cond, arrays, names):
            return evaluate(e.then, arrays, names)
        return evaluate(e.orelse, arrays, names)
    if isinstance(e, Aggregate):
        terms = [evaluate(e.body, arrays, b) for b in _bindings(e.loops, arrays, dict(names))]
        return {
            "all": lambda: all(terms),
            "any": lambda: any(terms),
            "count": lambda: sum(bool(t) for t in terms),
            "sum": lambda: sum(terms),
            "min": lambda: min(terms, default=0),
            "max": lambda: max(terms, default=0),
            "distinct": lambda: len(set(terms)) == len(terms),
        }[e.func]()
    raise AssertionError(type(e))


def _bindings(loops, arrays, names):
    if not loops:
        yield dict(names)
        return
    loop = loops[0]
    bounds = [evaluate(a, arrays, names) for a in loop.iter.args]
    for value in range(*bounds):
        names[loop.var] = value
        if all(evaluate(c, arrays, names) for c in loop.conds):
            yield from _bindings(loops[1:], arrays, names)
    names.pop(loop.var, None)
