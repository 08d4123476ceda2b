"""Static analysis of checked expressions, with the spec's parameters known.

The loops of every comprehension run here in plain Python over their concrete ranges
(range bounds never read the state), with state reads standing for unknown values in
known bounds. That finds every out-of-range index exactly, gives each `distinct` the
range of its values, and splits a constraint into terms, each tagged with the depth
(number of leading positions) it needs, which is what prefix pruning runs on.
"""

from __future__ import annotations

import itertools
import math
import operator
from dataclasses import dataclass, field

from ...core.sizes import count_text
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
    Loop,
    Name,
    Num,
    Unary,
    walk,
)
from .check import ArraySymbol, ExprProblem, ParamSymbol, Symbol, reads_state

BUDGET = 100_000
"""Most evaluation steps the analysis of one expression may take (the shipped specs' need
at most ~6,000)."""
SPEC_BUDGET = 20 * BUDGET
"""Most evaluation steps the analyses of all of one spec's expressions may take (20,000 small
constraints take 160,000): without it, each of many expressions spending most of BUDGET
held the check up (0.12 s each, minutes for a spec of a few thousand lines)."""
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
"""The integers a kernel computes with: a value beyond them would wrap around silently."""


@dataclass(frozen=True)
class Span:
    """An unknown value between lo and hi (None: unbounded on that side)."""

    lo: float | None
    hi: float | None


UNKNOWN_BOOL = Span(0, 1)
Value = int | float | bool | Span


@dataclass
class Reads:
    """The state positions an evaluation read (the deepest, and each one); unknown if an
    index read the state."""

    deepest: int = -1
    unknown: bool = False
    positions: set[int] = field(default_factory=set)


@dataclass
class AggregateFacts:
    """What the analysis learnt about one comprehension: most terms, hull of its values, and
    the most that the negative parts of its terms' bounds, or the positive ones, add up to
    (a bound on every partial sum of a `sum`; inf where a term is unbounded)."""

    max_terms: int = 0
    lo: float | None = None
    hi: float | None = None
    spread: float = 0

    def widen(self, value: Value) -> None:
        lo, hi = _bounds(value)
        self.lo = lo if self.lo is None or lo is None else min(self.lo, lo)
        self.hi = hi if self.hi is None or hi is None else max(self.hi, hi)


@dataclass
class TermFamily:
    """Terms of one sub-expression, each bound to loop values and checked at its depth;
    where its bounds can fail a prefix (`bounded`), also tested on the shorter prefixes of
    `bounds` (rows as `rows`: depth, then the loop values), see expr/interval.py."""

    body: Expr
    guards: tuple[Expr, ...]
    variables: tuple[str, ...]
    rows: list[tuple[int, ...]] = field(default_factory=list)
    bounded: bool = False
    bounds: list[tuple[int, ...]] = field(default_factory=list)


@dataclass
class DistinctFamily:
    """Groups of items that must be pairwise distinct; rows are (group, depth, forward,
    *values), `forward` 1 where the item is its newest position plus terms known before it
    (so the values that position must avoid can be read off the group's mask)."""

    node: Aggregate
    variables: tuple[str, ...]
    guards: tuple[Expr, ...]
    rows: list[tuple[int, ...]] = field(default_factory=list)
    groups: int = 0
    lo: float | None = None
    hi: float | None = None


