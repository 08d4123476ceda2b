"""Bounds of a term on a prefix: generated code that evaluates a term over intervals, so
that a prefix is pruned as soon as no completion of it can meet the term, before every
position the term reads is set (a total, a count compared with a number).

At depth d positions 0..d-1 hold their values and a position p >= d stands for every value
it can still take: R[p, 0]..R[p, 1] (the space's range, `start` added), the low end raised
to x[d - 1] + start + (p - d + 1) * R[p, 3] where d - 1 and p lie in one sorted run of the
space, which starts at R[p, 2] (RankedSpace.rising_from; R[p, 2] is the state's length
where p is in none). Every node becomes a pair (lo, hi) of integers holding each value it
can take on a completion of the prefix; a condition is a pair in 0..1: lo 1 where it surely
holds, hi 0 where it surely fails. So a count's pair is (terms surely true, terms not
surely false), and a term fails a prefix where its pair is (0, 0).

Each operation is inclusion-monotone, so every pair lies within the bounds that the
analysis found for its node over the whole space (expr/analysis.py), which it checked fit
int64; a `sum`'s partial sums are checked there too (`AggregateFacts.spread`). Where a bound
is not simple (a power of the state, a division `/`, a min or max over terms the state
selects) the term gets no bounds at all (analysis.boundable): it is checked whole, on the
prefix that sets every position it reads.
"""

from __future__ import annotations

from .analysis import TermFamily
from .ast import Aggregate, Binary, BoolOp, Call, Compare, Expr, IfExp, Index, Unary
from .check import BOOL, ArraySymbol, Symbol, reads_state, result_type
from .codegen import NJIT, ExpressionWriter, var

Pair = tuple[str, str]

SURELY = {  # op: (surely true, surely false), over the pairs (al, ah) and (bl, bh)
    "==": ("{al} == {ah} and {bl} == {bh} and {al} == {bl}", "{ah} < {bl} or {bh} < {al}"),
    "!=": ("{ah} < {bl} or {bh} < {al}", "{al} == {ah} and {bl} == {bh} and {al} == {bl}"),
    "<": ("{ah} < {bl}", "{al} >= {bh}"),
    "<=": ("{ah} <= {bl}", "{al} > {bh}"),
    ">": ("{al} > {bh}", "{ah} <= {bl}"),
    ">=": ("{al} >= {bh}", "{ah} < {bl}"),
}
START = {"sum": 0, "count": 0, "all": 1, "any": 0, "min": 0, "max": 0}  # min, max: 0 if none


