"""Checked expressions to numba-compilable Python source (never eval/exec of user text).

Names reach the source only through `identifier`, numbers only through repr() or int().

State arrays are read from the flat state `x`, parameters from the array `P`, and each
comprehension becomes a small @njit helper with early exits, so the generated module
holds only module-level functions that numba caches and inlines.
"""

from __future__ import annotations

from ...compile.connector import identifier
from .analysis import AggregateFacts
from .ast import (
    Aggregate,
    Binary,
    Bool,
    BoolOp,
    Call,
    Compare,
    Expr,
    IfExp,
    Index,
    Name,
    Num,
    Unary,
)
from .check import FLOAT, ArraySymbol, ParamSymbol, Symbol, result_type

NJIT = '@njit(cache=True, error_model="numpy", inline="always")'
MASK_BITS = 64
GUARDED = {"/": "div_true", "//": "div_floor", "%": "div_mod", "**": "power"}
"""The functions of expr/arith.py that divide (by zero: 0) or raise to a power, by operator."""


def var(name: str) -> str:
    """The Python name of a loop variable in generated code."""
    return f"v_{identifier(name)}"


def signature(variables: tuple[str, ...]) -> str:
    """The parameter list of a generated function: state, parameters, loop variables."""
    return ", ".join(["x", "P", *(var(v) for v in variables)])