class Analyzer:
    """Evaluates expressions abstractly over concrete loop bindings."""

    def __init__(self, symbols: dict[str, Symbol], state_length: int):
        self.symbols = symbols
        self.state_length = state_length
        self.facts: dict[int, AggregateFacts] = {}
        self.steps = 0
        self.total = 0  # every expression's steps, never counted again (SPEC_BUDGET)
        self.depths: set[int] = set()  # of the terms `decompose` made since `fresh`

    def fresh(self) -> Analyzer:
        """This analyzer, its BUDGET of steps counted again from 0 and no term's depth
        noted: one condition's analysis starts here (the budget bounds one expression, not
        every expression of a spec)."""
        self.steps = 0
        self.depths = set()
        return self

    # ---- evaluation ----

    def value(self, e: Expr, env: dict[str, int], reads: Reads) -> Value:
        self.steps += 1
        if self.steps > BUDGET:
            raise ExprProblem(
                e.start,
                f"this expression has too many terms to analyse (over {BUDGET:,} steps)",
                "use smaller parameters",
            )
        self.total += 1
        if self.total > SPEC_BUDGET:
            raise ExprProblem(
                e.start,
                "the spec's expressions have too many terms to analyse together (over "
                f"{SPEC_BUDGET:,} steps)",
                "use smaller parameters, or fewer expressions",
            )
        found = getattr(self, "_" + type(e).__name__.lower())(e, env, reads)
        beyond = [b for b in _bounds(found) if b is not None and not INT_MIN <= b <= INT_MAX]
        if beyond and all(isinstance(b, int) for b in beyond):  # floats do not wrap
            raise ExprProblem(
                e.start,
                f"this value {_can_be(found)}{_when(env)}, beyond the 64-bit integers "
                "kernels compute with (where it would wrap around)",
                "keep it within +-9.2e18",
            )
        return found

    def _num(self, e: Num, env, reads) -> Value:
        return e.value

    def _bool(self, e: Bool, env, reads) -> Value:
        return e.value

    def _name(self, e: Name, env, reads) -> Value:
        if e.id in env:
            return env[e.id]
        symbol = self.symbols[e.id]
        assert isinstance(symbol, ParamSymbol)
        return symbol.value

    def _index(self, e: Index, env, reads) -> Value:
        array = self.symbols[e.target.id]
        assert isinstance(array, ArraySymbol)
        index = self.value(e.index, env, reads)
        if isinstance(index, Span):
            lo, hi = index.lo, index.hi
            if lo is None or hi is None or lo < 0 or hi >= array.length:
                raise ExprProblem(
                    e.index.start,
                    f"this index may be out of range: it can be {_range_text(lo, hi)} but "
                    f"{array.name} has positions 0..{array.length - 1}",
                    "clamp it with min()/max()",
                )
            reads.unknown = True
        else:
            if not 0 <= index < array.length:
                raise ExprProblem(
                    e.index.start,
                    f"index {int(index)} is out of range for {array.name} (positions "
                    f"0..{array.length - 1}){_when(env)}",
                )
            reads.deepest = max(reads.deepest, array.offset + int(index))
            reads.positions.add(array.offset + int(index))
        return Span(array.lo, array.hi)

    def _call(self, e: Call, env, reads) -> Value:
        if e.func == "len":
            return self.symbols[e.args[0].id].length
        args = [self.value(a, env, reads) for a in e.args]
        if e.func == "abs":
            (arg,) = args
            if isinstance(arg, Span):
                lo, hi = arg.lo, arg.hi
                if lo is not None and lo >= 0:
                    return arg
                if hi is not None and hi <= 0:
                    return Span(-hi, None if lo is None else -lo)
                top = None if lo is None or hi is None else max(-lo, hi)
                return Span(0, top)
            return abs(arg)
        pick = min if e.func == "min" else max
        if any(isinstance(a, Span) for a in args):
            los, his = zip(*(_bounds(a) for a in args), strict=True)
            return Span(_pick(pick, los), _pick(pick, his))
        return pick(args)

    def bindings(self, loops: tuple[Loop, ...], env: dict[str, int], reads: Reads):
        """Every binding of the loops' variables whose static conditions hold."""
        yield from self._bindings(loops, dict(env), reads)

    def _bindings(self, loops, env, reads):
        if not loops:
            yield dict(env)
            return
        loop, rest = loops[0], loops[1:]
        bounds = [self.value(a, env, reads) for a in loop.iter.args]
        for value in range(*(int(b) for b in bounds)):
            env[loop.var] = value
            if all(
                self.value(c, env, reads) for c in loop.conds if not reads_state(c, self.symbols)
            ):
                yield from self._bindings(rest, env, reads)
        env.pop(loop.var, None)

    def dynamic_guards(self, loops: tuple[Loop, ...]) -> tuple[Expr, ...]:
        return tuple(c for loop in loops for c in loop.conds if reads_state(c, self.symbols))

    def _aggregate(self, e: Aggregate, env, reads) -> Value:
        facts = self.facts.setdefault(id(e), AggregateFacts())
        guards = self.dynamic_guards(e.loops)
        terms: list[Value] = []
        for binding in self.bindings(e.loops, env, reads):
            for guard in guards:
                self.value(guard, binding, reads)
            term = self.value(e.body, binding, reads)
            facts.widen(term)
            terms.append(term)
        facts.max_terms = max(facts.max_terms, len(terms))
        facts.spread = max(facts.spread, _spread(terms))
        known = not guards and not any(isinstance(t, Span) for t in terms)
        return self._combine(e.func, terms, known)

    def _combine(self, func: str, terms: list[Value], known: bool) -> Value:
        if known:
            return {
                "all": lambda: all(terms),
                "any": lambda: any(terms),
                "count": lambda: sum(bool(t) for t in terms),
                "sum": lambda: sum(terms),
                "min": lambda: min(terms, default=0),
                "max": lambda: max(terms, default=0),
                "distinct": lambda: len(set(terms)) == len(terms),
            }[func]()
        if func in ("all", "any", "distinct"):
            return UNKNOWN_BOOL
        if func == "count":
            return Span(0, len(terms))
        bounds = [_bounds(t) for t in terms] or [(0, 0)]
        los, his = zip(*bounds, strict=True)
        if func == "sum":
            lo = None if None in los else min(sum(los), 0)
            hi = None if None in his else max(sum(his), 0)
            return Span(lo, hi)
        return Span(_pick(min, los), _pick(max, his))

    def _unary(self, e: Unary, env, reads) -> Value:
        value = self.value(e.operand, env, reads)
        if e.op == "not":
            return UNKNOWN_BOOL if isinstance(value, Span) else not value
        if isinstance(value, Span):
            return Span(_neg(value.hi), _neg(value.lo))
        return -value

    def _binary(self, e: Binary, env, reads) -> Value:
        left = self.value(e.left, env, reads)
        right = self.value(e.right, env, reads)
        if not isinstance(left, Span) and not isinstance(right, Span):
            if e.op == "**" and _too_big_power(left, right):
                raise ExprProblem(
                    e.start,
                    f"{left} ** {right}{_when(env)} is far beyond 64-bit integers",
                    "use a smaller exponent",
                )
            try:
                return _OPS[e.op](left, right)
            except ZeroDivisionError:
                raise ExprProblem(e.start, f"division by zero{_when(env)}") from None
        span = _interval(e.op, _bounds(left), _bounds(right))
        if span.hi == math.inf:
            raise ExprProblem(
                e.start,
                f"this power can be far beyond 64-bit integers{_when(env)}",
                "use a smaller exponent",
            )
        return span

    def _compare(self, e: Compare, env, reads) -> Value:
        values = [self.value(o, env, reads) for o in e.operands]
        if any(isinstance(v, Span) for v in values):
            return UNKNOWN_BOOL
        return all(
            _COMPARISONS[op](a, b) for op, a, b in zip(e.ops, values, values[1:], strict=False)
        )

    def _boolop(self, e: BoolOp, env, reads) -> Value:
        values = [self.value(v, env, reads) for v in e.values]
        if any(isinstance(v, Span) for v in values):
            decided = [v for v in values if not isinstance(v, Span)]
            if e.op == "and" and not all(decided):
                return False
            if e.op == "or" and any(decided):
                return True
            return UNKNOWN_BOOL
        return all(values) if e.op == "and" else any(values)

    def _ifexp(self, e: IfExp, env, reads) -> Value:
        cond = self.value(e.cond, env, reads)
        then = self.value(e.then, env, reads)
        orelse = self.value(e.orelse, env, reads)
        if isinstance(cond, Span):
            (lo1, hi1), (lo2, hi2) = _bounds(then), _bounds(orelse)
            return Span(_pick(min, (lo1, lo2)), _pick(max, (hi1, hi2)))
        return then if cond else orelse

    # ---- decomposition for prefix pruning ----

    def depth(self, exprs: tuple[Expr, ...], env: dict[str, int]) -> int:
        """The number of leading state positions needed to evaluate all of `exprs`."""
        reads = Reads()
        for e in exprs:
            self.value(e, env, reads)
        if reads.unknown:
            return self.state_length
        return max(reads.deepest + 1, 1)

    def decompose(
        self,
        e: Expr,
        env: dict[str, int],
        variables: tuple[str, ...],
        terms: dict[int, TermFamily],
        distincts: dict[int, DistinctFamily],
    ) -> None:
        """Split `e` (a condition) into terms that must all hold, each at its depth (the
        depths noted in `depths`)."""
        if isinstance(e, BoolOp) and e.op == "and":
            for value in e.values:
                self.decompose(value, env, variables, terms, distincts)
            return
        if isinstance(e, Aggregate) and e.func == "all":
            guards = self.dynamic_guards(e.loops)
            inner = variables + tuple(loop.var for loop in e.loops)
            for binding in self.bindings(e.loops, env, Reads()):
                if guards:
                    self._term(e.body, guards, binding, inner, terms)
                else:
                    self.decompose(e.body, binding, inner, terms, distincts)
            return
        if isinstance(e, Aggregate) and e.func == "distinct":
            family = distincts.get(id(e))
            if family is None:
                inner = variables + tuple(loop.var for loop in e.loops)
                family = DistinctFamily(e, inner, self.dynamic_guards(e.loops))
                distincts[id(e)] = family
            group = family.groups
            family.groups += 1
            for binding in self.bindings(e.loops, env, Reads()):
                reads = Reads()
                item = self.value(e.body, binding, reads)
                for guard in family.guards:
                    self.value(guard, binding, reads)
                depth = self.state_length if reads.unknown else max(reads.deepest + 1, 1)
                lo, hi = _bounds(item)
                family.lo = lo if family.lo is None else min(family.lo, lo)
                family.hi = hi if family.hi is None else max(family.hi, hi)
                forward = not family.guards and not reads.unknown and reads.deepest >= 0
                forward = forward and self.slope(e.body, binding, reads.deepest) == 1
                values = (binding[v] for v in family.variables)
                family.rows.append((group, depth, int(forward), *values))
                self.depths.add(depth)
            return
        self._term(e, (), env, variables, terms)

    def slope(self, e: Expr, env: dict[str, int], position: int) -> int | None:
        """The coefficient of state position `position` in `e`, if `e` is affine in it
        (None otherwise); positions other than `position` count as constants."""
        if isinstance(e, Index):
            array = self.symbols[e.target.id]
            index = self.value(e.index, env, Reads())
            if isinstance(index, Span) or reads_state(e.index, self.symbols):
                return None
            return 1 if array.offset + int(index) == position else 0
        if isinstance(e, Unary) and e.op == "-":
            inner = self.slope(e.operand, env, position)
            return None if inner is None else -inner
        if isinstance(e, Binary) and e.op in ("+", "-"):
            left, right = self.slope(e.left, env, position), self.slope(e.right, env, position)
            if left is None or right is None:
                return None
            return left + right if e.op == "+" else left - right
        if isinstance(e, Binary) and e.op == "*":
            for factor, other in ((e.left, e.right), (e.right, e.left)):
                if not reads_state(factor, self.symbols):
                    inner = self.slope(other, env, position)
                    scale = self.value(factor, env, Reads())
                    return None if inner is None else inner * int(scale)
            return None
        reads = Reads()
        self.value(e, env, reads)
        if reads.unknown:
            return None
        return 0 if reads.deepest < position else None

    def _term(self, body, guards, env, variables, terms) -> None:
        family = terms.get(id(body))
        if family is None:
            family = TermFamily(body, guards, variables)
            family.bounded = boundable(body, guards, self.symbols)
            terms[id(body)] = family
        reads = Reads()
        for e in (body, *guards):
            self.value(e, env, reads)
        depth = self.state_length if reads.unknown else max(reads.deepest + 1, 1)
        values = tuple(env[v] for v in variables)
        family.rows.append((depth, *values))
        self.depths.add(depth)
        if family.bounded and (reads.unknown or not self._sums_fit(body, guards)):
            family.bounded = False  # a term that reads where the state says, or sums that
            family.bounds.clear()  # could leave int64 on the way: checked whole only
        if family.bounded:
            family.bounds += [(p + 1, *values) for p in sorted(reads.positions) if p + 1 < depth]

    def _sums_fit(self, *exprs: Expr) -> bool:
        """Whether every partial sum of the bounds of each `sum` in `exprs` fits int64."""
        return all(
            self.facts[id(node)].spread <= INT_MAX
            for e in exprs
            for node in walk(e)
            if isinstance(node, Aggregate) and node.func == "sum"
        )


