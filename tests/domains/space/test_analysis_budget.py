"""The analysis budget bounds each expression, not the spec: many small constraints load,
and one expression too large to analyse is still refused at its line."""

import pytest

from epcg_spec.core.errors import SpecError
from epcg_spec.spec.expr import analysis
from epcg_spec.spec.load import load_spec

SPEC = "kind: space\nname: many\nspace: {type: power, base: 3, k: 4, name: q}\nconstraints:\n"


def _load(tmp_path, constraints: list[str]):
    path = tmp_path / "many.yaml"
    path.write_text(SPEC + "".join(f'  - "{c}"\n' for c in constraints))
    return load_spec(path, {}).spec


def test_many_small_constraints_share_no_budget(tmp_path, monkeypatch):
    """With one budget for the spec, a spec of 20,000 such constraints failed from its
    16,671st on, each said to have 'too many terms'."""
    monkeypatch.setattr(analysis, "BUDGET", 40)
    spec = _load(tmp_path, [f"q[{i % 4}] + {i} >= {i}" for i in range(60)])
    assert len(spec.constraints) == 60
    usable = spec.pruning.usable
    assert usable[0] == "yes: terms checked from depth 1 of 4"
    assert usable[58] == "yes: terms checked from depth 3 of 4"
    assert usable[59] == "no: it reads the whole state (checked at depth 4)"


def test_one_expression_beyond_the_budget_is_refused_at_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(analysis, "BUDGET", 40)
    with pytest.raises(SpecError, match="too many terms to analyse") as error:
        _load(tmp_path, ["q[0] >= 0", "all(q[i % 4] >= 0 for i in range(100))"])
    assert error.value.diagnostics[0].pos.line == 6


def test_the_steps_of_every_expression_together_are_bounded(tmp_path, monkeypatch):
    """200 expressions each just over the budget took 25 s to refuse (a 9 KB spec): past
    SPEC_BUDGET steps in all, each expression left is refused at its first step."""
    monkeypatch.setattr(analysis, "BUDGET", 40)
    monkeypatch.setattr(analysis, "SPEC_BUDGET", 400)
    with pytest.raises(SpecError) as error:
        _load(tmp_path, ["all(q[i % 4] >= 0 for i in range(100))"] * 30)
    messages = [d.message for d in error.value.diagnostics]
    alone = "this expression has too many terms to analyse (over 40 steps)"
    together = "the spec's expressions have too many terms to analyse together (over 400 steps)"
    assert messages == [alone] * 10 + [together] * 20  # 10 x 40 steps, then past 400
