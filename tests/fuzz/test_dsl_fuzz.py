"""Text the grammar can produce never crashes the DSL loader: a document or a SpecError."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from epcg_spec.core.errors import SpecError
from epcg_spec.spec.dsl import dump_dsl, load_dsl
from epcg_spec.spec.grammar import parser


def _loads_and_round_trips(text: str) -> None:
    try:
        doc = load_dsl(text, "fuzz.epcg")
    except SpecError:
        return
    assert load_dsl(dump_dsl(doc.data), "again.epcg").data == doc.data


def _generated(examples: int):
    """The check on `examples` texts the grammar produces."""
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))(
        given(from_lark(parser(), start="document"))(_loads_and_round_trips)
    )


test_generated_dsl_loads_and_round_trips = _generated(100)  # about 3 s on 2 cores
test_a_large_run_of_generated_dsl = pytest.mark.slow(_generated(1000))


@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None)
def test_arbitrary_text_gives_a_document_or_a_located_error(text):
    try:
        load_dsl(text, "fuzz.epcg")
    except SpecError as exc:
        assert all(d.pos.line >= 1 and d.pos.col >= 1 for d in exc.diagnostics)
