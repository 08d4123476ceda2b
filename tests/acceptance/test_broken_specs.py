"""Every broken spec yields exactly its one located line, exit 1, no traceback, no files."""

from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from epcg_spec.compile.registry import kinds

BROKEN = Path(__file__).parent / "broken"

EXPECTED = {
    "bad-enum.yaml": (
        "2:15: space.type is \"permutaton\", which is not allowed; did you mean 'permutation'? (one of: combination, permutation, k-permutation, multiset, power, radix, product)"
    ),
    "dsl-missing-colon.epcg": ("3:8: unexpected 'permutation'; expected ':' after the key"),
    "dsl-unquoted-name.epcg": (
        '2:14: a new key seems to begin here, ending the value before it; quote text that is not an expression, e.g. "sudoku-4x4"'
    ),
    "dsl-operator.epcg": ("3:28: unexpected '&&'; write 'and'"),
    "dsl-unclosed.epcg": ("4:34: unexpected ','; the '(' at 4:6 is not closed"),
    "list-in-expression.yaml": (
        "4:14: unexpected '['; expressions have no lists: aggregate over a comprehension, e.g. distinct(x[i] for i in range(n))"
    ),
    "yaml-boolean-name.yaml": (
        '4:19: objects[0].states[1] must be a string or an integer or a mapping, not false; YAML reads an unquoted off, no or false as false: write it in quotes ("off")'
    ),
    "duplicate-key.yaml": (
        "3:1: duplicate key 'space' (first defined at line 2); keep one of them"
    ),
    "expression-syntax.yaml": (
        "4:10: unexpected '='; write '==' to compare, or ':' between a key and its value"
    ),
    "index-out-of-range.yaml": ("5:11: index 6 is out of range for q (positions 0..5) when i = 5"),
    "int64-literal.yaml": (
        "4:12: this value is about 1.00e+20 (20 digits), beyond the 64-bit integers kernels compute with (where it would wrap around); keep it within +-9.2e18"
    ),
    "int64-overflow.yaml": (
        "5:5: this value can be 0..9223372036854775808, beyond the 64-bit integers kernels compute with (where it would wrap around); keep it within +-9.2e18"
    ),
    "missing-kind.yaml": ("1:1: the spec has no 'kind'; add 'kind: ...', one of: {kinds}"),
    "missing-required.yaml": ("3:3: space is missing the required key 'k'"),
    "not-a-condition.yaml": ("5:11: this is an integer, but a condition is needed here"),
    "out-of-range-value.yaml": ("4:8: search.top is -1, out of range: it must be >= 0"),
    "param-in-size.yaml": ("3:37: unknown name 'm' (known names: n)"),
    "power-base-zero.yaml": (
        "2:28: a power space needs base >= 1, got 0; the values are 0..base-1"
    ),
    "range-reads-state.yaml": ("4:33: a range bound must not read the state"),
    "tab-indent.yaml": (
        "4:1: YAML syntax error: a tab in the indentation; YAML indents with spaces only"
    ),
    "too-large.yaml": (
        "2:8: permutation 21! has 51,090,942,171,709,440,000 states (about 2**65), more than the 2**63 - 1 that 64-bit ranks can address; make it smaller, or take its first position out of the space as a param (params: {head: 0}; a space one position shorter; head read where x[0] was) and build once per value, --param head=V (docs/kinds/space.md#a-space-too-large-for-64-bit-ranks)"
    ),
    "unclosed-flow.yaml": (
        "3:12: YAML syntax error: the '{' at 2:8 is not closed (or a ',' is missing before this)"
    ),
    "unknown-function.yaml": (
        "4:5: unknown function 'abss'; did you mean 'abs'? (functions: abs, all, any, count, distinct, len, max, min, sum)"
    ),
    "unknown-key.yaml": (
        "3:1: unknown key 'constraint' in the spec; did you mean 'constraints'? (valid keys: constraints, description, kind, name, objective, params, search, space)"
    ),
    "unknown-kind.yaml": ("1:7: unknown kind 'spaces'; did you mean 'space'? (kinds: {kinds})"),
    "unknown-name.yaml": ("5:9: unknown name 'p' (known names: i, n, q)"),
    "wrong-type.yaml": ('4:8: search.top must be an integer, not "ten"'),
    "quoted-number.yaml": ('2:6: box must be an integer, not "3"; write 3 without quotes'),
    "unquoted-expression.yaml": (
        """3:16: YAML syntax error: an expression inside [...] or {...} must be quoted (YAML reads the '[' of x[i] as a list); e.g. ["q[0] < q[1]"] or {maximize: "q[0] * 2"}"""
    ),
    "size-not-a-list.yaml": (
        '4:24: rooms[0].size must be an integer or a list, not "4x3"; width and height in cells, [w, h], or one number for a square (default 1)'
    ),
    "dsl-yaml-list.epcg": (
        "4:3: constraints must be a list, not \"- q[0] < q[1]\"; a list in the DSL is [a, b, ...]; '- item' lines are YAML's"
    ),
    "quoted-param.yaml": ('2:13: params.n must be an integer, not "5"; write 5 without quotes'),
    "misspelt-range.yaml": (
        "4:32: loops run over range(stop), range(start, stop[, step]); did you mean 'range', not 'rang'?"
    ),
    "all-different.yaml": (
        "4:5: unknown function 'all_different'; did you mean 'distinct'? (aggregates: all, any, count, distinct, max, min, sum)"
    ),
    "misspelt-required-key.yaml": (
        "2:18: unknown key 'heigth' in map; did you mean 'height'? (valid keys: blocked, height, width)"
    ),
    "unknown-key-in-a-mapping-form.yaml": (
        "6:5: unknown key 'posible' in types.town; did you mean 'possible'? (valid keys: always, children, inherit, name, possible, rare)"
    ),
    "sudoku-too-many-clues.epcg": (
        "3:18: generate.clues is 20, but a 4 x 4 grid has 16 cells; choose 0..16"
    ),
    "sudoku-box-mismatch.yaml": (
        "3:9: the puzzle has 9 rows but box: 2 makes a 4 x 4 grid; give 4 rows of 4 cells or box: 3"
    ),
    "sudoku-float-box.yaml": ("3:6: box must be an integer, not 2.0"),
    "sudoku-duplicate-digit.yaml": (
        "5:11: the puzzle has two 5s in row 3 (r3c1 and r3c7); a digit appears once per row, column and box"
    ),
    "wfc-at-outside.yaml": (
        "7:10: at: [12, 3] lies outside the 10 x 8 grid; x is 0-9 and y is 0-7 (-1 is the last)"
    ),
    "objective-not-a-mapping.yaml": (
        '3:12: objective must be a mapping, not "maximize q[0]"; write {maximize: EXPR} or {minimize: EXPR}, or {python: MODULE:FUNCTION, sense: maximize|minimize}'
    ),
}