class IntervalWriter:
    """Writes the bound function of a term family as straight-line code with loops."""

    def __init__(self, writer: ExpressionWriter, symbols: dict[str, Symbol]):
        self.writer = writer
        self.symbols = symbols
        self.lines: list[str] = []
        self.made = 0

    def function(self, name: str, family: TermFamily) -> None:
        """Add `name(x, d, P, R, *loop values)`: False where no completion of x[:d] meets
        the term (its guards surely hold and its body surely fails)."""
        self.lines = []
        for guard in family.guards:
            low, _ = self._pair(guard, family.variables, 0)
            self._emit(0, f"if {low} == 0:", "    return True")
        _, high = self._pair(family.body, family.variables, 0)
        self._emit(0, f"return {high} != 0")
        args = ", ".join(["x", "d", "P", "R", *(var(v) for v in family.variables)])
        body = "\n".join("    " + line for line in self.lines)
        self.writer.functions.append(f"{NJIT}\ndef {name}({args}):\n{body}\n")

    def _emit(self, indent: int, *lines: str) -> None:
        self.lines += ["    " * indent + line for line in lines]

    def _fresh(self) -> Pair:
        self.made += 1
        return f"lo{self.made}", f"hi{self.made}"

    def _pair(self, e: Expr, variables: tuple[str, ...], indent: int) -> Pair:
        """Emit the lines that compute e's pair; return the pair's two names."""
        lo, hi = self._fresh()
        if not reads_state(e, self.symbols):
            value = self.writer.expr(e, variables)
            if result_type(e, self.symbols, variables) == BOOL:
                value = f"(1 if {value} else 0)"
            self._emit(indent, f"{lo} = {value}", f"{hi} = {lo}")
            return lo, hi
        write = getattr(self, "_" + type(e).__name__.lower())
        write(e, variables, indent, lo, hi)
        return lo, hi

    def _index(self, e: Index, variables, indent: int, lo: str, hi: str) -> None:
        array = self.symbols[e.target.id]
        assert isinstance(array, ArraySymbol)
        if not reads_state(e.index, self.symbols):
            self._position(array, self.writer.expr(e.index, variables), indent, lo, hi)
            return
        il, ih = self._pair(e.index, variables, indent)
        self._emit(indent, f"if {il} == {ih}:")
        self._position(array, il, indent + 1, lo, hi)
        low, high = self.writer.constant(array.lo), self.writer.constant(array.hi)
        self._emit(indent, "else:", f"    {lo} = {low}", f"    {hi} = {high}")

    def _position(self, array: ArraySymbol, index: str, indent: int, lo: str, hi: str) -> None:
        p = f"p{lo[2:]}"
        start = f" + {int(array.start)}" if array.start else ""
        self._emit(
            indent,
            f"{p} = {int(array.offset)} + {index}",
            f"if {p} < d:",
            f"    {lo} = x[{p}]{start}",
            f"    {hi} = {lo}",
            "else:",
            f"    {lo} = R[{p}, 0]",
            f"    {hi} = R[{p}, 1]",
            f"    if R[{p}, 2] < d:",
            f"        {lo} = max({lo}, x[d - 1]{start} + ({p} - d + 1) * R[{p}, 3])",
        )

    def _call(self, e: Call, variables, indent: int, lo: str, hi: str) -> None:
        pairs = [self._pair(a, variables, indent) for a in e.args]
        if e.func == "abs":
            ((al, ah),) = pairs
            self._emit(
                indent,
                f"if {al} >= 0:",
                f"    {lo} = {al}",
                f"    {hi} = {ah}",
                f"elif {ah} <= 0:",
                f"    {lo} = -{ah}",
                f"    {hi} = -{al}",
                "else:",
                f"    {lo} = 0",
                f"    {hi} = max(-{al}, {ah})",
            )
            return
        lows, highs = (", ".join(side) for side in zip(*pairs, strict=True))
        self._emit(indent, f"{lo} = {e.func}({lows})", f"{hi} = {e.func}({highs})")

    def _unary(self, e: Unary, variables, indent: int, lo: str, hi: str) -> None:
        al, ah = self._pair(e.operand, variables, indent)
        if e.op == "not":
            self._emit(indent, f"{lo} = 1 - {ah}", f"{hi} = 1 - {al}")
        else:
            self._emit(indent, f"{lo} = -{ah}", f"{hi} = -{al}")

    def _binary(self, e: Binary, variables, indent: int, lo: str, hi: str) -> None:
        al, ah = self._pair(e.left, variables, indent)
        bl, bh = self._pair(e.right, variables, indent)
        if e.op == "+":
            self._emit(indent, f"{lo} = {al} + {bl}", f"{hi} = {ah} + {bh}")
        elif e.op == "-":
            self._emit(indent, f"{lo} = {al} - {bh}", f"{hi} = {ah} - {bl}")
        elif e.op == "*":
            corners = f"{al} * {bl}, {al} * {bh}, {ah} * {bl}, {ah} * {bh}"
            self._emit(indent, f"{lo} = min({corners})", f"{hi} = max({corners})")
        elif e.op == "//":  # |a // b| <= |a|, and a // 0 is 0
            self._emit(
                indent,
                f"if {al} == {ah} and {bl} == {bh}:",
                f"    {lo} = div_floor({al}, {bl})",
                f"    {hi} = {lo}",
                f"elif {bl} == {bh} and {bl} > 0:",
                f"    {lo} = {al} // {bl}",
                f"    {hi} = {ah} // {bl}",
                "else:",
                f"    {hi} = max(-{al}, {ah}, 0)",
                f"    {lo} = -{hi}",
            )
        else:  # "%": the sign of b, below |b|, and a % 0 is 0 (no ** or / here: boundable)
            assert e.op == "%", e.op
            self._emit(
                indent,
                f"if {al} == {ah} and {bl} == {bh}:",
                f"    {lo} = div_mod({al}, {bl})",
                f"    {hi} = {lo}",
                f"elif {bl} == {bh} and {bl} > 0 and {al} // {bl} == {ah} // {bl}:",
                f"    {lo} = {al} % {bl}",
                f"    {hi} = {ah} % {bl}",
                "else:",
                f"    {lo} = min({bl} + 1, 0)",
                f"    {hi} = max({bh} - 1, 0)",
            )

    def _compare(self, e: Compare, variables, indent: int, lo: str, hi: str) -> None:
        pairs = [self._pair(o, variables, indent) for o in e.operands]
        sure, fails = [], []
        for op, (al, ah), (bl, bh) in zip(e.ops, pairs, pairs[1:], strict=False):
            true, false = SURELY[op]
            sure.append(f"({true.format(al=al, ah=ah, bl=bl, bh=bh)})")
            fails.append(f"({false.format(al=al, ah=ah, bl=bl, bh=bh)})")
        self._emit(
            indent,
            f"{lo} = 1 if {' and '.join(sure)} else 0",
            f"{hi} = 0 if {' or '.join(fails)} else 1",
        )

    def _boolop(self, e: BoolOp, variables, indent: int, lo: str, hi: str) -> None:
        pairs = [self._pair(v, variables, indent) for v in e.values]
        pick = "min" if e.op == "and" else "max"
        lows, highs = (", ".join(side) for side in zip(*pairs, strict=True))
        self._emit(indent, f"{lo} = {pick}({lows})", f"{hi} = {pick}({highs})")

    def _ifexp(self, e: IfExp, variables, indent: int, lo: str, hi: str) -> None:
        cl, ch = self._pair(e.cond, variables, indent)
        tl, th = self._pair(e.then, variables, indent)
        el, eh = self._pair(e.orelse, variables, indent)
        self._emit(
            indent,
            f"if {cl} == 1:",
            f"    {lo} = {tl}",
            f"    {hi} = {th}",
            f"elif {ch} == 0:",
            f"    {lo} = {el}",
            f"    {hi} = {eh}",
            "else:",
            f"    {lo} = min({tl}, {el})",
            f"    {hi} = max({th}, {eh})",
        )

    def _aggregate(self, e: Aggregate, variables, indent: int, lo: str, hi: str) -> None:
        if e.func == "distinct":  # true or false, as far as a bound goes
            self._emit(indent, f"{lo} = 0", f"{hi} = 1")
            return
        found = f"found{lo[2:]}"
        self._emit(indent, f"{lo} = {START[e.func]}", f"{hi} = {lo}")
        if e.func in ("min", "max"):
            self._emit(indent, f"{found} = False")
        inner, guards = variables, []
        for loop in e.loops:
            bounds = ", ".join(self.writer.expr(a, inner) for a in loop.iter.args)
            self._emit(indent, f"for {var(loop.var)} in range({bounds}):")
            indent += 1
            inner = (*inner, loop.var)
            for cond in loop.conds:
                if reads_state(cond, self.symbols):
                    gl, gh = self._pair(cond, inner, indent)
                    self._emit(indent, f"if {gh} == 0:", "    continue")
                    guards.append(gl)
                else:
                    self._emit(indent, f"if not {self.writer.expr(cond, inner)}:", "    continue")
        tl, th = self._pair(e.body, inner, indent)
        if not guards:
            self._emit(indent, *_fold(e.func, lo, hi, tl, th, found))
            return
        sure = " and ".join(f"{g} == 1" for g in guards)
        self._emit(indent, *_fold_guarded(e.func, lo, hi, tl, th, sure))


