"""A tame grammar's derivations as integer tables for the kernels (`kernels.py`).

The tables are read off the expand back end itself, so the compiled walks make the
same draws as its Python ones: `Walk` holds, for each configuration (node, state
class, depth left) a derivation can reach, the options of a choice and the counts of
`Engine.outcomes`; `Uniform` holds the draw tables of `Sampler`, one per configuration
(node, class, depth, end class). Built once per expansion; `Uncompiled` where the kernels
cannot stand in for the Python walk (counts past 2**62, tables past a size bound,
no derivation at all).
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...search.expand import CAPTURE, EFFECT, EMIT, PICK, SEQ, Engine, Sampler
from .kernels import (
    BEGIN,
    EMIT_TEXT,
    EMIT_VALUE,
    MARK,
    POP,
    PUSH,
    U_LEAF,
    U_PICK,
    U_STEP,
    Uniform,
    Walk,
)
from .semantics import TracerySemantics

MAX_COUNT = 1 << 62
MAX_LOOKUP = 1 << 23
"""Entries of the (node, class, depth) -> configuration table (int32)."""
MAX_CONFIGS = 1 << 18
MAX_CLASSES = 1 << 12
"""State classes: a walk keeps a count per class for each frame of its stack."""
EFFECT_OPS = {"begin": BEGIN, "push": PUSH, "pop": POP, "mark": MARK}


class Uncompiled(Exception):
    """The tables would pass a bound, or there is nothing to draw: the Python walk
    serves this grammar (and says what is wrong, if anything)."""


@dataclass
class WalkTables:
    """The kernels' tables for one expansion, and what Python needs to read their tapes."""

    walk: Walk
    uniform: Uniform | None
    pieces: list[str]


@dataclass
class _Explorer:
    engine: Engine
    sem: TracerySemantics
    configs: dict[tuple[int, int, int], int] = field(default_factory=dict)
    options: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    outs: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    next_class: dict[tuple[int, int], int] = field(default_factory=dict)
    suffixes: dict[tuple[int, int, int, int], list[int]] = field(default_factory=dict)
    dead_ends: bool = False
    """True if some reachable choice has an option with no derivation (recursion cut
    by the depth bound, a symbol without rules): Tracery-style draws then skip the
    options after which the derivation cannot be completed."""

    def _outcomes(self, node: int, state: Any, depth: int) -> dict[Hashable, Any]:
        found = self.engine.outcomes(node, state, depth, False)
        for o in found.values():
            if o.count >= MAX_COUNT or o.weight >= MAX_COUNT:
                raise Uncompiled
        return found

    def visit(self, node: int, state: Any, depth: int) -> None:
        sem, program = self.sem, self.engine.program
        cls = sem.key(state)
        key = (node, cls, depth)
        if key in self.configs:
            return
        config = self.configs[key] = len(self.configs)
        if len(self.configs) > MAX_CONFIGS:
            raise Uncompiled
        outcomes = self._outcomes(node, state, depth)
        self.outs[config] = [(k, o.count) for k, o in outcomes.items()]
        kind, args = program.kinds[node], program.args[node]
        if kind == EFFECT:
            self.next_class[(node, cls)] = sem.key(sem.effect(args[0], state))
        elif kind == PICK:
            options = list(sem.options(args[0], state)) if depth else []
            self.options[config] = options
            self.dead_ends |= not options
            for option, _ in options:
                self.dead_ends |= not self._outcomes(option, state, depth - 1)
                self.visit(option, state, depth - 1)
        elif kind == SEQ:
            # the classes between items, with representative states and the number of
            # derivations of the items so far (ranks multiply them: they must fit)
            states = {cls: (state, 1)}
            for j, item in enumerate(args[0]):
                after: dict[Hashable, tuple[Any, int]] = {}
                for each, count in states.values():
                    if j:
                        ends = self.engine.suffix(node, j, each, depth, False)
                        self.suffixes[(node, j, sem.key(each), depth)] = list(ends)
                    self.visit(item, each, depth)
                    for k, o in self._outcomes(item, each, depth).items():
                        total = after.get(k, (o.state, 0))[1] + count * o.count
                        if total >= MAX_COUNT:
                            raise Uncompiled
                        after[k] = (after.get(k, (o.state, 0))[0], total)
                states = after
        elif kind != EMIT:
            body, op = args
            self.visit(body, state, depth)
            if kind == CAPTURE:
                for k, o in self._outcomes(body, state, depth).items():
                    self.next_class[(node, k)] = sem.key(sem.capture(op, o.state, ""))


