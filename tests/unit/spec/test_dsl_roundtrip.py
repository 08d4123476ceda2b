"""The DSL and YAML are two texts of one document model: conversion loses nothing."""

from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from epcg_spec.spec.dsl import dump_dsl, load_dsl
from epcg_spec.spec.load import load_document
from epcg_spec.spec.yaml_loader import load_yaml
from epcg_spec.spec.yaml_writer import dump_yaml

SPECS = sorted((Path(__file__).parents[3] / "specs").glob("*.*"))

scalars = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
    st.text(max_size=20),
    st.sampled_from(["x", "n-queens", "a + b", "f(x, y)", "q[i] < 3", "8", "true", "if", "#x#"]),
)
keys = st.one_of(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True), st.text(max_size=8))
documents = st.dictionaries(
    keys,
    st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
        max_leaves=12,
    ),
    min_size=1,  # a document of no keys is an empty file in the DSL, refused as in YAML
    max_size=6,
)


@given(documents)
@settings(max_examples=300, deadline=None)
def test_any_document_survives_the_dsl(document):
    assert load_dsl(dump_dsl(document), "gen.epcg").data == document


def test_every_example_spec_converts_both_ways_without_loss():
    for path in SPECS:
        original = load_document(path).data
        as_dsl = load_dsl(dump_dsl(original), "x.epcg").data
        as_yaml = load_yaml(dump_yaml(original), "x.yaml").data
        assert as_dsl == original, path
        assert as_yaml == original, path
        assert yaml.safe_load(dump_yaml(as_dsl)) == original, path


def test_inline_expressions_keep_their_exact_text_and_positions():
    text = "kind: space\nconstraints: [\n  all(q[i] != i\n      for i in range(n)),\n]\n"
    doc = load_dsl(text, "e.epcg")
    assert doc.data["constraints"] == ["all(q[i] != i\n      for i in range(n))"]
    offset = doc.data["constraints"][0].index("for")
    pos = doc.text_pos(("constraints", 0), offset)
    assert (pos.line, pos.col) == (4, 7)


def test_yaml_positions_point_at_values_keys_and_characters():
    doc = load_yaml("a:\n  bb: 'x + yy'\n  c: |\n    first\n    second z\n", "p.yaml")
    assert (doc.pos(("a", "bb")).line, doc.pos(("a", "bb")).col) == (2, 7)
    assert (doc.key_pos(("a", "c")).line, doc.key_pos(("a", "c")).col) == (3, 3)
    assert (doc.text_pos(("a", "bb"), 4).line, doc.text_pos(("a", "bb"), 4).col) == (2, 12)
    assert (doc.text_pos(("a", "c"), 13).line, doc.text_pos(("a", "c"), 13).col) == (5, 12)
