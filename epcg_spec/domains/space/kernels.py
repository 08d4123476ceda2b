"""Generated numba source for a space spec: constraints, objective, prefix checks."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...compile.connector import identifier, loop_template
from ...spaces import space_kernel_source
from ...spec.expr.analysis import DistinctFamily, TermFamily
from ...spec.expr.codegen import MASK_BITS, NJIT, ExpressionWriter
from ...spec.expr.interval import IntervalWriter
from .model import Condition, SpaceSpec

DUMMY_TABLE = np.zeros(1, np.int64)


class ModuleSource(NamedTuple):
    """The parts of a space spec's connector module, and what its kernels need."""

    imports: list[str]
    parts: list[str]
    tables: tuple  # the prefix tables T
    groups: int  # the mask groups of the prefix check's scratch
    constants: list[int]  # read after the params, see ExpressionWriter.constant
    allocates: bool  # the kernels allocate memory (or run the spec's Python functions)


def module_source(spec: SpaceSpec) -> ModuleSource:
    """The spec's connector module: its kernels and the CPU's loops over them."""
    imports, space_source = space_kernel_source(spec.space)
    imports.append("from epcg_spec.spaces.bits import popcount")
    writer = ExpressionWriter(spec.symbols, spec.analyzer.facts, prefix="e")
    imports += writer.imports
    users: dict[str, str] = {}
    names = [_condition(writer, f"c{i}", c, users, imports) for i, c in enumerate(spec.constraints)]
    every = " and ".join(f"{n}(x, P)" for n in names) or "True"
    writer.function("check_full", (), [f"return {every}"])
    if spec.objective is not None:
        objective = _condition(writer, "objective", spec.objective, users, imports)
        sign = "" if spec.sense == "maximize" else "-"
        score = f"{sign}float({objective}(x, P))"
    else:
        score = "0.0"
    writer.function("score", (), [f"return {score}"])
    user_checks = [n for n, c in zip(names, spec.constraints, strict=True) if c.user is not None]
    tables, groups = _prefix_check(writer, spec, user_checks)
    walk_nrt = writer.allocates or bool(users)
    parts = [
        space_source,
        *users.values(),
        writer.source(),
        f"WALK_NRT = {walk_nrt}\nMASK_WALK = {spec.space.mask_walkable}",
        loop_template("exhaustive_loop"),
    ]
    return ModuleSource(imports, parts, tables, groups, writer.constants, walk_nrt)


GPU_NAMES = ("MASK_WALK", "_mask_walk", "_prune_walk", "_scan", "space_unrank")


def gpu_module_source(spec: SpaceSpec, cpu_module: str, groups: int) -> tuple[list[str], list]:
    """(import lines, source parts) of the GPU's module: the GPU template, running the very
    loops and kernels of the CPU's module `cpu_module`, which it imports, with the sizes of
    each thread's local arrays."""
    imports = [
        "from numba import cuda",
        f"from {identifier(cpu_module)} import {', '.join(GPU_NAMES)}",
    ]
    sizes = f"STATE_LENGTH = {int(spec.space.length)}\nMASK_GROUPS = {int(groups)}"
    return imports, [sizes, loop_template("exhaustive_gpu_loop")]


def _condition(writer: ExpressionWriter, name: str, condition: Condition, users, imports) -> str:
    if condition.user is not None:
        user = condition.user
        alias = f"user_{len(users)}"
        module, function = identifier(user.module, dotted=True), identifier(user.function)
        imports.append(f"from {module} import {function} as {alias}_py")
        users[alias] = f"{alias} = njit(cache=True)({alias}_py)"
        writer.function(name, (), [f"return {alias}(x)"])
        return name
    writer.function(name, (), [f"return {writer.expr(condition.expr, ())}"])
    return name