@dataclass
class _UniformExplorer:
    sampler: Sampler
    configs: dict[tuple, int] = field(default_factory=dict)
    kinds: list[int] = field(default_factory=list)
    entries: list[list[tuple[int, int, int, int]]] = field(default_factory=list)

    def _new(self, key: tuple, kind: int) -> int:
        index = self.configs[key] = len(self.kinds)
        if index > MAX_CONFIGS:
            raise Uncompiled
        self.kinds.append(kind)
        self.entries.append([])
        return index

    def visit(self, node: int, state: Any, depth: int, end: Hashable) -> int:
        sampler = self.sampler
        engine, sem = sampler.engine, sampler.engine.sem
        key = (node, sem.key(state), depth, end)
        found = self.configs.get(key)
        if found is not None:
            return found
        kind, args = engine.program.kinds[node], engine.program.args[node]
        if kind in (EMIT, EFFECT) or (kind == SEQ and not args[0]):
            return self._new(key, U_LEAF)
        if kind == SEQ:
            return self._step(node, 0, state, depth, end)
        if kind == PICK:
            index = self._new(key, U_PICK)
            options = sem.options(args[0], state)
            items, cumulative = sampler._tables.get(key) or sampler._pick_table(key, options, state)
            self.entries[index] = [
                (c, i, self.visit(options[i][0], state, depth - 1, end), -1)
                for i, c in zip(items, cumulative, strict=True)
            ]
            return index
        index = self._new(key, U_STEP)
        body = args[0]
        if kind == CAPTURE:
            middles, cumulative = sampler._tables.get(key) or sampler._capture_table(key, state)
            self.entries[index] = [
                (c, -1, self.visit(body, state, depth, m), -1)
                for m, c in zip(middles, cumulative, strict=True)
            ]
        else:
            self.entries[index] = [(1, -1, self.visit(body, state, depth, end), -1)]
        return index

    def _step(self, node: int, i: int, state: Any, depth: int, end: Hashable) -> int:
        """Items i.. of SEQ `node` from `state`, ending in class `end`."""
        sampler = self.sampler
        engine, sem = sampler.engine, sampler.engine.sem
        key = (node, i, sem.key(state), depth, end)
        found = self.configs.get(("step", key))
        if found is not None:
            return found
        index = self._new(("step", key), U_STEP)
        items = engine.program.args[node][0]
        if i == len(items) - 1:
            self.entries[index] = [(1, -1, self.visit(items[i], state, depth, end), -1)]
            return index
        middles, cumulative = sampler._tables.get(key) or sampler._seq_table(key, state)
        outcomes = engine.outcomes(items[i], state, depth, False)
        self.entries[index] = [
            (
                c,
                -1,
                self.visit(items[i], state, depth, m),
                self._step(node, i + 1, outcomes[m].state, depth, end),
            )
            for m, c in zip(middles, cumulative, strict=True)
        ]
        return index


def build_tables(engine: Engine, sem: TracerySemantics, sampler: Sampler | None) -> WalkTables:
    """The tables of `engine`'s derivations; raises Uncompiled past the bounds."""
    with _deep_recursion():
        explorer = _Explorer(engine, sem)
        explorer.visit(engine.root, engine.start, engine.depth)
        uniform = _uniform(sampler) if sampler is not None else None
    walk, pieces = _walk(engine, sem, explorer)
    return WalkTables(walk, uniform, pieces)