def boundable(body: Expr, guards: tuple[Expr, ...], symbols: dict[str, Symbol]) -> bool:
    """Whether a term gets bounds on prefixes (expr/interval.py): its body compares (other
    than by != alone) a sum, count, min or max, or arithmetic, over the state, and it holds
    nothing whose bounds are not simple: a division `/` or a decimal (numbers, not
    integers), a power of the state, a min() or max() over terms the state selects."""
    nodes = [node for e in (body, *guards) for node in walk(e)]
    if any(_opaque(node, symbols) for node in nodes):
        return False
    return any(
        isinstance(node, Compare)
        and set(node.ops) != {"!="}
        and any(_arithmetic(o, symbols) for o in node.operands)
        for node in walk(body)
    )


def _opaque(node: Expr, symbols: dict[str, Symbol]) -> bool:
    if isinstance(node, Num):
        return isinstance(node.value, float)
    if isinstance(node, Binary):
        return node.op == "/" or (node.op == "**" and reads_state(node, symbols))
    if isinstance(node, Aggregate) and node.func in ("min", "max"):
        return any(reads_state(c, symbols) for loop in node.loops for c in loop.conds)
    return False


def _arithmetic(e: Expr, symbols: dict[str, Symbol]) -> bool:
    """Whether `e` is, or holds, an aggregate or arithmetic over the state."""
    return any(
        isinstance(node, Aggregate | Binary | Unary | Call) and reads_state(node, symbols)
        for node in walk(e)
        if not (isinstance(node, Aggregate) and node.func in ("all", "any", "distinct"))
        and not (isinstance(node, Unary) and node.op == "not")
    )


