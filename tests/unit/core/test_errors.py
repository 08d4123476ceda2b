"""A problem is one line, whatever text of the spec its message quotes."""

from epcg_spec.cli.main import main
from epcg_spec.core.errors import Diagnostic, Pos


def test_line_breaks_in_a_message_are_written_as_escapes():
    quoted = "a\nb\rc\x0bd\x0ce\x1cf\x1dg\x1eh\x85i\u2028j\u2029k"
    line = str(Diagnostic(Pos("s.yaml", 3, 4), f"name is {quoted!s}", "hint"))
    assert line.splitlines() == [line]
    assert line == (
        "s.yaml:3:4: name is a\\nb\\rc\\vd\\fe\\x1cf\\x1dg\\x1eh\\x85i\\u2028j\\u2029k; hint"
    )


def test_a_nel_in_a_spec_name_is_one_located_line(tmp_path, capsys):
    """A mutant naming itself 's\\x85doku-4x4' made its one problem two lines."""
    spec = tmp_path / "s.epcg"
    spec.write_text('kind: sudoku\nname: "s\\u0085doku"\nbox: 2\n')
    assert main(["validate", str(spec)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines() == [out.rstrip("\n")]
    assert out.startswith(f"{spec}:2:7: name is ")


def test_a_usage_error_quoting_a_path_with_a_line_break_is_one_line(tmp_path, capsys):
    missing = tmp_path / "a\nb.yaml"
    assert main(["build", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [err.rstrip("\n")]
    assert err.startswith("usage error: ") and "a\\nb.yaml: no such file" in err
