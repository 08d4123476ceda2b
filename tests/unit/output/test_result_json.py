"""result.json's own check when a build writes it: every field, and a long list's ends."""

from __future__ import annotations

import json

import pytest

from epcg_spec.core.errors import EpcgError
from epcg_spec.output import result

FIELDS = {
    "spec": "s", "kind": "sudoku", "backend": "propagate", "version": "0", "seed": 0,
    "space_size": None, "evaluated": 1, "count": 1, "seconds": 0.5,
}  # fmt: skip


def _best(n: int) -> list[dict]:
    return [{"rank": i, "score": None, "state": {"i": i}} for i in range(n)]


def test_the_text_holds_every_element_though_only_the_ends_are_checked(monkeypatch):
    checked = []
    validate = result.validate_data
    monkeypatch.setattr(result, "validate_data", lambda v, s: checked.append(v) or validate(v, s))
    n = 2 * result.SELF_CHECKED + 5
    text = result.result_json({**FIELDS, "best": _best(n)})
    assert json.loads(text)["best"] == _best(n)
    ranks = [entry["rank"] for entry in checked[0]["best"]]
    expected = [*range(result.SELF_CHECKED), *range(n - result.SELF_CHECKED, n)]
    assert ranks == expected


@pytest.mark.parametrize("at", [0, -1])
def test_a_bad_first_or_last_element_is_an_internal_error(at):
    best = _best(3 * result.SELF_CHECKED)
    best[at]["rank"] = "one"
    with pytest.raises(EpcgError, match=r"internal error: result\.json does not match"):
        result.result_json({**FIELDS, "best": best})


def test_a_short_list_is_checked_whole():
    best = _best(2 * result.SELF_CHECKED)
    best[result.SELF_CHECKED]["rank"] = -1
    with pytest.raises(EpcgError, match="internal error"):
        result.result_json({**FIELDS, "best": best})


def test_the_error_names_a_bad_last_element_by_its_own_index():
    """The check reads a sample of the list; its message named the sample's index (199 of
    200), not the element's in result.json."""
    n = 3 * result.SELF_CHECKED
    best = _best(n)
    best[-1]["rank"] = "one"
    with pytest.raises(EpcgError, match=rf"best\[{n - 1}\]\.rank"):
        result.result_json({**FIELDS, "best": best})
