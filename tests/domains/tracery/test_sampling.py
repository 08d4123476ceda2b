"""Uniform sampling, checked with a chi-square test at p = 0.001 (fixed seeds: no flakiness)."""

from collections import Counter

from epcg_spec.core.rng import SplitMix64
from epcg_spec.domains.tracery.compile import Rule
from epcg_spec.domains.tracery.expansion import Expansion

# 25 derivations whose choices are far from evenly spread: a choice-by-choice
# sampler would give the 'solo' branch half of all samples instead of 1/25.
SKEWED = {
    "origin": (Rule("#solo#"), Rule("[x:#a#,#b#]#x# #x#")),
    "solo": (Rule("alone"),),
    "a": (Rule("a1"), Rule("a2")),
    "b": (Rule("b1"), Rule("b2"), Rule("b3")),
}


def _chi_square(observed: Counter, expected: dict[int, float]) -> float:
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def test_uniform_over_derivations_of_a_grammar_with_pushes():
    symbols = SKEWED
    expansion = Expansion(symbols, "#origin#")
    # 1 + (2 x 3 pushed pairs) x (2 x 2 picks of x)
    assert expansion.total == 25
    n = 25_000
    ranks = Counter(expansion.uniform(SplitMix64(11, i))[0] for i in range(n))
    expected = {r: n / expansion.total for r in range(expansion.total)}
    assert _chi_square(ranks, expected) < 51.179  # df = 24, p = 0.001


def test_weights_count_as_copies_of_a_rule():
    symbols = {"origin": (Rule("a", 3), Rule("b"), Rule("c", 4))}
    expansion = Expansion(symbols, "#origin#")
    assert expansion.total == 3 and expansion.weighted_total == 8
    n = 8_000
    seen = Counter(expansion.uniform(SplitMix64(5, i))[1] for i in range(n))
    assert (
        _chi_square(
            Counter({0: seen["a"], 1: seen["b"], 2: seen["c"]}), {0: 3000.0, 1: 1000.0, 2: 4000.0}
        )
        < 13.816
    )  # df = 2


def test_tracery_style_sampling_draws_choice_by_choice():
    symbols = {
        "origin": (Rule("#solo#"), Rule("#a##a#")),
        "solo": (Rule("s"),),
        "a": tuple(Rule(c) for c in "pqrs"),
    }
    expansion = Expansion(symbols, "#origin#")
    n = 4_000
    solo = sum(expansion.local(SplitMix64(3, i))[1] == "s" for i in range(n))
    assert abs(solo - n / 2) < 4 * (n / 4) ** 0.5


def test_the_fast_sampler_is_uniform_too():
    symbols = SKEWED
    expansion = Expansion(symbols, "#origin#")
    assert expansion.sampler is not None
    n = 25_000
    ranks = Counter(expansion.draw(13, i)[0] for i in range(n))
    expected = {r: n / 25 for r in range(25)}
    assert _chi_square(ranks, expected) < 51.179  # df = 24, p = 0.001
    assert expansion.draw(13, 7) == expansion.draw(13, 7)
