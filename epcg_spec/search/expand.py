"""The expand back end: exact counting, ranking, unranking and sampling of derivations.

A domain compiles its grammar into a `Program` of interned nodes and supplies the
`Semantics` that give the nodes meaning (which options a choice has in a state, what
an effect does, how captured text changes the state). The back end never knows what
the nodes stand for; it sees a derivation as the sequence of options chosen, in
execution order, and orders derivations lexicographically by that sequence.

Counting is a dynamic programme over (node, state class, depth left): for each, the
map from the class of the end state to the number of derivations reaching it. The
state class is `Semantics.key(state)`: states with equal keys must have the same
derivations from every node (the domain's abstraction, e.g. pushed values that are
plain text count as "one value" whatever their text). Counts are Python integers,
exact at any size. Unranking walks one derivation and weighs each option by the
number of completions of everything after it (the continuation), so rank 0 takes
the first option at every choice and the last rank the last option.
"""

from __future__ import annotations

import functools
import random
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Protocol

from ..core.errors import BuildError
from ..core.rng import SplitMix64, mersenne
from ..core.sizes import count_text

EMIT, EFFECT, PICK, CAPTURE, WRAP, SEQ = range(6)
KIND_NAMES = ("emit", "effect", "pick", "capture", "wrap", "seq")
MAX_COUNT_BITS = 14_000
"""Largest count (or weight) kept exactly, in bits: about 10^4,214 derivations, within
the 4,300 digits Python will turn an int into text (for --json)."""
MAX_STEPS = 1_000_000
"""Nodes one derivation may walk (a grammar whose rules each name a symbol ten times
makes 10^12 of them within the depth bound)."""
MAX_CHARS = 1 << 20
"""Characters of text one derivation may make, pieces and modified texts together."""
MAX_HELD = 100_000
"""End classes (with their texts, when counting by text) counting may hold at once."""
MAX_HELD_CHARS = 1 << 26
"""Characters of text counting by text may hold at once."""
GRAMMAR = (("grammar",),)
"""Where a spec of any kind that expands holds what makes a derivation too large."""


class Program:
    """Interned nodes: structurally equal nodes share one integer id."""

    def __init__(self) -> None:
        self.kinds: list[int] = []
        self.args: list[tuple] = []
        self._ids: dict[tuple, int] = {}

    def _node(self, kind: int, args: tuple) -> int:
        found = self._ids.get((kind, args))
        if found is not None:
            return found
        self.kinds.append(kind)
        self.args.append(args)
        self._ids[(kind, args)] = len(self.kinds) - 1
        return len(self.kinds) - 1

    def emit(self, payload: Hashable) -> int:
        """Output only: the domain turns `payload` into text (Semantics.emit)."""
        return self._node(EMIT, (payload,))

    def effect(self, op: Hashable) -> int:
        """A deterministic change of state (Semantics.effect); no text."""
        return self._node(EFFECT, (op,))

    def pick(self, site: Hashable) -> int:
        """A choice: its options, and their weights, depend on the state (Semantics.options)."""
        return self._node(PICK, (site,))

    def capture(self, body: int, op: Hashable) -> int:
        """Run `body`, hand its text to Semantics.capture (e.g. a pushed value); no text."""
        return self._node(CAPTURE, (body, op))

    def wrap(self, body: int, op: Hashable) -> int:
        """Run `body` and transform its text (Semantics.wrap, e.g. modifiers)."""
        return self._node(WRAP, (body, op))

    def seq(self, items: Sequence[int]) -> int:
        """Run `items` in order; the text is their texts joined."""
        items = tuple(items)
        if len(items) == 1:
            return items[0]
        return self._node(SEQ, (items,))

    def __len__(self) -> int:
        return len(self.kinds)


class Semantics(Protocol):
    """What the domain tells the back end about states; states are immutable values."""

    needs_text: bool
    """True if a capture's resulting state class may depend on the captured text."""

    def key(self, state: Any) -> Hashable:
        """The class of `state`: equal keys must have the same derivations from every node."""
        ...

    def options(self, site: Hashable, state: Any) -> Sequence[tuple[int, int]]:
        """The options of a choice in `state`: (node, positive integer weight) pairs."""
        ...

    def effect(self, op: Hashable, state: Any) -> Any: ...

    def capture(self, op: Hashable, state: Any, text: str) -> Any: ...

    def wrap(self, op: Hashable, text: str) -> str: ...

    def emit(self, payload: Hashable, state: Any) -> str: ...


