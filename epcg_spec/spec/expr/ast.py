"""The expression AST, built from the lark tree; every node knows its character span."""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token, Tree

from ..grammar import decode_string, parse


@dataclass(frozen=True, eq=False)
class Expr:
    """Base of every node; `start`/`end` are offsets into the expression text."""

    start: int
    end: int


@dataclass(frozen=True, eq=False)
class Num(Expr):
    value: int | float


@dataclass(frozen=True, eq=False)
class Bool(Expr):
    value: bool


@dataclass(frozen=True, eq=False)
class Str(Expr):
    value: str


@dataclass(frozen=True, eq=False)
class Null(Expr):
    pass


@dataclass(frozen=True, eq=False)
class Name(Expr):
    id: str


@dataclass(frozen=True, eq=False)
class Index(Expr):
    target: Expr
    index: Expr


@dataclass(frozen=True, eq=False)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Loop:
    """One `for var in range(...) if cond ...` clause of a comprehension."""

    var: str
    var_start: int
    iter: Expr
    conds: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Aggregate(Expr):
    func: str
    body: Expr
    loops: tuple[Loop, ...]


@dataclass(frozen=True, eq=False)
class Unary(Expr):
    op: str
    operand: Expr


@dataclass(frozen=True, eq=False)
class Binary(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, eq=False)
class Compare(Expr):
    operands: tuple[Expr, ...]
    ops: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class BoolOp(Expr):
    op: str
    values: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class IfExp(Expr):
    cond: Expr
    then: Expr
    orelse: Expr


def parse_expression(text: str) -> Expr:
    """Parse one expression; raises grammar.SyntaxProblem with the offset of the error."""
    return _build(parse(text, "expression").children[0])


def _span(node: Tree | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.start_pos, node.end_pos
    return node.meta.start_pos, node.meta.end_pos


def _build(node: Tree | Token) -> Expr:
    start, end = _span(node)
    rule = node.data
    kids = node.children
    if rule == "int_":
        return Num(start, end, int(kids[0]))
    if rule == "float_":
        return Num(start, end, float(kids[0]))
    if rule in ("true", "false"):
        return Bool(start, end, rule == "true")
    if rule == "null":
        return Null(start, end)
    if rule == "string":
        return Str(start, end, decode_string(kids[0]))
    if rule == "name":
        return Name(start, end, str(kids[0]))
    if rule == "index":
        return Index(start, end, _build(kids[0]), _build(kids[1]))
    if rule == "call":
        return Call(start, end, str(kids[0]), tuple(_build(k) for k in kids[1:]))
    if rule == "aggregate":
        return Aggregate(start, end, str(kids[0]), _build(kids[1]), tuple(map(_loop, kids[2:])))
    if rule in ("neg", "not_"):
        return Unary(start, end, "-" if rule == "neg" else "not", _build(kids[0]))
    if rule == "pow_":
        return Binary(start, end, "**", _build(kids[0]), _build(kids[1]))
    if rule == "binop":
        return Binary(start, end, str(kids[1]), _build(kids[0]), _build(kids[2]))
    if rule == "compare":
        return Compare(
            start, end, tuple(_build(k) for k in kids[::2]), tuple(str(k) for k in kids[1::2])
        )
    if rule in ("and_", "or_"):
        left, right = _build(kids[0]), _build(kids[1])
        op = rule[:-1]
        values = (
            (*left.values, right)
            if isinstance(left, BoolOp) and left.op == op
            else (
                left,
                right,
            )
        )
        return BoolOp(start, end, op, values)
    if rule == "ifexp":
        return IfExp(start, end, _build(kids[1]), _build(kids[0]), _build(kids[2]))
    raise AssertionError(f"unhandled grammar rule {rule}")


def _loop(node: Tree) -> Loop:
    var = node.children[0]
    conds = tuple(_build(c.children[0]) for c in node.children[2:])
    return Loop(str(var), var.start_pos, _build(node.children[1]), conds)


def walk(expr: Expr):
    """Every node of the tree, parents before children."""
    yield expr
    for child in children(expr):
        yield from walk(child)


def children(expr: Expr) -> list[Expr]:
    """The direct sub-expressions of a node, in source order."""
    if isinstance(expr, Index):
        return [expr.target, expr.index]
    if isinstance(expr, Call):
        return list(expr.args)
    if isinstance(expr, Aggregate):
        out = []
        for loop in expr.loops:
            out.append(loop.iter)
            out.extend(loop.conds)
        return [expr.body, *out]
    if isinstance(expr, Unary):
        return [expr.operand]
    if isinstance(expr, Binary):
        return [expr.left, expr.right]
    if isinstance(expr, Compare):
        return list(expr.operands)
    if isinstance(expr, BoolOp):
        return list(expr.values)
    if isinstance(expr, IfExp):
        return [expr.cond, expr.then, expr.orelse]
    return []