class ExpressionWriter:
    """Writes expressions as Python source, collecting the helper functions they need.

    Numbers that depend on the params (the low end of a distinct's values, a buffer's size)
    are not written into the source: they go to `constants`, read as P[slot] after the
    params, so one compiled module serves every value of the params.
    """

    def __init__(self, symbols: dict[str, Symbol], facts: dict[int, AggregateFacts], prefix: str):
        self.symbols = symbols
        self.facts = facts
        self.prefix = prefix
        self.functions: list[str] = []
        self.allocates = False
        self.constants: list[int] = []
        # what the module of the functions written must import
        self.imports = ["from epcg_spec.spec.expr.arith import div_floor, div_mod, div_true, power"]
        self.first_slot = sum(isinstance(s, ParamSymbol) for s in symbols.values())

    def constant(self, value: int) -> str:
        """Source reading `value` from the parameter array."""
        self.constants.append(int(value))
        return f"P[{self.first_slot + len(self.constants) - 1}]"

    def function(self, name: str, variables: tuple[str, ...], body: list[str]) -> None:
        """Add a generated @njit function with the standard signature."""
        lines = "\n".join("    " + line for line in body)
        self.functions.append(f"{NJIT}\ndef {name}({signature(variables)}):\n{lines}\n")

    def source(self) -> str:
        return "\n\n".join(self.functions)

    def expr(self, e: Expr, variables: tuple[str, ...]) -> str:
        return getattr(self, "_" + type(e).__name__.lower())(e, variables)

    def _num(self, e: Num, variables) -> str:
        return repr(e.value)

    def _bool(self, e: Bool, variables) -> str:
        return repr(e.value)

    def _name(self, e: Name, variables) -> str:
        if e.id in variables:
            return var(e.id)
        symbol = self.symbols[e.id]
        assert isinstance(symbol, ParamSymbol)
        return f"P[{int(symbol.slot)}]"

    def _index(self, e: Index, variables) -> str:
        array = self.symbols[e.target.id]
        assert isinstance(array, ArraySymbol)
        index = self.expr(e.index, variables)
        where = f"{int(array.offset)} + {index}" if array.offset else index
        read = f"x[{where}]"
        return f"({read} + {int(array.start)})" if array.start else read

    def _call(self, e: Call, variables) -> str:
        if e.func == "len":
            return str(int(self.symbols[e.args[0].id].length))
        args = ", ".join(self.expr(a, variables) for a in e.args)
        return f"{identifier(e.func)}({args})"

    def _unary(self, e: Unary, variables) -> str:
        operand = self.expr(e.operand, variables)
        return f"(not {operand})" if e.op == "not" else f"(-{operand})"

    def _binary(self, e: Binary, variables) -> str:
        left, right = self.expr(e.left, variables), self.expr(e.right, variables)
        guarded = GUARDED.get(e.op)
        if guarded is not None:
            return f"{guarded}({left}, {right})"
        return f"({left} {e.op} {right})"

    def _compare(self, e: Compare, variables) -> str:
        values = [self.expr(o, variables) for o in e.operands]
        parts = [f"{a} {op} {b}" for op, a, b in zip(e.ops, values, values[1:], strict=False)]
        return "(" + " and ".join(parts) + ")"

    def _boolop(self, e: BoolOp, variables) -> str:
        return "(" + f" {e.op} ".join(self.expr(v, variables) for v in e.values) + ")"

    def _ifexp(self, e: IfExp, variables) -> str:
        cond, then, orelse = (self.expr(p, variables) for p in (e.cond, e.then, e.orelse))
        return f"({then} if {cond} else {orelse})"

    def _aggregate(self, e: Aggregate, variables) -> str:
        name = f"{self.prefix}agg{len(self.functions)}"
        self.functions.append("")
        slot = len(self.functions) - 1
        inner = variables + tuple(loop.var for loop in e.loops)
        body_type = result_type(e.body, self.symbols, inner)
        start, step, finish = self._accumulator(e, body_type)
        lines = list(start)
        depth = 0
        for loop in e.loops:
            bounds = ", ".join(self.expr(a, variables + _bound(e, loop)) for a in loop.iter.args)
            lines.append("    " * depth + f"for {var(loop.var)} in range({bounds}):")
            depth += 1
            for cond in loop.conds:
                test = self.expr(cond, variables + _bound(e, loop, True))
                lines.append("    " * depth + f"if not {test}:")
                lines.append("    " * (depth + 1) + "continue")
        value = self.expr(e.body, inner)
        lines.extend("    " * depth + line.format(value=value) for line in step)
        lines.extend(finish)
        body = "\n".join("    " + line for line in lines)
        self.functions[slot] = f"{NJIT}\ndef {name}({signature(variables)}):\n{body}\n"
        return f"{name}({signature(variables)})"

    def _accumulator(self, e: Aggregate, body_type: str):
        zero = "0.0" if body_type == FLOAT else "0"
        if e.func == "all":
            return [], ["if not {value}:", "    return False"], ["return True"]
        if e.func == "any":
            return [], ["if {value}:", "    return True"], ["return False"]
        if e.func == "count":
            return ["acc = 0"], ["if {value}:", "    acc += 1"], ["return acc"]
        if e.func == "sum":
            return [f"acc = {zero}"], ["acc += {value}"], ["return acc"]
        if e.func in ("min", "max"):
            better = "<" if e.func == "min" else ">"
            return (
                [f"acc = {zero}", "found = False"],
                [
                    "val = {value}",
                    f"if not found or val {better} acc:",
                    "    acc = val",
                    "    found = True",
                ],
                ["return acc"],
            )
        return self._distinct(e)

    def _distinct(self, e: Aggregate):
        facts = self.facts.get(id(e), AggregateFacts(lo=0, hi=0))
        lo, hi = facts.lo, facts.hi
        if lo is not None and hi is not None and hi - lo < MASK_BITS:
            low = self.constant(lo)
            return (
                ["seen = np.uint64(0)"],
                [
                    f"bit = np.uint64(1) << np.uint64({{value}} - {low})",
                    "if (seen & bit) != np.uint64(0):",
                    "    return False",
                    "seen |= bit",
                ],
                ["return True"],
            )
        self.allocates = True
        return (
            [f"buf = np.empty({self.constant(max(facts.max_terms, 1))}, np.int64)", "used = 0"],
            [
                "val = {value}",
                "for k in range(used):",
                "    if buf[k] == val:",
                "        return False",
                "buf[used] = val",
                "used += 1",
            ],
            ["return True"],
        )


def _bound(e: Aggregate, loop, including: bool = False) -> tuple[str, ...]:
    """The loop variables of `e` bound before (or, with `including`, at) `loop`."""
    names = []
    for other in e.loops:
        if other is loop:
            if including:
                names.append(other.var)
            break
        names.append(other.var)
    return tuple(names)