@contextmanager
def _deep_recursion():
    """Room for the explorers' recursion: a few frames per nesting level, 64 levels."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, 20_000))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def _uniform(sampler: Sampler) -> Uniform:
    explorer = _UniformExplorer(sampler)
    engine = sampler.engine
    ends, cumulative = sampler._ends
    if not ends:
        raise Uncompiled
    end_cfg = [explorer.visit(engine.root, engine.start, engine.depth, e) for e in ends]
    ptr = np.zeros(len(explorer.kinds) + 1, np.int64)
    ptr[1:] = np.cumsum([len(e) for e in explorer.entries])
    flat = [entry for entries in explorer.entries for entry in entries]
    columns = np.array(flat, np.int64).reshape(-1, 4).T
    if len(cumulative) and cumulative[-1] >= MAX_COUNT:
        raise Uncompiled
    return Uniform(
        np.array(explorer.kinds, np.int64),
        ptr,
        *(np.ascontiguousarray(c) for c in columns),
        np.array(cumulative, np.int64),
        np.array(end_cfg, np.int64),
    )


def _walk(engine: Engine, sem: TracerySemantics, explorer: _Explorer) -> tuple[Walk, list[str]]:
    program = engine.program
    n_nodes, classes, depth_bound = len(program), len(sem._ids), engine.depth
    if n_nodes * classes * (depth_bound + 1) > MAX_LOOKUP or classes > MAX_CLASSES:
        raise Uncompiled
    symbols: dict[str, int] = {name: i for i, name in enumerate(sem.symbols)}
    pieces: dict[str, int] = {}
    kind = np.array(program.kinds, np.int64)
    node_abc = np.zeros((3, n_nodes), np.int64)
    items: list[list[int]] = []
    for node, (k, args) in enumerate(zip(program.kinds, program.args, strict=True)):
        children: list[int] = []
        if k == EMIT or (k == SEQ and not args[0]):
            payload = args[0] if k == EMIT else ("text", "")
            if payload[0] == "text":
                kind[node] = EMIT
                node_abc[:, node] = EMIT_TEXT, pieces.setdefault(payload[1], len(pieces)), 0
            else:
                symbol = symbols.setdefault(payload[1], len(symbols))
                node_abc[:, node] = EMIT_VALUE, symbol, payload[2]
        elif k == EFFECT:
            op = args[0]
            symbol = symbols.setdefault(op[1], len(symbols)) if op[0] in ("push", "pop") else 0
            node_abc[:2, node] = EFFECT_OPS[op[0]], symbol
        elif k == SEQ:
            children = list(args[0])
        elif k != PICK:
            children = [args[0]]
            node_abc[0, node] = k == CAPTURE and args[1][0] == "value"
        items.append(children)
    node_ptr = np.zeros(n_nodes + 1, np.int64)
    node_ptr[1:] = np.cumsum([len(c) for c in items])
    next_class = np.full(n_nodes * classes, -1, np.int64)
    for (node, cls), after in explorer.next_class.items():
        next_class[node * classes + cls] = after
    lookup = np.full(n_nodes * classes * (depth_bound + 1), -1, np.int32)
    for (node, cls, depth), config in explorer.configs.items():
        lookup[(node * classes + cls) * (depth_bound + 1) + depth] = config
    opt, below, below_ptr = [], [], [0]
    opt_ptr = np.zeros(len(explorer.configs) + 1, np.int64)
    for config, (_, cls, depth) in enumerate(explorer.configs):
        options = explorer.options.get(config, [])
        if sum(w for _, w in options) >= MAX_COUNT:
            raise Uncompiled
        before: dict[int, int] = {}
        for option, weight in options:
            opt.append((option, weight))
            below.extend(before.items())
            below_ptr.append(len(below))
            option_config = explorer.configs[(option, cls, depth - 1)]
            for end, count in explorer.outs[option_config]:
                before[end] = before.get(end, 0) + count
        opt_ptr[config + 1] = len(opt)
    out_ptr = np.zeros(len(explorer.configs) + 1, np.int64)
    out_ptr[1:] = np.cumsum([len(explorer.outs[c]) for c in range(len(explorer.configs))])
    out = [pair for c in range(len(explorer.configs)) for pair in explorer.outs[c]]
    suffix_base = np.full(n_nodes, -1, np.int64)
    slots = 0
    for node, children in enumerate(items):
        if kind[node] == SEQ:
            suffix_base[node], slots = slots, slots + len(children)
    if slots * classes * (depth_bound + 1) > MAX_LOOKUP:
        raise Uncompiled
    suffix_lookup = np.full(slots * classes * (depth_bound + 1), -1, np.int32)
    suffix_ptr, suffix_class = [0], []
    for (node, j, cls, depth), ends in explorer.suffixes.items():
        slot = (suffix_base[node] + j) * classes + cls
        suffix_lookup[slot * (depth_bound + 1) + depth] = len(suffix_ptr) - 1
        suffix_class.extend(ends)
        suffix_ptr.append(len(suffix_class))
    opt_cols = np.array(opt, np.int64).reshape(-1, 2).T
    below_cols = np.array(below, np.int64).reshape(-1, 2).T
    out_cols = np.array(out, np.int64).reshape(-1, 2).T
    walk = Walk(
        kind,
        node_ptr,
        np.array([c for children in items for c in children], np.int64),
        *node_abc,
        next_class,
        classes,
        depth_bound,
        lookup,
        opt_ptr,
        *(np.ascontiguousarray(c) for c in opt_cols),
        np.array(below_ptr, np.int64),
        *(np.ascontiguousarray(c) for c in below_cols),
        out_ptr,
        *(np.ascontiguousarray(c) for c in out_cols),
        suffix_base,
        suffix_lookup,
        np.array(suffix_ptr, np.int64),
        np.array(suffix_class, np.int64),
        explorer.dead_ends,
        engine.root,
        sem.key(engine.start),
        len(symbols),
        np.array([symbols[s] for s in sem.symbols], np.int64),
    )
    return walk, list(pieces)
