"""The compiled walks against the Python walks they stand in for, at their edges.

Small grammars, one kernel compile per process (cached on disk): the Mersenne Twister
against Python's own, outputs longer than the first buffers, a memo that outgrows its
first table or is trimmed, and the cases the kernels hand back to Python.
"""

import random

import numpy as np
from numba import njit

from epcg_spec.core.rng import SplitMix64
from epcg_spec.domains.tracery import walks
from epcg_spec.domains.tracery.compile import Rule
from epcg_spec.domains.tracery.expansion import COMPILED_FROM, Expansion
from epcg_spec.domains.tracery.kernels import N, _mt_below, _mt_seed


def _grammar(symbols: dict[str, tuple[str, ...]], **options) -> Expansion:
    return Expansion({k: tuple(Rule(r) for r in v) for k, v in symbols.items()}, "#o#", **options)


def _same_as_python(expansion: Expansion, streams: range) -> None:
    """The batches equal the Python walks (whether the kernels served them or not)."""
    assert expansion.draws(3, streams) == [expansion.draw(3, i) for i in streams]
    assert expansion.locals(4, streams) == [expansion.local(SplitMix64(4, i)) for i in streams]


@njit
def _mt_draws(base, key, key_len, bounds):
    mt, at = np.zeros(N, np.int64), np.zeros(2, np.int64)
    _mt_seed(mt, base, key, key_len)
    at[0] = N
    return np.array([_mt_below(mt, at, b) for b in bounds])


def test_the_mersenne_twister_is_pythons():
    # one- and two-word draws, 800 of them: past the first 624 words of a state
    bounds = [2, 3, 2**32 - 1, 2**32, 2**32 + 1, 10**12, 2**61, 7] * 100
    for seed, stream in ((0, 0), (1, 5), (3, 2**40), (12345, 99), (-2, 7)):
        keys, lengths = walks.mt_keys(seed, [stream])
        drawn = _mt_draws(walks._MT_BASE, keys[0], lengths[0], np.array(bounds))
        python = random.Random(seed * walks.SAMPLER_SEED ^ stream)
        assert drawn.tolist() == [python.randrange(b) for b in bounds], (seed, stream)


def test_outputs_longer_than_the_first_buffers():
    # 300 pieces a derivation: past the first 64 slots a row
    expansion = _grammar({"o": ("[x:#w#]" + "#x.capitalize# #x# " * 100,), "w": ("a", "b")})
    assert expansion.walks is not None
    _same_as_python(expansion, range(5))


def test_many_empty_modified_texts():
    # each wrap of nothing writes one piece where no text was: the buffer must grow there too
    expansion = _grammar({"o": ("#e.capitalize#" * 150 + "#w#",), "e": ("",), "w": ("a", "b")})
    _same_as_python(expansion, range(3))


def test_a_memo_that_outgrows_its_first_table():
    # about 700 distinct modified texts: past the memo's first 512 entries
    words = tuple(f"{a}{b}{c}" for a in "abcdefghij" for b in "klmnopqrst" for c in "aeiouyxwvz")
    expansion = _grammar({"o": ("#w.capitalize# #w.uppercase#",), "w": words})
    assert expansion.draws(3, range(400)) == [expansion.draw(3, i) for i in range(400)]
    assert len(expansion.walks.memo.pieces) > len(expansion.walks.memo.base) + 512


def test_a_trimmed_memo_gives_the_same_texts(monkeypatch):
    expansion = _grammar({"o": ("[x:#w#]#x.s# #x.a#",), "w": ("yak", "owl", "ibis")})
    first = expansion.draws(5, range(40))
    monkeypatch.setattr(walks, "MEMO_PIECES", 0)
    assert expansion.draws(5, range(40)) == first
    assert len(expansion.walks.memo.pieces) < len(expansion.walks.memo.base) + 7


def test_tracery_style_draws_skip_dead_ends_as_python_does():
    # 't' may push nothing, after which 's' (no rules) cannot be expanded: that option
    # is dead only because of what follows it; 'r' recurses into the depth bound
    expansion = _grammar(
        {
            "o": ("#t##s#", "#e#x", "#r#", "[k:#r#]#k.s#"),
            "t": ("[s:pushed]", ""),
            "s": (),
            "e": (),
            "r": ("r", "(#r#)", "#r.capitalize#!"),
        },
        depth=5,
    )
    assert not expansion.finite
    states = np.array([SplitMix64(4, i).state for i in range(300)], np.uint64)
    assert expansion.walks.tracery(states) is not None  # served, not handed back
    _same_as_python(expansion, range(300))


def test_too_many_pushes_fall_back_to_python():
    expansion = _grammar({"o": ("[x:a]" * 300 + "#x# #w#",), "w": ("a", "b")})
    assert expansion.walks is not None
    assert expansion.walks.uniform(1, range(3)) is None
    _same_as_python(expansion, range(3))


def test_counts_past_2_to_the_62_fall_back_to_python():
    expansion = _grammar({"o": ("#d#" * 19,), "d": tuple("0123456789")})
    assert expansion.total == 10**19 and expansion.walks is None
    _same_as_python(expansion, range(3))


def test_a_build_sized_picker_draws_in_compiled_blocks():
    expansion = _grammar({"o": ("#a# #b.ed#", "#b.s#"), "a": ("red", "blue"), "b": ("cry", "fix")})
    for tracery in (False, True):
        pick = expansion.picker(6, tracery, COMPILED_FROM)
        picked = [pick(i) for i in range(250, 270)]
        one = (
            (lambda i: expansion.local(SplitMix64(6, i)))
            if tracery
            else (lambda i: expansion.draw(6, i))
        )
        assert picked == [one(i) for i in range(250, 270)]


def test_a_grammar_without_derivations_is_left_to_python():
    expansion = _grammar({"o": ()})
    assert expansion.total == 0 and expansion.walks is None