def _spread(terms: list[Value]) -> float:
    """The most the negative parts of the terms' bounds, or their positive parts, add up to."""
    bounds = [_bounds(t) for t in terms]
    if any(lo is None or hi is None for lo, hi in bounds):
        return math.inf
    return max(sum(max(-lo, 0) for lo, _ in bounds), sum(max(hi, 0) for _, hi in bounds), 0)


def _when(env: dict[str, int]) -> str:
    if not env:
        return ""
    return " when " + ", ".join(f"{k} = {v}" for k, v in env.items())


def _can_be(value: Value) -> str:
    if isinstance(value, Span):
        return f"can be {_range_text(value.lo, value.hi)}"
    return f"is {count_text(value)}"


def _range_text(lo, hi) -> str:
    return f"{'-inf' if lo is None else int(lo)}..{'inf' if hi is None else int(hi)}"


def _too_big_power(base, exponent) -> bool:
    """Whether base ** exponent has more than about 64 bits (computing it could take ages)."""
    if isinstance(base, bool) or isinstance(exponent, bool) or exponent <= 1 or abs(base) <= 1:
        return False
    return exponent * math.log2(abs(base)) > 64


def _bounds(value: Value) -> tuple[float | None, float | None]:
    if isinstance(value, Span):
        return value.lo, value.hi
    return value, value


