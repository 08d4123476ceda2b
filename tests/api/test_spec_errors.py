"""The messages of a bad spec, as `load` and `loads` raise them."""

from __future__ import annotations

import pytest

import epcg_spec

QUEENS_WITH = (
    "kind: space\nname: q\nspace: {{type: permutation, n: 4, name: q}}\nconstraints:\n{}\n"
)


@pytest.mark.parametrize(
    ("constraint", "message"),
    [  # the bracket was placed in the expression's own text: "the '(' at 1:9"
        (
            "  - distinct(q[i] + for i in range(4))",
            "<string>.yaml:5:25: unexpected 'i'; the '(' at 5:13 is not closed",
        ),
        (
            "  - q[0] < 1\n  - distinct((q[i] + 1 for i in range(4))",
            "<string>.yaml:6:24: unexpected 'for'; the '(' at 6:14 is not closed",
        ),
    ],
)
def test_an_unclosed_bracket_in_an_expression_is_placed_in_the_file(constraint, message):
    with pytest.raises(epcg_spec.SpecError) as caught:
        epcg_spec.loads(QUEENS_WITH.format(constraint))
    assert str(caught.value) == message
