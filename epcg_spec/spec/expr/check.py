"""Name resolution and type checking of expressions, with messages located by offset."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.errors import closest, listed
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
    Null,
    Num,
    Str,
    Unary,
    walk,
)

INT, BOOL, FLOAT, ARRAY = "integer", "condition", "number", "array"

FUNCTIONS = {
    "abs": "abs(x): absolute value",
    "min": "min(a, b, ...): the smallest",
    "max": "max(a, b, ...): the largest",
    "len": "len(array): number of positions",
}
AGGREGATES = {
    "all": "all(cond for ...): every term holds",
    "any": "any(cond for ...): some term holds",
    "count": "count(cond for ...): how many terms hold",
    "sum": "sum(x for ...): total",
    "min": "min(x for ...): smallest term (0 if none)",
    "max": "max(x for ...): largest term (0 if none)",
    "distinct": "distinct(x for ...): no two terms are equal",
}


@dataclass(frozen=True)
class ArraySymbol:
    """A state array: `length` positions starting at `offset` of the state, values lo..hi."""

    name: str
    offset: int
    length: int
    lo: int
    hi: int
    start: int = 0


@dataclass(frozen=True)
class ParamSymbol:
    """A named integer constant of the spec, read from slot `slot` of the parameter array."""

    name: str
    slot: int
    value: int


Symbol = ArraySymbol | ParamSymbol


# other modelling languages' names for distinct(): MiniZinc, CP-SAT, Choco
ALL_DIFFERENT = ("alldiff", "alldifferent", "alldistinct")


def _did_you_mean(func: str, names: list[str]) -> str:
    """'did you mean ...? ' for the function of `names` that `func` likely meant, or ''."""
    all_different = func.lower().replace("_", "") in ALL_DIFFERENT
    close = "distinct" if all_different else closest(func, names)
    return f"did you mean '{close}'? " if close else ""


class ExprProblem(Exception):
    """A problem at a character offset of an expression."""

    def __init__(self, offset: int, message: str, hint: str = ""):
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.hint = hint


def check(expr: Expr, symbols: dict[str, Symbol], want: str) -> list[ExprProblem]:
    """Every problem with `expr` used as a `want` (BOOL or INT/FLOAT), in source order."""
    checker = _Checker(symbols)
    try:
        got = checker.type_of(expr, ())
        if want == BOOL and got != BOOL:
            checker.problems.append(
                ExprProblem(expr.start, f"this is {_a(got)}, but a condition is needed here")
            )
        elif want in (INT, FLOAT) and got not in (INT, FLOAT, BOOL):
            checker.problems.append(
                ExprProblem(expr.start, f"this is {_a(got)}, but a number is needed here")
            )
    except ExprProblem as problem:
        checker.problems.append(problem)
    return sorted(checker.problems, key=lambda p: p.offset)


def result_type(expr: Expr, symbols: dict[str, Symbol], loops: tuple[str, ...] = ()) -> str:
    """The type of a checked expression (INT, FLOAT or BOOL) with `loops` in scope."""
    return _Checker(symbols).type_of(expr, loops)


def reads_state(expr: Expr, symbols: dict[str, Symbol]) -> bool:
    """True if evaluating `expr` reads a state array (len() of an array does not)."""
    return any(
        isinstance(node, Index) and isinstance(symbols.get(node.target.id), ArraySymbol)
        for node in walk(expr)
    )


def _a(kind: str) -> str:
    return {INT: "an integer", BOOL: "a condition", FLOAT: "a number", ARRAY: "an array"}[kind]


def _numeric(kind: str) -> bool:
    return kind in (INT, FLOAT, BOOL)


class _Checker:
    def __init__(self, symbols: dict[str, Symbol]):
        self.symbols = symbols
        self.problems: list[ExprProblem] = []

    def type_of(self, e: Expr, loops: tuple[str, ...]) -> str:
        method = getattr(self, "_" + type(e).__name__.lower())
        return method(e, loops)

    def _num(self, e: Num, loops) -> str:
        return INT if isinstance(e.value, int) else FLOAT

    def _bool(self, e: Bool, loops) -> str:
        return BOOL

    def _str(self, e: Str, loops) -> str:
        raise ExprProblem(e.start, "strings cannot be used in expressions")

    def _null(self, e: Null, loops) -> str:
        raise ExprProblem(e.start, "null cannot be used in expressions")

    def _name(self, e: Name, loops) -> str:
        if e.id in loops:
            return INT
        symbol = self.symbols.get(e.id)
        if isinstance(symbol, ArraySymbol):
            return ARRAY
        if isinstance(symbol, ParamSymbol):
            return INT
        known = sorted({*self.symbols, *loops})
        close = closest(e.id, known)
        hint = f"did you mean '{close}'?" if close else ""
        listing = f"known names: {listed(known)}" if known else "no names are defined"
        raise ExprProblem(e.start, f"unknown name '{e.id}' ({listing})", hint)

    def _index(self, e: Index, loops) -> str:
        if self.type_of(e.target, loops) != ARRAY:
            raise ExprProblem(e.target.start, "only a state array can be indexed")
        self._want_int(e.index, loops, "an index")
        return INT

    def _want_int(self, e: Expr, loops, what: str) -> None:
        kind = self.type_of(e, loops)
        if kind not in (INT, BOOL):
            raise ExprProblem(e.start, f"{what} must be an integer, not {_a(kind)}")

    def _want_number(self, e: Expr, loops) -> str:
        kind = self.type_of(e, loops)
        if kind == ARRAY:
            raise ExprProblem(e.start, "an array is not a number; index it, e.g. x[0]")
        return kind

    def _call(self, e: Call, loops) -> str:
        if e.func == "range":
            raise ExprProblem(e.start, "range(...) can only follow 'for VAR in'")
        if e.func in AGGREGATES and e.func not in FUNCTIONS:
            raise ExprProblem(
                e.start, f"{e.func}() takes a comprehension", f"e.g. {AGGREGATES[e.func]}"
            )
        if e.func not in FUNCTIONS:
            names = sorted({*FUNCTIONS, *AGGREGATES})
            raise ExprProblem(
                e.start,
                f"unknown function '{e.func}'",
                f"{_did_you_mean(e.func, names)}(functions: {', '.join(names)})",
            )
        if e.func == "len":
            if len(e.args) != 1 or self.type_of(e.args[0], loops) != ARRAY:
                raise ExprProblem(e.start, "len() takes one state array")
            return INT
        if e.func == "abs":
            if len(e.args) != 1:
                raise ExprProblem(e.start, "abs() takes exactly one argument")
            kind = self._want_number(e.args[0], loops)
            return INT if kind == BOOL else kind
        if len(e.args) < 2:
            raise ExprProblem(
                e.start, f"{e.func}() needs two or more arguments, or a comprehension"
            )
        kinds = [self._want_number(a, loops) for a in e.args]
        return FLOAT if FLOAT in kinds else INT

    def _aggregate(self, e: Aggregate, loops) -> str:
        if e.func not in AGGREGATES:
            listing = f"aggregates: {', '.join(sorted(AGGREGATES))}"
            if e.func in FUNCTIONS:
                raise ExprProblem(e.start, f"'{e.func}' cannot take a comprehension", listing)
            near = _did_you_mean(e.func, sorted(AGGREGATES))
            raise ExprProblem(e.start, f"unknown function '{e.func}'", f"{near}({listing})")
        inner = loops
        for loop in e.loops:
            if loop.var in self.symbols or loop.var in inner:
                raise ExprProblem(
                    loop.var_start, f"loop variable '{loop.var}' hides another name; rename it"
                )
            self._range(loop.iter, inner)
            inner = (*inner, loop.var)
            for cond in loop.conds:
                if self.type_of(cond, inner) != BOOL:
                    raise ExprProblem(cond.start, "an 'if' clause needs a condition")
        body = self.type_of(e.body, inner)
        if e.func in ("all", "any", "count"):
            if body != BOOL:
                raise ExprProblem(e.body.start, f"{e.func}() needs a condition, not {_a(body)}")
            return INT if e.func == "count" else BOOL
        if body == ARRAY:
            raise ExprProblem(e.body.start, "an array is not a number; index it, e.g. x[i]")
        if e.func == "distinct":
            if body == FLOAT:
                raise ExprProblem(e.body.start, "distinct() compares integers")
            return BOOL
        return FLOAT if body == FLOAT else INT

    def _range(self, e: Expr, loops) -> None:
        if not (isinstance(e, Call) and e.func == "range" and 1 <= len(e.args) <= 3):
            misspelt = isinstance(e, Call) and closest(e.func, ["range"])
            raise ExprProblem(
                e.start,
                "loops run over range(stop), range(start, stop[, step])",
                f"did you mean 'range', not '{e.func}'?" if misspelt else "",
            )
        for arg in e.args:
            self._want_int(arg, loops, "a range bound")
            if reads_state(arg, self.symbols):
                raise ExprProblem(arg.start, "a range bound must not read the state")

    def _unary(self, e: Unary, loops) -> str:
        if e.op == "not":
            if self.type_of(e.operand, loops) != BOOL:
                raise ExprProblem(e.operand.start, "'not' needs a condition")
            return BOOL
        kind = self._want_number(e.operand, loops)
        return INT if kind == BOOL else kind

    def _binary(self, e: Binary, loops) -> str:
        left = self._want_number(e.left, loops)
        right = self._want_number(e.right, loops)
        if e.op == "/" or FLOAT in (left, right):
            return FLOAT
        return INT

    def _compare(self, e: Compare, loops) -> str:
        for operand in e.operands:
            self._want_number(operand, loops)
        return BOOL

    def _boolop(self, e: BoolOp, loops) -> str:
        for value in e.values:
            if self.type_of(value, loops) != BOOL:
                raise ExprProblem(value.start, f"'{e.op}' joins conditions, not numbers")
        return BOOL

    def _ifexp(self, e: IfExp, loops) -> str:
        if self.type_of(e.cond, loops) != BOOL:
            raise ExprProblem(e.cond.start, "the test of 'if ... else' must be a condition")
        then, orelse = self.type_of(e.then, loops), self.type_of(e.orelse, loops)
        if (then == BOOL) != (orelse == BOOL):
            raise ExprProblem(e.start, "both branches of 'if ... else' must be of the same kind")
        if then == BOOL:
            return BOOL
        return FLOAT if FLOAT in (then, orelse) else INT
