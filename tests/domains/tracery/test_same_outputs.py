"""The samplers give, for the same seeds, the outputs main gave before expansion compiled.

Each mode is checked twice: by the Python walk (one draw a call) and by the batches of
the compiled walks (`draws`, `locals`), which fall back to the Python walk where they
cannot serve (the grammar counted by text).

data/sampled-outputs.json was captured at commit d8f8e6f (before the compiled walks):
for each grammar below, 24 uniform draws with ranks (seed 7), 24 without (seed 8),
24 Tracery-style draws (SplitMix64(9, i)) and 12 draws by exact unranking
(SplitMix64(10, i)), from the streams' starts before they were finalised (`_captured`).
The grammars cover pushes and pops, weights, no_repeat, both compat modes, recursion cut
by the depth bound, dead ends (symbols with no rules), modifiers, and a grammar counted
by text (no fast sampler).
"""

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from epcg_spec.api import load
from epcg_spec.core.rng import SplitMix64, stream_state
from epcg_spec.domains.tracery.compile import Rule
from epcg_spec.domains.tracery.expansion import Expansion

ROOT = Path(__file__).parents[3]
DATA = Path(__file__).parent / "data"
CAPTURED = json.loads((DATA / "sampled-outputs.json").read_text("utf-8"))
DRAWS = 24


def _rules(symbols: dict[str, tuple[str, ...]]) -> dict[str, tuple[Rule, ...]]:
    return {k: tuple(Rule(r) for r in v) for k, v in symbols.items()}


def _spec(name: str) -> Expansion:
    return load(ROOT / "specs" / name)._problem().expansion()


TEST_PAGE = json.loads((DATA / "test-page-grammar.json").read_text("utf-8"))
BUILDERS = {
    "test-page": lambda: Expansion(_rules(TEST_PAGE), "#origin#"),
    "test-page-tracery2": lambda: Expansion(_rules(TEST_PAGE), "#origin#", compat=True),
    "heroes": lambda: _spec("tracery-heroes.yaml"),
    "tavern": lambda: _spec("tracery-tavern.json"),
    "weather": lambda: _spec("tracery-weather.epcg"),
    "skewed": lambda: Expansion(
        _rules(
            {
                "origin": ("#solo#", "[x:#a#,#b#]#x# #x#"),
                "solo": ("alone",),
                "a": ("a1", "a2"),
                "b": ("b1", "b2", "b3"),
            }
        ),
        "#origin#",
    ),
    "dead-ends": lambda: Expansion(
        _rules(
            {
                "origin": ("#t##s#", "#e#x", "#r#"),
                "t": ("[s:pushed]", ""),
                "s": (),
                "e": (),
                "r": ("r", "(#r#)", "#r.capitalize#!"),
            }
        ),
        "#origin#",
        depth=4,
    ),
    "modifiers": lambda: Expansion(
        _rules(
            {
                "origin": (
                    "#w.a# #w.s# #w.ed# #w.capitalizeAll# #p.firstS# #w.replace(a,o)#",
                    "[k:#w.s#,#p#]#k.capitalize# and #k.uppercase#",
                ),
                "w": ("apple", "play", "box", "cry", "unicorn"),
                "p": ("old road", "hill"),
            }
        ),
        "#origin#",
    ),
    "not-tame": lambda: Expansion(
        _rules({"origin": ("[x:#h#,#h#]#x# #x#",), "h": ("\\\\#a", "b", "c\\\\")}),
        "#origin#",
        compat=True,
    ),
}


def _captured(seed: int, stream: int) -> SplitMix64:
    """The stream the capture drew from: SplitMix64(seed, stream) started at its key, as
    before starts were finalised (the walks take any start; the outputs are what matter)."""
    rng = SplitMix64(seed, stream)
    rng.state = stream_state(seed, stream)
    return rng


@cache
def _expansion(name: str) -> Expansion:
    return BUILDERS[name]()


def test_every_grammar_was_captured():
    assert sorted(CAPTURED) == sorted(BUILDERS)


def _served(expansion: Expansion, found) -> list[list]:
    """The compiled walks' own answer (no fallback to the Python walk), as captured."""
    assert found is not None
    return [[rank, expansion.text(raw)] for rank, raw in found]


def test_the_compiled_walks_serve_every_tame_grammar():
    served = {name for name in BUILDERS if _expansion(name).walks is not None}
    assert served == set(BUILDERS) - {"not-tame"}
    for name in served:
        expansion, captured = _expansion(name), CAPTURED[name]
        assert _served(expansion, expansion.walks.uniform(7, range(DRAWS))) == captured["draw"]
        states = np.array([_captured(9, i).state for i in range(DRAWS)], np.uint64)
        assert _served(expansion, expansion.walks.tracery(states)) == captured["local"], name


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_uniform_draws_are_unchanged(name):
    expansion, captured = _expansion(name), CAPTURED[name]
    assert expansion.total == captured["total"]
    if expansion.sampler is None:  # counted by text: drawn by unranking from SplitMix64
        drawn = [list(expansion.uniform(_captured(7, i))) for i in range(DRAWS)]
        assert drawn == captured["draw"]
        unranked = [expansion.uniform(_captured(8, i))[1] for i in range(DRAWS)]
        assert unranked == captured["draw_unranked"]
        drawn = [list(expansion.draw(7, i)) for i in range(DRAWS)]
        assert drawn == [list(expansion.uniform(SplitMix64(7, i))) for i in range(DRAWS)]
        assert [list(d) for d in expansion.draws(7, range(DRAWS))] == drawn
        return
    assert [list(expansion.draw(7, i)) for i in range(DRAWS)] == captured["draw"]
    assert [list(d) for d in expansion.draws(7, range(DRAWS))] == captured["draw"]
    unranked = [expansion.draw(8, i, ranked=False)[1] for i in range(DRAWS)]
    assert unranked == captured["draw_unranked"]
    batch = expansion.draws(8, range(DRAWS), ranked=False)
    assert [text for _, text in batch] == captured["draw_unranked"]


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_tracery_style_draws_are_unchanged(name):
    expansion = _expansion(name)
    drawn = [list(expansion.local(_captured(9, i))) for i in range(DRAWS)]
    assert drawn == CAPTURED[name]["local"]
    walked = [list(expansion.local(SplitMix64(9, i))) for i in range(DRAWS)]
    assert [list(d) for d in expansion.locals(9, range(DRAWS))] == walked


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_draws_by_unranking_are_unchanged(name):
    expansion = _expansion(name)
    drawn = [list(expansion.uniform(_captured(10, i))) for i in range(DRAWS // 2)]
    assert drawn == CAPTURED[name]["uniform"]