def _pick(fn, values):
    return None if None in values else fn(values)


def _neg(x):
    return None if x is None else -x


def _interval(op: str, a, b) -> Span:
    (alo, ahi), (blo, bhi) = a, b
    if None in (alo, ahi, blo, bhi):
        return Span(None, None)
    if op == "+":
        return Span(alo + blo, ahi + bhi)
    if op == "-":
        return Span(alo - bhi, ahi - blo)
    if op == "*":
        corners = [x * y for x, y in itertools.product((alo, ahi), (blo, bhi))]
        return Span(min(corners), max(corners))
    if op == "%" and blo == bhi and blo > 0:
        return Span(0, blo - 1)
    if op == "//" and blo == bhi and blo > 0:
        return Span(alo // blo, ahi // blo)
    if op == "/" or any(isinstance(v, float) for v in (alo, ahi, blo, bhi)):
        return Span(None, None)
    if op == "//":  # |a // b| <= |a| for a whole b other than 0, and x // 0 is 0
        top = max(-alo, ahi, 0)
        return Span(-top, top)
    if op == "%":  # the sign of b, below |b| (x % 0 is 0)
        return Span(min(blo + 1, 0), max(bhi - 1, 0))
    return _power(alo, ahi, blo, bhi)


def _power(alo: int, ahi: int, blo: int, bhi: int) -> Span:
    """The values of a ** b for whole a and b in their spans (a negative b: unknown)."""
    if blo < 0:
        return Span(None, None)
    base = max(-alo, ahi)
    if bhi > 1 and base > 1 and bhi * math.log2(base) > 64:  # far beyond; never computed
        return Span(None, math.inf)
    top = base**bhi if base > 1 else 1
    return Span(-top if alo < 0 else 0, top)


_OPS = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
}
_COMPARISONS = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
