"""jsontext.dumps against the format spelled out plainly, on values of every shape."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from epcg_spec.output.jsontext import dumps
from tests.oracles.jsontext_oracle import pretty

TEXT = st.text(st.sampled_from(list('ab, "\\\n\u00e9\u4e2d')), max_size=30)
SCALARS = st.none() | st.booleans() | st.integers(-(10**80), 10**80) | TEXT
SCALARS |= st.floats(allow_nan=False, allow_infinity=False)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=40) | st.dictionaries(TEXT, inner, max_size=8),
    max_leaves=120,
)


@settings(max_examples=150, deadline=None)
@given(VALUES)
def test_dumps_writes_the_format_and_reads_back(value):
    text = dumps(value)
    assert text == pretty(value)
    assert json.loads(text) == value


def test_a_list_of_strings_holding_the_separator_is_written_one_by_one():
    value = {"rows": ["a, b"] * 12 + ["c"] * 12}
    assert dumps(value) == pretty(value)
    assert dumps(value).count("\n") == 24 + 3
