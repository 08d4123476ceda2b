"""Exact counts, ranks and enumeration against a brute-force oracle and known answers."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from epcg_spec.domains.tracery.compile import Rule
from epcg_spec.domains.tracery.expansion import Expansion
from tests.oracles.tracery_oracle import enumerate_derivations

DATA = Path(__file__).parent / "data"

GRAMMARS = {
    "plain": ({"origin": ["#a# #b#"], "a": ["x", "y"], "b": ["p", "q", "r"]}, "#origin#"),
    "push-pop": (
        {"animal": ["cat", "dog", "emu"], "mood": ["calm", "cross"]},
        "[pet:#animal#]a #pet#, [pet:#mood# #animal#]a #pet#, [pet:POP]a #pet#",
    ),
    "push-list": (
        {"v": ["a", "b"], "w": ["#v##v#", "c"]},
        "[k:#v#,#w#,z]#k#-#k#",
    ),
    "tag-actions": (
        {"name": ["Al", "Bo"], "hi": ["hi #who#", "yo #who#"]},
        "#[who:#name#]hi# then #who#",
    ),
    "function-action": (
        {"set": ["[p:she]", "[p:he][q:x]"], "t": ["#p##q#"]},
        "[#set#]#t#",
    ),
    "modifiers": (
        {"w": ["play", "fix", "try", "unicorn", "owl"], "x": ["#w.ed.capitalize#"]},
        "#x# #w.s# #w.a.replace(n,N)#",
    ),
    "missing": ({"a": ["x", "#nope#"]}, "#a# #b# #a.nomod#"),
    "recursive": ({"s": ["a", "(#s##s#)"]}, "#s#"),
    "nested-push": (
        {"c": ["r", "g"], "inner": ["[col:#c#]#col#"], "d": ["1", "2"]},
        "[box:#inner#-#d#]#box#/#box#/#col#",
    ),
}


def _expansion(name: str, depth: int = 6, no_repeat=frozenset()) -> Expansion:
    grammar, origin = GRAMMARS[name]
    symbols = {k: tuple(Rule(r) for r in v) for k, v in grammar.items()}
    return Expansion(symbols, origin, depth=depth, no_repeat=no_repeat)


@pytest.mark.parametrize("name", sorted(GRAMMARS))
def test_every_rank_matches_brute_force(name):
    grammar, origin = GRAMMARS[name]
    depth = 4 if name == "recursive" else 6
    expected = list(enumerate_derivations(grammar, origin, depth))
    expansion = _expansion(name, depth)
    assert expansion.total == len(expected)
    engine = expansion.engine
    for rank, (choices, text) in enumerate(expected):
        derivation = engine.unrank(rank)
        assert derivation.choices == choices
        assert expansion.text(derivation) == text
        assert engine.rank(choices) == rank


@pytest.mark.parametrize("name", ["push-pop", "tag-actions", "recursive", "nested-push"])
def test_enumeration_from_any_rank_continues_in_rank_order(name):
    expansion = _expansion(name, 4)
    engine = expansion.engine
    found = [(d.choices, expansion.text(d)) for d in engine.enumerate_from(0)]
    ranked = [(d.choices, expansion.text(d)) for d in map(engine.unrank, range(expansion.total))]
    assert found == ranked
    for start in (1, expansion.total // 2, expansion.total - 1):
        tail = [(d.choices, expansion.text(d)) for d in engine.enumerate_from(start)]
        assert tail == ranked[start:]


def test_a_rule_naming_thousands_of_symbols_enumerates():
    # enumeration once nested a generator per symbol of a rule: past about 1,000, Python's
    # recursion limit (a fuzzed Tracery spec, `sample --distinct`: exit 3)
    symbols = {"a": (Rule("x"), Rule("y")), "z": (Rule("z"),), "b": (Rule("#z#" * 3000),)}
    expansion = Expansion(symbols, "#a##b#", depth=4)
    texts = [expansion.text(d) for d in expansion.engine.enumerate_from(0)]
    assert texts == [first + "z" * 3000 for first in "xy"]


def test_no_repeat_matches_brute_force():
    grammar = {"c": ["a", "b", "c"]}
    origin = "#c##c##c##c#"
    expected = list(enumerate_derivations(grammar, origin, 6, no_repeat={"c"}))
    symbols = {"c": tuple(Rule(r) for r in grammar["c"])}
    expansion = Expansion(symbols, origin, no_repeat=frozenset({"c"}))
    # 3! orders of the first three, then the deck refills: 6 * 3
    assert expansion.total == len(expected) == 18
    assert [expansion.at(r) for r in range(18)] == [t for _, t in expected]


def test_recursion_is_reported_with_counts_by_depth():
    # s -> a | (s s): derivations up to depth d satisfy c(d) = 1 + c(d-1)^2, c(1) = 1
    counts = [_expansion("recursive", depth).total for depth in range(1, 6)]
    assert counts == [1, 2, 5, 26, 677]
    expansion = _expansion("recursive", 5)
    assert not expansion.finite
    assert expansion.recursive_symbols == ["s"]


def test_the_test_page_story_has_the_count_worked_out_by_hand():
    # 3 pronoun sets x 9 names x (baker: 5 x 5 deeds + warrior: 9^4 pushed monsters x 4 x 4)
    grammar = json.loads((DATA / "test-page-grammar.json").read_text("utf-8"))
    symbols = {k: tuple(Rule(r) for r in v) for k, v in grammar.items()}
    expansion = Expansion(symbols, "#origin#")
    assert expansion.total == 3 * 9 * (5 * 5 + 9**4 * 4 * 4) == 2_835_027
    assert expansion.finite


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2_835_026))
def test_rank_of_unrank_is_the_identity_on_the_test_page_story(rank):
    grammar = json.loads((DATA / "test-page-grammar.json").read_text("utf-8"))
    symbols = {k: tuple(Rule(r) for r in v) for k, v in grammar.items()}
    engine = Expansion(symbols, "#origin#").engine
    assert engine.rank(engine.unrank(rank).choices) == rank