@dataclass
class Outcome:
    """Derivations of a node that end in one state class (and, in text mode, one text)."""

    count: int
    weight: int
    state: Any
    text: str


@dataclass
class Derivation:
    """One derivation: its choices in execution order, its text and its end state."""

    choices: list[int]
    text: str
    state: Any


@dataclass
class Recursion:
    """Where counting met a choice nested inside itself, and whether depth cut any branch."""

    sites: list[Hashable] = field(default_factory=list)
    cut: bool = False


class Budget:
    """What one derivation may cost to make: nodes walked and characters of text made;
    a BuildError (at the spec's grammar) past either bound."""

    __slots__ = ("chars", "steps")

    def __init__(self) -> None:
        self.steps = self.chars = 0

    def step(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise BuildError(
                f"a derivation expands more than {MAX_STEPS:,} rules and texts, too many to "
                "make; let the rules name fewer symbols, or nest less deeply",
                at=GRAMMAR,
            )

    def made(self, text: str) -> str:
        """`text`, counted against the characters a derivation may make."""
        self.chars += len(text)
        if self.chars > MAX_CHARS:
            raise too_long()
        return text


def too_long() -> BuildError:
    """The error for a derivation whose text would pass MAX_CHARS."""
    return BuildError(
        f"a derivation makes more than {MAX_CHARS:,} characters of text, too long to make; "
        "let the rules name fewer symbols, or nest less deeply",
        at=GRAMMAR,
    )


def _joined(first: str, second: str) -> str:
    """`first + second`, refused past the characters a derivation may make."""
    if len(first) + len(second) > MAX_CHARS:
        raise too_long()
    return first + second


class _Outcomes(dict):
    """Outcomes by key (state class, and text when counting by text), and their text's
    characters."""

    chars = 0


Cont = Callable[[Any, str], int]


class Engine:
    """Counting, ranking and enumeration of the derivations of `root` from `start`.

    `depth` bounds the nesting of choices: a derivation that nests more than `depth`
    choices is not counted (recursive grammars are infinite; their derivations are
    ranked up to that depth). `recursion.cut` tells whether the bound cut anything.
    """

    def __init__(
        self, program: Program, semantics: Semantics, root: int, start: Any, depth: int
    ) -> None:
        self.program = program
        self.sem = semantics
        self.root = root
        self.start = start
        self.depth = depth
        self.recursion = Recursion()
        self._memo: dict[tuple, dict[Hashable, Outcome]] = {}
        self._active: dict[Hashable, int] = {}

    # ---- counting ----

    def outcomes(self, node: int, state: Any, depth: int, text: bool) -> dict[Hashable, Outcome]:
        """End-state classes of the derivations of `node` from `state`, with their counts."""
        memo_key = (node, self.sem.key(state), depth, text)
        found = self._memo.get(memo_key)
        if found is None:
            found = self._compute(node, state, depth, text)
            self._memo[memo_key] = found
        return found

    def _compute(self, node: int, state: Any, depth: int, text: bool) -> dict[Hashable, Outcome]:
        kind, args = self.program.kinds[node], self.program.args[node]
        sem = self.sem
        if kind == EMIT:
            return self._single(state, sem.emit(args[0], state) if text else "", text)
        if kind == EFFECT:
            return self._single(sem.effect(args[0], state), "", text)
        if kind == PICK:
            return self._pick(args[0], state, depth, text)
        if kind == SEQ:
            return self.suffix(node, 0, state, depth, text)
        body, op = args
        if kind == CAPTURE:
            out = _Outcomes()
            for o in self.outcomes(body, state, depth, sem.needs_text).values():
                after = sem.capture(op, o.state, o.text)
                _add(out, self._okey(after, "", text), o.count, o.weight, after, "")
            return out
        if not text:
            return self.outcomes(body, state, depth, False)
        out = _Outcomes()
        for o in self.outcomes(body, state, depth, True).values():
            wrapped = sem.wrap(op, o.text)
            _add(out, self._okey(o.state, wrapped, True), o.count, o.weight, o.state, wrapped)
        return out

    def _single(self, state: Any, text_out: str, text: bool) -> dict[Hashable, Outcome]:
        return {self._okey(state, text_out, text): Outcome(1, 1, state, text_out)}

    def _okey(self, state: Any, text_out: str, text: bool) -> Hashable:
        key = self.sem.key(state)
        return (key, text_out) if text else key

    def _pick(self, site: Hashable, state: Any, depth: int, text: bool) -> dict:
        if depth == 0:
            self.recursion.cut = True
            return {}
        if self._active.get(site, 0) and site not in self.recursion.sites:
            self.recursion.sites.append(site)
        self._active[site] = self._active.get(site, 0) + 1
        out = _Outcomes()
        try:
            for option, weight in self.sem.options(site, state):
                for key, o in self.outcomes(option, state, depth - 1, text).items():
                    _add(out, key, o.count, o.weight * weight, o.state, o.text)
        finally:
            self._active[site] -= 1
        return out

    def suffix(self, node: int, start: int, state: Any, depth: int, text: bool) -> dict:
        """Outcomes of the items of SEQ `node` from index `start` on."""
        memo_key = (node, start, self.sem.key(state), depth, text)
        found = self._memo.get(memo_key)
        if found is not None:
            return found
        current = self._single(state, "", text)
        for item in self.program.args[node][0][start:]:
            following = _Outcomes()
            for o in current.values():
                for p in self.outcomes(item, o.state, depth, text).values():
                    joined = _joined(o.text, p.text)
                    _add(
                        following,
                        self._okey(p.state, joined, text),
                        o.count * p.count,
                        o.weight * p.weight,
                        p.state,
                        joined,
                    )
            current = following
        self._memo[memo_key] = current
        return current

    def total(self, weighted: bool = False) -> int:
        """The number of derivations of the root (or their total weight)."""
        found = self.outcomes(self.root, self.start, self.depth, False).values()
        return sum(o.weight if weighted else o.count for o in found)

    # ---- ranking ----

    def unrank(self, rank: int, weighted: bool = False) -> Derivation:
        """The derivation of lexicographic `rank` (with `weighted`, of that weighted rank)."""
        total = self.total(weighted)
        if not 0 <= rank < total:
            raise IndexError(f"rank {rank} is out of range 0..{total - 1}")
        walk = _Walk(self, weighted, None)
        state, text, _ = walk.run(self.root, self.start, self.depth, rank, _ONE, False)
        return Derivation(walk.choices, text, state)

    def rank(self, choices: Sequence[int]) -> int:
        """The lexicographic rank of the derivation that makes `choices`."""
        walk = _Walk(self, False, list(choices))
        walk.run(self.root, self.start, self.depth, 0, _ONE, False)
        return walk.rank

    def sample_local(self, rng: SplitMix64) -> Derivation:
        """A derivation chosen choice by choice, each option by its weight (Tracery's way).

        Options with no derivation within the depth bound are skipped.
        """
        walk = _Walk(self, False, None, rng=rng)
        state, text, _ = walk.run(self.root, self.start, self.depth, 0, _ONE, False)
        return Derivation(walk.choices, text, state)

    def replay(self, choices: Sequence[int]) -> Derivation:
        """The derivation that makes `choices` (no counting needed)."""
        walk = _Walk(self, False, list(choices), counting=False)
        state, text, _ = walk.run(self.root, self.start, self.depth, 0, _ONE, False)
        return Derivation(walk.choices, text, state)

    # ---- enumeration ----

    def enumerate_from(self, rank: int = 0) -> Iterator[Derivation]:
        """Every derivation from `rank` on, in rank order."""
        total = self.total()
        if rank >= total:
            return
        bound = _Bound(self.unrank(rank).choices)
        budget = Budget()
        found = self._enum(self.root, self.start, self.depth, bound, budget)
        for state, text, choices, _ in found:
            yield Derivation(list(choices), text, state)
            budget.steps = 0  # the steps towards the next derivation

    def _enum(self, node: int, state: Any, depth: int, bound: _Bound | None, budget: Budget):
        """(end state, text, choices, still on the bound) for each derivation, in order."""
        kind, args = self.program.kinds[node], self.program.args[node]
        sem = self.sem
        budget.step()
        if kind == EMIT:
            yield state, sem.emit(args[0], state), (), bound is not None
        elif kind == EFFECT:
            yield sem.effect(args[0], state), "", (), bound is not None
        elif kind == PICK:
            if depth == 0:
                return
            options = sem.options(args[0], state)
            first = bound.take() if bound is not None else 0
            for index in range(first, len(options)):
                inner = bound if index == first else None
                for end, text, choices, on in self._enum(
                    options[index][0], state, depth - 1, inner, budget
                ):
                    yield end, text, (index, *choices), on
        elif kind == SEQ:
            yield from self._enum_seq(args[0], state, depth, bound, budget)
        elif kind == CAPTURE:
            for end, text, choices, on in self._enum(args[0], state, depth, bound, budget):
                yield sem.capture(args[1], end, text), "", choices, on
        else:
            for end, text, choices, on in self._enum(args[0], state, depth, bound, budget):
                yield end, _joined("", sem.wrap(args[1], text)), choices, on

    def _enum_seq(self, items, state, depth: int, bound: _Bound | None, budget: Budget):
        """The derivations of the items one after another, in order: each item's from the
        state the one before it ends in. A loop, not a generator per item: a rule may name
        a thousand symbols, past Python's recursion limit."""
        if not items:
            yield state, "", (), bound is not None
            return
        bounds = [bound]  # bounds[k]: item k's, the bound while every item before is on it
        taken = []  # (end, text, choices, on) of the items before the current one
        levels = [self._enum(items[0], state, depth, bound, budget)]
        while levels:
            found = next(levels[-1], None)
            if found is None:  # this item has no more derivations: the one before moves on
                levels.pop()
                bounds.pop()
                if taken:
                    taken.pop()
                continue
            taken.append(found)
            if len(taken) == len(items):
                end, _, _, on = found
                text = functools.reduce(_joined, (t for _, t, _, _ in taken))
                choices = tuple(c for _, _, cs, _ in taken for c in cs)
                yield end, text, choices, bounds[-1] is not None and on
                taken.pop()
                continue
            inner = bounds[-1] if found[3] else None
            bounds.append(inner)
            levels.append(self._enum(items[len(taken)], found[0], depth, inner, budget))


def _add(out: _Outcomes, key: Hashable, count: int, weight: int, state: Any, text: str) -> None:
    if count.bit_length() > MAX_COUNT_BITS or weight.bit_length() > MAX_COUNT_BITS:
        raise BuildError(
            f"the derivations number more than 2**{MAX_COUNT_BITS} ({count_text(count)} at "
            "one step), too many to count exactly; lower the depth bound or the recursion",
            at=GRAMMAR,
        )
    found = out.get(key)
    if found is None:
        out.chars += len(text)
        if len(out) >= MAX_HELD or out.chars > MAX_HELD_CHARS:
            raise BuildError(
                f"counting the derivations tells more than {MAX_HELD:,} end states or "
                f"{MAX_HELD_CHARS:,} characters of their texts apart at one step, too many to "
                "hold; let the rules name fewer symbols, or nest less deeply",
                at=GRAMMAR,
            )
        out[key] = Outcome(count, weight, state, text)
    else:
        found.count += count
        found.weight += weight


def _one(state: Any, text: str) -> int:
    return 1


_ONE: Cont = _one


class _Bound:
    """The choices of the first derivation an enumeration must start from."""

    def __init__(self, choices: list[int]) -> None:
        self.choices = choices
        self.at = 0

    def take(self) -> int:
        self.at += 1
        return self.choices[self.at - 1]


class _Walk:
    """One walk down a derivation: by rank (unrank) or by given choices (rank, replay)."""

    def __init__(
        self,
        engine: Engine,
        weighted: bool,
        given: list[int] | None,
        counting: bool = True,
        rng: SplitMix64 | None = None,
    ):
        self.engine = engine
        self.rng = rng
        self.weighted = weighted
        self.given = given
        self.counting = counting
        self.choices: list[int] = []
        self.rank = 0
        self.budget = Budget()

    def _value(self, o: Outcome) -> int:
        return o.weight if self.weighted else o.count

    def mass(self, node: int, state: Any, depth: int, text: bool, cont: Cont) -> int:
        """Derivations of `node` times the completions of what follows, summed."""
        found = self.engine.outcomes(node, state, depth, text).values()
        return sum(self._value(o) * cont(o.state, o.text) for o in found)

    def run(self, node: int, state: Any, depth: int, rank: int, cont: Cont, text: bool):
        """Walk `node`: returns (end state, text, rank left for the continuation)."""
        engine, sem = self.engine, self.engine.sem
        kind, args = engine.program.kinds[node], engine.program.args[node]
        self.budget.step()
        if kind == EMIT:
            return state, self.budget.made(sem.emit(args[0], state)), rank
        if kind == EFFECT:
            return sem.effect(args[0], state), "", rank
        if kind == PICK:
            return self._pick(args[0], state, depth, rank, cont, text)
        if kind == SEQ:
            return self._seq(node, state, depth, rank, cont, text)
        body, op = args
        if kind == CAPTURE:
            inner = sem.needs_text

            def after_capture(end: Any, captured: str) -> int:
                return cont(sem.capture(op, end, captured), "")

            end, captured, rank = self.run(
                body, state, depth, rank, _cached(sem.key, after_capture), inner
            )
            return sem.capture(op, end, captured), "", rank

        def after_wrap(end: Any, body_text: str) -> int:
            return cont(end, sem.wrap(op, body_text) if text else "")

        end, body_text, rank = self.run(
            body, state, depth, rank, _cached(sem.key, after_wrap), text
        )
        return end, self.budget.made(sem.wrap(op, body_text)), rank

    def _pick(self, site, state, depth: int, rank: int, cont: Cont, text: bool):
        options = self.engine.sem.options(site, state)
        if self.given is not None:
            index = self.given[len(self.choices)]
            if not 0 <= index < len(options):
                raise IndexError(f"choice {index} is out of range 0..{len(options) - 1}")
            if self.counting:
                self.rank += sum(
                    self.mass(options[i][0], state, depth - 1, text, cont) for i in range(index)
                )
            self.choices.append(index)
            return self.run(options[index][0], state, depth - 1, rank, cont, text)
        if self.rng is not None:
            return self._local(options, state, depth, cont, text)
        for index, (option, weight) in enumerate(options):
            mass = self.mass(option, state, depth - 1, text, cont)
            scale = weight if self.weighted else 1
            if rank < mass * scale:
                self.choices.append(index)
                return self.run(option, state, depth - 1, rank // scale, cont, text)
            rank -= mass * scale
        raise AssertionError("rank beyond the derivations of a choice")

    def _local(self, options, state, depth: int, cont: Cont, text: bool):
        live = [
            (i, w) for i, (o, w) in enumerate(options) if self.mass(o, state, depth - 1, text, cont)
        ]
        pick = self.rng.below(sum(w for _, w in live))
        for index, weight in live:
            if pick < weight:
                self.choices.append(index)
                return self.run(options[index][0], state, depth - 1, 0, cont, text)
            pick -= weight
        raise AssertionError("no live option")

    def _seq(self, node: int, state, depth: int, rank: int, cont: Cont, text: bool):
        engine = self.engine
        items = engine.program.args[node][0]
        joined = ""
        for i, item in enumerate(items):
            if i + 1 == len(items):
                follow = cont if not text else self._last(cont, joined)
            else:
                follow = _cached(
                    engine.sem.key, self._follow(node, i + 1, depth, text, cont, joined)
                )
            state, piece, rank = self.run(item, state, depth, rank, follow, text)
            joined += piece
        return state, joined, rank

    def _last(self, cont: Cont, before: str) -> Cont:
        return _cached(self.engine.sem.key, lambda end, piece: cont(end, _joined(before, piece)))

    def _follow(self, node: int, start: int, depth: int, text: bool, cont: Cont, before: str):
        """Completions after item start-1 of a SEQ: its remaining items, then `cont`."""
        engine = self.engine

        def follow(end: Any, piece: str) -> int:
            rest = engine.suffix(node, start, end, depth, text).values()
            if not text:  # completions never depend on text: none is made
                return sum(self._value(o) * cont(o.state, "") for o in rest)
            head = _joined(before, piece)
            return sum(self._value(o) * cont(o.state, _joined(head, o.text)) for o in rest)

        return follow


def _cached(key: Callable[[Any], Hashable], cont: Cont) -> Cont:
    """`cont` remembered per (state class, text): it depends on nothing else."""
    seen: dict[tuple[Hashable, str], int] = {}

    def cached(state: Any, text: str) -> int:
        found = (key(state), text)
        if found not in seen:
            seen[found] = cont(state, text)
        return seen[found]

    return cached


class Sampler:
    """Uniform (weighted) sampling of derivations, one random draw per choice.

    The end-state class of the whole derivation is drawn first; then each node is
    walked towards a known end class: a choice draws its option, and a sequence the
    class between two items, by the number (weight) of derivations through each, so
    no continuation has to be weighed on the way. Needs a program whose counting
    never looks at text (`Semantics.needs_text` False). Each draw is an exact integer
    from Python's Mersenne Twister seeded by (seed, stream).
    """

    def __init__(self, engine: Engine) -> None:
        if engine.sem.needs_text:
            raise ValueError("the sampler needs a program counted without text")
        self.engine = engine
        self._tables: dict[tuple, tuple[list, list[int]]] = {}
        ends = engine.outcomes(engine.root, engine.start, engine.depth, False)
        self._ends = (list(ends), list(accumulate(o.weight for o in ends.values())))

    def draw(self, seed: int, stream: int) -> Derivation:
        rng = mersenne(seed, stream)
        choices: list[int] = []
        end = _pick_from(self._ends, rng)
        engine = self.engine
        walked = (rng, choices, Budget())
        state, text = self._walk(engine.root, engine.start, engine.depth, end, walked)
        return Derivation(choices, text, state)

    def _walk(self, node, state, depth, end, walked: tuple[random.Random, list[int], Budget]):
        engine, sem, tables = self.engine, self.engine.sem, self._tables
        kind, args = engine.program.kinds[node], engine.program.args[node]
        rng, choices, budget = walked
        budget.step()
        if kind == EMIT:
            return state, budget.made(sem.emit(args[0], state))
        if kind == EFFECT:
            return sem.effect(args[0], state), ""
        if kind == PICK:
            options = sem.options(args[0], state)
            key = (node, sem.key(state), depth, end)
            items, cumulative = tables.get(key) or self._pick_table(key, options, state)
            index = items[0] if len(items) == 1 else _pick_from((items, cumulative), rng)
            choices.append(index)
            return self._walk(options[index][0], state, depth - 1, end, walked)
        if kind == SEQ:
            items = args[0]
            pieces = []
            last = len(items) - 1
            for i, item in enumerate(items):
                if i == last:
                    middle = end
                else:
                    key = (node, i, sem.key(state), depth, end)
                    found = tables.get(key) or self._seq_table(key, state)
                    middle = found[0][0] if len(found[0]) == 1 else _pick_from(found, rng)
                state, piece = self._walk(item, state, depth, middle, walked)
                pieces.append(piece)
            return state, "".join(pieces)
        body, op = args
        if kind == CAPTURE:
            key = (node, sem.key(state), depth, end)
            middle = _pick_from(tables.get(key) or self._capture_table(key, state), rng)
            state, captured = self._walk(body, state, depth, middle, walked)
            return sem.capture(op, state, captured), ""
        state, body_text = self._walk(body, state, depth, end, walked)
        return state, budget.made(sem.wrap(op, body_text))

    def _store(self, key: tuple, pairs: list[tuple[Any, int]]) -> tuple[list, list[int]]:
        pairs = [(item, w) for item, w in pairs if w]
        table = ([item for item, _ in pairs], list(accumulate(w for _, w in pairs)))
        self._tables[key] = table
        return table

    def _pick_table(self, key: tuple, options, state):
        engine, depth, end = self.engine, key[2], key[3]
        return self._store(
            key,
            [
                (i, w * _weight(engine.outcomes(o, state, depth - 1, False), end))
                for i, (o, w) in enumerate(options)
            ],
        )

    def _seq_table(self, key: tuple, state):
        engine = self.engine
        node, i, _, depth, end = key
        item = engine.program.args[node][0][i]
        return self._store(
            key,
            [
                (middle, o.weight * _weight(engine.suffix(node, i + 1, o.state, depth, False), end))
                for middle, o in engine.outcomes(item, state, depth, False).items()
            ],
        )

    def _capture_table(self, key: tuple, state):
        engine, sem = self.engine, self.engine.sem
        node, _, depth, end = key
        body, op = engine.program.args[node]
        return self._store(
            key,
            [
                (middle, o.weight)
                for middle, o in engine.outcomes(body, state, depth, False).items()
                if sem.key(sem.capture(op, o.state, o.text)) == end
            ],
        )


def _weight(outcomes: dict[Hashable, Outcome], end: Hashable) -> int:
    found = outcomes.get(end)
    return found.weight if found is not None else 0


def _pick_from(table: tuple[list, list[int]], rng: random.Random) -> Any:
    items, cumulative = table
    if len(items) == 1:
        return items[0]
    return items[bisect_right(cumulative, rng.randrange(cumulative[-1]))]
