"""The expand back end on a program of its own: no domain involved."""

import pytest

from epcg_spec.core.rng import SplitMix64
from epcg_spec.search.expand import Engine, Program


class Counter:
    """A toy semantics: the state is a counter; `inc` adds one; a choice 'n' offers
    'state + 1' options, each showing its index, so earlier choices shape later ones."""

    needs_text = True  # a capture's effect depends on the captured text

    def __init__(self, program):
        self.program = program

    def key(self, state):
        return state

    def options(self, site, state):
        return [(self.program.emit(str(i)), 1) for i in range(state + 1)]

    def effect(self, op, state):
        return state + 1

    def capture(self, op, state, text):
        return state + len(text)

    def wrap(self, op, text):
        return f"<{text}>"

    def emit(self, payload, state):
        return payload


def _engine():
    p = Program()
    sem = Counter(p)
    inc, choose = p.effect("inc"), p.pick("n")
    # choose, inc, [capture a choice], wrap(choose), choose
    root = p.seq([choose, inc, p.capture(choose, "grow"), p.wrap(choose, "angle"), choose])
    return Engine(p, sem, root, 0, depth=4), sem


def _brute():
    out = []
    for a in range(1):  # state 0: one option
        for b in range(2):  # state 1
            state = 1 + len(str(b))
            for c in range(state + 1):
                for d in range(state + 1):
                    out.append(([a, b, c, d], f"{a}<{c}>{d}"))
    return out


def test_counts_ranks_and_texts_agree_with_brute_force():
    engine, _ = _engine()
    expected = _brute()
    assert engine.total() == len(expected) == 18
    for rank, (choices, text) in enumerate(expected):
        derivation = engine.unrank(rank)
        assert (derivation.choices, derivation.text) == (choices, text)
        assert engine.rank(choices) == rank
    assert [d.text for d in engine.enumerate_from(5)] == [t for _, t in expected[5:]]


def test_depth_bound_and_recursion_are_reported():
    p = Program()
    sem = Counter(p)
    loop = p.pick("loop")

    class Loop(Counter):
        def options(self, site, state):
            return [(p.emit("x"), 1), (p.seq([p.emit("("), loop, p.emit(")")]), 1)]

    engine = Engine(p, Loop(p), loop, 0, depth=3)
    assert engine.total() == 3
    assert engine.recursion.cut and engine.recursion.sites == ["loop"]
    assert [engine.unrank(r).text for r in range(3)] == ["x", "(x)", "((x))"]
    del sem


def test_sample_rng_is_reproducible_and_uniform_enough():
    a = [SplitMix64(3, 1).below(10**30) for _ in range(3)]
    assert a == [SplitMix64(3, 1).below(10**30)] * 3
    rng = SplitMix64(1, 2)
    draws = [rng.below(6) for _ in range(6000)]
    counts = [draws.count(k) for k in range(6)]
    assert sum((c - 1000) ** 2 / 1000 for c in counts) < 20.515  # df 5, p 0.001
    with pytest.raises(ValueError):
        rng.below(0)


def test_interning_shares_equal_nodes():
    p = Program()
    assert p.emit("a") == p.emit("a") != p.emit("b")
    assert p.seq([p.emit("a")]) == p.emit("a")
    assert len(p) == 2