def _fold(func: str, lo: str, hi: str, tl: str, th: str, found: str) -> list[str]:
    """Lines adding the term (tl, th) to the aggregate's pair."""
    if func in ("sum", "count"):
        return [f"{lo} += {tl}", f"{hi} += {th}"]
    if func in ("all", "any"):
        pick = "min" if func == "all" else "max"
        return [f"{lo} = {pick}({lo}, {tl})", f"{hi} = {pick}({hi}, {th})"]
    return [
        f"if not {found}:",
        f"    {lo} = {tl}",
        f"    {hi} = {th}",
        f"    {found} = True",
        "else:",
        f"    {lo} = {func}({lo}, {tl})",
        f"    {hi} = {func}({hi}, {th})",
    ]


def _fold_guarded(func: str, lo: str, hi: str, tl: str, th: str, sure: str) -> list[str]:
    """Lines adding the term (tl, th) of guards that may hold (none surely fails) to the
    aggregate's pair; `sure`: they surely hold (no min or max has such terms: boundable)."""
    if func == "sum":
        return [
            f"if {sure}:",
            f"    {lo} += {tl}",
            f"    {hi} += {th}",
            "else:",
            f"    {lo} += min({tl}, 0)",
            f"    {hi} += max({th}, 0)",
        ]
    if func == "count":
        return [f"if {sure}:", f"    {lo} += {tl}", f"{hi} += {th}"]
    if func == "all":  # (not guard) or term
        return [
            f"{lo} = min({lo}, {tl})",
            f"if {sure}:",
            f"    {hi} = min({hi}, {th})",
        ]
    assert func == "any", func  # guard and term
    return [f"if {sure}:", f"    {lo} = max({lo}, {tl})", f"{hi} = max({hi}, {th})"]