def _expected(name: str) -> str:
    """The expected line; messages that list the spec kinds list the registered ones."""
    return EXPECTED[name].replace("{kinds}", ", ".join(kinds()))


def test_the_corpus_has_an_expectation_for_every_file():
    assert sorted(EXPECTED) == sorted(p.name for p in BROKEN.iterdir())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_validate_reports_exactly_one_located_line(name, capsys):
    code = main(["validate", "--quiet", str(BROKEN / name)])
    out, err = capsys.readouterr()
    assert code == 1
    assert out.splitlines() == [f"{BROKEN / name}:{_expected(name)}"]
    assert "Traceback" not in out + err


@pytest.mark.parametrize(
    "name",
    [
        "unknown-name.yaml",
        "dsl-unclosed.epcg",
        "too-large.yaml",
        "sudoku-box-mismatch.yaml",
        "sudoku-duplicate-digit.yaml",
        "wfc-at-outside.yaml",
    ],
)
def test_build_of_a_broken_spec_writes_nothing(name, tmp_path, capsys):
    out_dir = tmp_path / "out"
    code = main(["build", str(BROKEN / name), "--out", str(out_dir)])
    _, err = capsys.readouterr()
    assert code == 1
    assert err.splitlines() == [f"{BROKEN / name}:{_expected(name)}"]
    assert not out_dir.exists()
