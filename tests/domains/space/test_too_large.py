"""A space too large for 64-bit ranks: the refusal says what to write, and that works.

The refusal said "split it into a product whose parts are enumerated separately", which a
product cannot do (its size is its factors' product). It now says to take the first
position out as a param and build once per value, pointing at the page's section, whose
spec is checked here: its parts' counts add up to the whole's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import epcg_spec

PAGE = Path(__file__).resolve().parents[3] / "docs" / "kinds" / "space.md"
SECTION = "a-space-too-large-for-64-bit-ranks"
WHOLE = """kind: space
space: {type: power, base: 3, k: K}
constraints:
  - all(not (x[i] == x[i + 1] == x[i + 2]) for i in range(K - 2))
"""


def _part() -> str:
    """The page's spec of one part (3^39 states, the other 39 positions)."""
    text = PAGE.read_text("utf-8")
    (spec,) = re.findall(r"```yaml\n(kind: space\nname: stripes-part\n.*?)```", text, re.S)
    return spec


def test_the_refusal_points_at_the_section_that_shows_what_to_write():
    with pytest.raises(epcg_spec.SpecError) as caught:
        epcg_spec.loads(WHOLE.replace("K", "40"), name="stripes")
    (problem,) = caught.value.diagnostics
    assert problem.message.startswith("power 3^40 has 12,157,665,459,056,928,801 states")
    assert "take its first position out of the space as a param" in problem.hint
    assert problem.hint.endswith(f"(docs/kinds/space.md#{SECTION})")
    assert "\n## A space too large for 64-bit ranks\n" in PAGE.read_text("utf-8")
    assert epcg_spec.loads(_part()).space_size() == 3**39  # the part fits


def test_the_parts_counts_add_up_to_the_whole_spaces():
    """The page's part, cut down to 8 positions (and the whole to 9), for each head."""
    part = _part().replace("k: 39", "k: 8").replace("range(37)", "range(6)")
    whole = epcg_spec.loads(WHOLE.replace("K - 2", "7").replace("K", "9"))
    counts = [
        epcg_spec.loads(part, params={"head": head}).count(constrained=True).count
        for head in range(3)
    ]
    # a(n) = 2 a(n - 1) + 2 a(n - 2) from a(1) = 3, a(2) = 9: 10,032 strings of length 9
    assert whole.count(constrained=True).count == sum(counts) == 10_032
    assert counts == [10_032 // 3] * 3  # one third of them start with each symbol