def _prefix_check(
    writer: ExpressionWriter, spec: SpaceSpec, user_checks: list[str]
) -> tuple[tuple, int]:
    """Generate prefix_ok(x, d, P, T, A); return the tables T and the groups A needs.

    A holds, per depth and per distinct group (masks only), the bit mask of the group's
    values at that depth of the current path: a child reads its parent's mask and adds its
    own new items, so a distinct check costs O(new items), not O(group). Last, the bounds
    of the terms that have them (expr/interval.py), cheap checks first. Constraints
    written as Python functions are checked on complete states only.
    """
    length = spec.space.length
    tables: list[np.ndarray] = []
    body: list[str] = []
    if user_checks:
        every = " and ".join(f"{name}(x, P)" for name in user_checks)
        body += [f"if d == x.shape[0] and not ({every}):", "    return False"]
    groups = 0
    for k, family in enumerate(spec.pruning.terms):
        body += _term_loop(writer, k, family, len(tables))
        tables += _term_tables(family.rows, family.variables, length)
    for k, family in enumerate(spec.pruning.distincts):
        masked = _masked(family)
        body += _distinct_loop(writer, k, family, len(tables), groups if masked else -1)
        tables += _distinct_tables(family, length)
        groups += family.groups if masked else 0
    bounded = [family for family in spec.pruning.terms if family.bounds]
    if bounded:
        ranges = len(tables)
        tables.append(_range_table(spec))
        intervals = IntervalWriter(writer, spec.symbols)
        for k, family in enumerate(bounded):
            body += _bound_loop(intervals, k, family, len(tables), ranges)
            tables += _term_tables(family.bounds, family.variables, length)
    lines = "\n".join("    " + line for line in [*body, "return True"])
    writer.functions.append(f"{NJIT}\ndef prefix_ok(x, d, P, T, A):\n{lines}\n")
    _forward(writer, spec, len(spec.pruning.terms) * 2)
    return tuple(tables) or (DUMMY_TABLE,), max(groups, 1)


def _forward(writer: ExpressionWriter, spec: SpaceSpec, at: int) -> None:
    """Generate forward(x, d, P, T, A): the values x[d] must avoid, given x[:d].

    For each distinct group with a new item at depth d + 1 whose value is x[d] plus an
    offset known from x[:d], the values that would repeat one already in the group's mask
    are that mask shifted by (lo - offset): one shift per item, no trial assignment.
    """
    lines = ["avoid = np.uint64(0)"]
    base = 0
    for k, family in enumerate(spec.pruning.distincts):
        masked = _masked(family)
        if masked and any(row[2] for row in family.rows):
            args = _row_args(family.variables, 3)
            lines += [
                f"rows = T[{at}]",
                f"entries = T[{at + 1}]",
                f"entry_offs = T[{at + 2}]",
                "for e in range(entry_offs[d + 1], entry_offs[d + 2]):",
                f"    seen = A[entries[e, 3], {base} + entries[e, 0]]",
                "    for r in range(entries[e, 1], entries[e, 2]):",
                "        if rows[r, 2] == 1:",
                "            x[d] = 0",
                f"            shift = {writer.constant(family.lo)} - dval{k}({args})",
                "            if 0 <= shift < 64:",
                "                avoid |= seen << np.uint64(shift)",
                "            elif -64 < shift < 0:",
                "                avoid |= seen >> np.uint64(-shift)",
            ]
        at += 3
        base += family.groups if masked else 0
    body = "\n".join("    " + line for line in [*lines, "return avoid"])
    writer.functions.append(f"{NJIT}\ndef forward(x, d, P, T, A):\n{body}\n")


def _row_args(variables: tuple[str, ...], first_column: int, row: str = "r") -> str:
    """Arguments of a term function: state, params, then the loop values of table row `row`."""
    values = (f"rows[{row}, {first_column + i}]" for i in range(len(variables)))
    return ", ".join(["x", "P", *values])


def _masked(family: DistinctFamily) -> bool:
    """Whether a distinct family's values span less than 64, so a group fits a mask."""
    return family.lo is not None and family.hi is not None and family.hi - family.lo < MASK_BITS


def _term_loop(writer, k: int, family: TermFamily, at: int) -> list[str]:
    name = f"term{k}"
    lines = []
    if family.guards:
        guard = " and ".join(writer.expr(g, family.variables) for g in family.guards)
        lines += [f"if not ({guard}):", "    return True"]
    lines.append(f"return {writer.expr(family.body, family.variables)}")
    writer.function(name, family.variables, lines)
    args = _row_args(family.variables, 1)
    return [
        f"rows = T[{at}]",
        f"offs = T[{at + 1}]",
        "for r in range(offs[d], offs[d + 1]):",
        f"    if not {name}({args}):",
        "        return False",
    ]


def _bound_loop(intervals: IntervalWriter, k: int, family: TermFamily, at: int, ranges: int):
    """Test the bounds of the family's terms whose rows are at depth d (R: _range_table)."""
    name = f"bound{k}"
    intervals.function(name, family)
    values = (f"rows[r, {1 + i}]" for i in range(len(family.variables)))
    return [
        f"rows = T[{at}]",
        f"offs = T[{at + 1}]",
        f"R = T[{ranges}]",
        "for r in range(offs[d], offs[d + 1]):",
        f"    if not {name}({', '.join(['x', 'd', 'P', 'R', *values])}):",
        "        return False",
    ]


