"""jsonschema-rs's check (the fast path) and jsonschema's (the reference) give the same
verdict and the same diagnostics: for every spec of the repository, for mutated copies of
the shipped ones, and for the values where the two libraries differ (a float with an
integer value, tuples, keys that are not strings, integers beyond 64 bits)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from epcg_spec.core.errors import SpecError, UsageError
from epcg_spec.spec import schema
from epcg_spec.spec.load import domain_of, parse_document
from tests.fuzz.spec_mutator import mutate_once, shipped_specs

ROOT = Path(__file__).resolve().parents[3]
SPECS = shipped_specs()
TEST_FILES = sorted(
    p for suffix in ("yaml", "yml", "json", "epcg") for p in ROOT.glob(f"tests/**/*.{suffix}")
)
MUTANTS = 900


def _both(text: str, path: Path, monkeypatch) -> tuple | None:
    """(fast verdict, fast diagnostics, reference diagnostics), None if `text` is no spec."""
    try:
        doc = parse_document(text, path)
        name = domain_of(doc).schema
    except (SpecError, UsageError):
        return None
    fast = [str(d) for d in schema.validate(doc, name)]
    with monkeypatch.context() as patch:
        patch.setattr(schema, "fast_accepts", lambda data, name: False)
        reference = [str(d) for d in schema.validate(doc, name)]
    return schema.fast_accepts(doc.data, name), fast, reference


def _disagreement(outcome: tuple | None) -> str:
    """What is wrong with one outcome of `_both`, or ''."""
    if outcome is None:
        return ""
    accepted, fast, reference = outcome
    if fast != reference:
        return f"diagnostics differ: {fast[:3]} | {reference[:3]}"
    if accepted and reference:
        return f"the fast check accepts what jsonschema refuses: {reference[:3]}"
    return ""


@pytest.mark.parametrize("path", SPECS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_spec_passes_the_fast_check(path, monkeypatch):
    accepted, fast, reference = _both(path.read_text(encoding="utf-8"), path, monkeypatch)
    assert accepted
    assert fast == reference == []


def test_every_spec_under_tests_gets_the_same_diagnostics(monkeypatch):
    outcomes = {p: _both(p.read_text(errors="replace"), p, monkeypatch) for p in TEST_FILES}
    specs = {p: o for p, o in outcomes.items() if o is not None}
    refused = [p for p, (_, _, reference) in specs.items() if reference]
    assert len(specs) >= 30 and len(refused) >= 10  # the broken corpus, the regressions
    differ = {p: _disagreement(o) for p, o in specs.items()}
    assert not any(differ.values()), {str(p): d for p, d in differ.items() if d}


def test_mutated_specs_get_the_same_diagnostics(monkeypatch):
    rng = random.Random(3)
    checked = refused = 0
    differ = []
    for i in range(MUTANTS):
        path = SPECS[i % len(SPECS)]
        text = path.read_text(encoding="utf-8")
        for _ in range(rng.choice((1, 2, 3))):
            text = mutate_once(text, path.suffix, rng)
        outcome = _both(text, path, monkeypatch)
        checked += outcome is not None
        refused += outcome is not None and bool(outcome[2])
        if _disagreement(outcome):
            differ.append(f"{path.name} #{i}: {_disagreement(outcome)}")
    assert not differ, "\n".join(differ[:5])
    assert checked >= MUTANTS // 5 and refused >= 50  # the mutants reach the schema check


TRACERY = {"kind": "tracery", "grammar": {"origin": "hello"}}


@pytest.mark.parametrize(
    ("data", "valid"),
    [
        (TRACERY, True),
        ({**TRACERY, "depth": 2}, True),
        ({**TRACERY, "depth": 2.0}, False),  # jsonschema-rs alone would take it
        ({**TRACERY, "depth": 2.5}, False),
        ({**TRACERY, "depth": True}, False),
        ({**TRACERY, "seed": 2**63 - 1}, True),
        ({**TRACERY, "seed": 2**63}, False),
        ({**TRACERY, "seed": 10**40}, False),
        ({**TRACERY, "seed": -(10**40)}, False),
        ({**TRACERY, "seed": float("nan")}, False),
        ({**TRACERY, "description": float("inf")}, False),
        ({**TRACERY, "grammar": {"origin": ("a", "b")}}, False),  # a tuple is no JSON list
        ({**TRACERY, "grammar": {1: "a"}}, True),  # jsonschema-rs cannot convert it
        ({**TRACERY, "name": "tavern\n"}, True),  # Python's `$` matches before a last newline
    ],
)
def test_values_the_libraries_see_differently_get_jsonschemas_verdict(data, valid, monkeypatch):
    fast = schema.validate_data(data, "tracery.schema.json")
    with monkeypatch.context() as patch:
        patch.setattr(schema, "fast_accepts", lambda data, name: False)
        reference = schema.validate_data(data, "tracery.schema.json")
    assert fast == reference
    assert (reference == []) == valid
    assert not (schema.fast_accepts(data, "tracery.schema.json") and reference)