def _range_table(spec: SpaceSpec) -> np.ndarray:
    """Per position: its lowest and highest value (with `start`), and the first position
    and step of the sorted run it is in (the state's length and 0 where none), for the
    bounds of expr/interval.py."""
    space, length = spec.space, spec.space.length
    table = np.zeros((length, 4), dtype=np.int64)
    for array in spec.arrays:
        for p in range(array.offset, array.offset + array.length):
            lo, hi = space.value_range(p)
            first, step = space.rising_from(p) or (length, 0)
            table[p] = (lo + array.start, hi + array.start, first, step)
    return table


def _rows(rows: list[tuple[int, ...]], variables: tuple[str, ...], first_column: int):
    """A family's rows, sorted, as a table: leading columns, then one per loop variable.

    The width is stated, not inferred, so a family over no terms (`distinct(... for i in
    range(0))`, true like any check over nothing) gives an empty table of the right shape.
    """
    width = first_column + len(variables)
    return np.array(sorted(rows), dtype=np.int64).reshape(len(rows), width)


def _term_tables(
    rows: list[tuple[int, ...]], variables: tuple[str, ...], length: int
) -> list[np.ndarray]:
    """Rows (depth, loop values) sorted, and per depth d the first row at depth d."""
    table = _rows(rows, variables, 1)
    offsets = np.searchsorted(table[:, 0], np.arange(length + 2), side="left").astype(np.int64)
    return [table, offsets]


def _distinct_loop(writer, k: int, family: DistinctFamily, at: int, base: int) -> list[str]:
    """Check the groups with new items at depth d; `base` >= 0: the family's first mask slot."""
    value, guard = f"dval{k}", f"dguard{k}"
    writer.function(
        value, family.variables, [f"return {writer.expr(family.node.body, family.variables)}"]
    )
    test = " and ".join(writer.expr(g, family.variables) for g in family.guards) or "True"
    writer.function(guard, family.variables, [f"return {test}"])
    args = _row_args(family.variables, 3)
    low = writer.constant(family.lo) if base >= 0 else ""
    lines = [
        f"rows = T[{at}]",
        f"entries = T[{at + 1}]",
        f"entry_offs = T[{at + 2}]",
        "for e in range(entry_offs[d], entry_offs[d + 1]):",
        "    g = entries[e, 0]",
    ]
    if base >= 0:
        return [
            *lines,
            f"    seen = A[entries[e, 3], {base} + g]",
            "    for r in range(entries[e, 1], entries[e, 2]):",
            f"        if {guard}({args}):",
            f"            bit = np.uint64(1) << np.uint64({value}({args}) - {low})",
            "            if (seen & bit) != np.uint64(0):",
            "                return False",
            "            seen |= bit",
            f"    A[d, {base} + g] = seen",
        ]
    other = _row_args(family.variables, 3, row="s")
    return [
        *lines,
        "    for r in range(entries[e, 1], entries[e, 2]):",
        f"        if not {guard}({args}):",
        "            continue",
        f"        v = {value}({args})",
        "        for s in range(entries[e, 4], r):",
        f"            if {guard}({other}) and {value}({other}) == v:",
        "                return False",
    ]


def _distinct_tables(family: DistinctFamily, length: int) -> list[np.ndarray]:
    """Rows sorted by (group, depth), and per depth the (group, first row, end row, previous
    depth of the group, group's first row) entries of the groups with new items there."""
    rows = _rows(family.rows, family.variables, 3)
    by_depth: list[list[list[int]]] = [[] for _ in range(length + 2)]
    previous: dict[int, int] = {}
    group_start: dict[int, int] = {}
    r = 0
    while r < len(rows):
        group, depth = int(rows[r, 0]), int(rows[r, 1])
        end = r
        while end < len(rows) and rows[end, 0] == group and rows[end, 1] == depth:
            end += 1
        group_start.setdefault(group, r)
        by_depth[depth].append([group, r, end, previous.get(group, 0), group_start[group]])
        previous[group] = depth
        r = end
    entries = np.array([e for at in by_depth for e in at], dtype=np.int64).reshape(-1, 5)
    offsets = np.cumsum([0] + [len(at) for at in by_depth]).astype(np.int64)
    return [rows, entries, offsets]
