"""Hostile specs: each is refused with located lines and exit 1, quickly, in bounded memory."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from epcg_spec.compile import registry
from epcg_spec.core.errors import SpecError
from epcg_spec.core.sizes import count_text
from epcg_spec.spec.yaml_loader import load_yaml

SPECS = Path(__file__).resolve().parents[3] / "specs"
LIMIT_S = 1.0  # CPU seconds per input, in process (the bound; load stretches wall time)


def _bomb(levels: int) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _spec(name: str, old: str, new: str) -> str:
    text = (SPECS / name).read_text("utf-8")
    assert text.count(old) == 1
    return text.replace(old, new)


def _validated(tmp_path: Path, capsys, name: str, old: str, new: str) -> tuple[Path, str]:
    """A shipped spec with `old` made `new`, validated in `tmp_path` (exit 1): its path, and
    what validate printed."""
    path = tmp_path / name
    path.write_text(_spec(name, old, new), "utf-8")
    assert main(["validate", "-q", str(path)]) == 1
    return path, capsys.readouterr().out


# (file name, text, how the first output line goes on after the file name)
CASES = {
    "billion-laughs": (
        "bomb.yaml",
        _bomb(9) + "kind: space\n",
        "4:45: aliases expand to more than 10,000 nodes",
    ),
    "recursive-alias": ("rec.yaml", "kind: space\nx: &r [1, *r]\n", "2:11: recursive alias"),
    "recursive-merge": ("merge.yaml", "kind: space\nx: &m {<<: *m}\n", "2:12: recursive alias"),
    "deep-yaml": ("deep.yaml", "x: " + "[" * 100_000 + "]" * 100_000, "1:68: nested more than 64"),
    "deep-block-yaml": (
        "block.yaml",
        "".join(f"{'  ' * i}k{i}:\n" for i in range(100)) + "  " * 100 + "v: 1\n",
        "64:127: nested more than 64",
    ),
    "nul": ("nul.yaml", "kind: space\nname: a\x00b\n", "2:8: NUL U+0000 is not allowed"),
    "escape": ("esc.yaml", "kind: space\n  \x1b[31m\n", "2:3: ESC U+001B is not allowed"),
    "bad-tag": ("tag.yaml", "kind: space\nn: !!int abc\n", "2:4: cannot read 'abc'"),
    "python-tag": (
        "py.yaml",
        "kind: space\nn: !!python/name:os.system x\n",
        "2:4: YAML syntax error: could not determine a constructor",
    ),
    "float-for-integer": (
        "float.yaml",
        _spec("n-queens.yaml", "  n: 8", "  n: 8.0"),
        "12:6: params.n must be an integer, not 8.0",
    ),
    "n-2147483648": (
        "big.yaml",
        _spec("n-queens.yaml", "  n: 8", "  n: 2147483648"),
        "15:6: space.n is 2,147,483,648, beyond",
    ),
    "n-10001": (
        "long.yaml",
        _spec("n-queens.yaml", "  n: 8", "  n: 10001"),
        "15:6: a state of 10,001 positions; at most 10,000",
    ),
    "n-2000-is-too-large-to-rank": (
        "n2000.yaml",
        _spec("n-queens.yaml", "  n: 8", "  n: 2000"),
        "14:3: permutation 2000! has about 3.32e+5735 (5,736 digits) states",
    ),
    "param-beyond-int64": (
        "param.yaml",
        _spec("n-queens.yaml", "  n: 8", "  n: 10000000000000000000000"),
        "12:6: params.n is 10000000000000000000000, out of range",
    ),
    "huge-power": (
        "pow.yaml",
        _spec("n-queens.yaml", "  n: n\n", "  n: 2 ** 2 ** 40\n"),
        "15:6: 2 ** 1099511627776 is far beyond 64-bit integers",
    ),
    "huge-range": (
        "range.yaml",
        _spec("langford.yaml", "range(2))", "range(10000000000000))"),
        "20:36: this expression has too many terms to analyse",
    ),
    "deep-dsl": (
        "deep.epcg",
        "kind: space\nx: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "2:68: brackets nested more than 64 deep",
    ),
    "deep-expression": (
        "chain.yaml",
        _spec("n-queens.yaml", "distinct(q[i] + i for i in range(n))", "-" * 1000 + "q[0] > 0"),
        "19:209: nested more than 200 levels deep",
    ),
    "wfc-overlapping-without-sample": (
        "wfc.yaml",
        _spec("wfc-maze.yaml", "sample: wfc-samples/samples/maze.png\n", ""),
        "5:8: the overlapping model learns its patterns from a sample, and none is given",
    ),
    "tracery-json-syntax": (
        "g.json",
        '{"origin": ["#a#"],\n "a": "x",}',
        "2:11: JSON syntax error",
    ),
    "tracery-json-deep": ("d.json", "[" * 100_000, "1:65: JSON nested more than 64 deep"),
    "flow-line-of-brackets": (  # the hint's regex backtracked over the line: 34 s
        "fl.yaml",
        "kind: space\nname: x\nspace: {type: power, base: 2\nselect: " + "[" * 100_000 + "\n",
        "4:7: YAML syntax error: the '{' at 3:8 is not closed",
    ),
    "dsl-integer-of-5000-digits": (  # Python reads at most 4,300: was exit 3
        "digits.epcg",
        "kind: space\nname: t\nparams { n: " + "9" * 5000 + " }\n",
        "3:13: an integer of 5,000 digits; a spec's numbers fit in 64 bits",
    ),
    "expression-integer-of-5000-digits": (
        "digits.yaml",
        _spec("n-queens.yaml", "distinct(q[i] + i for i in range(n))", "q[0] < " + "9" * 5000),
        "19:18: an integer of 5,000 digits",
    ),
    "dsl-float-past-the-largest": (  # read as infinity: was accepted
        "inf.epcg",
        "kind: wfc\nname: t\nweight: 1e999\n",
        "3:9: 1e999 is too large a number; the largest is about 1.8e308",
    ),
    "expression-float-past-the-largest": (  # `inf` in a kernel's source: was exit 3 at build
        "inf.yaml",
        _spec("n-queens.yaml", "distinct(q[i] + i for i in range(n))", "q[0] < -1e999"),
        "19:19: 1e999 is too large a number",
    ),
    "tracery-actions-nested-3000-deep": (  # read recursively: was exit 3
        "deep.yaml",
        "kind: tracery\ngrammar:\n  origin: '" + "[k:" * 3000 + "#a#" + "]" * 3000 + "'\n  a: x\n",
        "3:204: actions nested more than 64 deep ('[' inside '['); a grammar never needs this",
    ),
    "nested-name-actions-nested-3000-deep": (
        "deep.yaml",
        _spec(
            "nested-universe.yaml",
            '"#syllable.capitalize##syllable#", ',
            '"' + "[k:" * 3000 + '", ',
        ),
        "15:205: actions nested more than 64 deep",
    ),
    "rooms-2000": (  # 20,000: explain took 30 s, count asked for 3.7 GiB (exit 3)
        "rooms.yaml",
        json.dumps(
            {
                "kind": "rooms",
                "map": {"width": 200, "height": 200},
                "rooms": [{"name": "r0"}]
                + [{"name": f"r{i}", "parent": "r0"} for i in range(1, 2000)],
            }
        ),
        "1:66: rooms is too long: 2,000 items, at most 1,000",
    ),
    "name-of-300-characters": (  # the message quoted the whole value
        "name.yaml",
        _spec("n-queens.yaml", "name: n-queens", "name: " + "a" * 300),
        "3:7: name is too long: 300 characters, at most 100",
    ),
    "tracery-json-huge-number": ("n.json", '{"a": [1e999]}', "1:8: 1e999 is too large a number"),
    "tracery-json-rule-not-text": (
        "r.json",
        '{"origin": 5}',
        "1:12: grammar.origin must be a string",
    ),
}


@pytest.fixture(scope="module", autouse=True)
def _kinds_imported():
    """Every kind imported before a clock starts: a command imports the kind its spec names
    on first use (up to 0.1 s), which is start-up, not the reading of a hostile input."""
    for kind in registry.kinds():
        registry.domain(kind)


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_spec_is_one_located_line_exit_1_within_a_second(case, tmp_path, capsys):
    name, text, expected = CASES[case]
    path = tmp_path / name
    path.write_text(text, "utf-8")
    began = time.process_time()
    code = main(["validate", "-q", str(path)])
    seconds = time.process_time() - began
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out and all(re.match(rf"{re.escape(str(path))}:\d+:\d+: \S", line) for line in out)
    assert out[0].startswith(f"{path}:{expected}"), out[0]
    assert seconds < LIMIT_S, f"{case} took {seconds:.2f} s"


def test_aliases_within_the_budget_and_merges_still_load():
    doc = load_yaml("base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\nd: *b\nl: [*b, *b]\n", "ok.yaml")
    assert doc.data == {
        "base": {"x": 1, "y": 2},
        "c": {"x": 1, "y": 3},
        "d": {"x": 1, "y": 2},
        "l": [{"x": 1, "y": 2}, {"x": 1, "y": 2}],
    }
    assert doc.positions[("d",)] == (5, 4)  # where the alias is written, not its anchor
    assert doc.positions[("c", "y")] == (4, 6)


def test_a_bomb_just_over_the_budget_fails_and_just_under_loads():
    under = "a: &a [" + ", ".join(["x"] * 99) + "]\nb: [" + ", ".join(["*a"] * 99) + "]\n"
    assert len(load_yaml(under, "under.yaml").data["b"]) == 99  # 99 x 100 = 9,900 nodes
    over = under.replace("b: [", "b: [*a, *a, ")
    with pytest.raises(SpecError, match="more than 10,000 nodes"):
        load_yaml(over, "over.yaml")


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0"),
        (10**15 - 1, "999,999,999,999,999"),
        (10**15, "about 1.00e+15 (16 digits)"),
        (10**100 - 1, "about 1.00e+100 (100 digits)"),
        (-(2**64), "about -1.84e+19 (20 digits)"),
        (7**12_000, "about 1.50e+10141 (10,142 digits)"),
    ],
    ids=["zero", "exact", "1e15", "100-nines", "negative", "7**12000"],
)
def test_count_text_is_exact_while_short_then_digits(n, text):
    assert count_text(n) == text


def test_count_text_of_a_12000_digit_number_is_instant():
    began = time.process_time()
    assert re.fullmatch(r"about \d\.\d\de\+\d+ \(12,000 digits\)", count_text(10**11_999 * 3))
    assert time.process_time() - began < 0.1


def _cubing_grammar(levels: int, depth: int) -> str:
    """A grammar whose count is cubed at each level: huge long before the depth bound."""
    grammar = {"origin": "#s0#", f"s{levels}": ["a", "b"]}
    for i in range(levels):
        grammar[f"s{i}"] = [f"#s{i + 1}##s{i + 1}##s{i + 1}#", *"cdefghijk"]
    return f"kind: tracery\nname: cubes\ndepth: {depth}\ngrammar: {json.dumps(grammar)}\n"


@pytest.mark.parametrize("command", ["explain", "count"])
def test_a_tracery_count_past_14000_bits_is_refused_quickly(command, tmp_path, capsys):
    path = tmp_path / "cubes.yaml"
    path.write_text(_cubing_grammar(40, 40), "utf-8")
    began = time.process_time()
    assert main([command, str(path)]) == 1
    assert time.process_time() - began < LIMIT_S
    assert f"{path}:4:1: the derivations number more than 2**14000" in capsys.readouterr().err


def test_a_tracery_count_of_thousands_of_digits_is_exact_in_json(tmp_path, capsys):
    path = tmp_path / "cubes.yaml"
    path.write_text(_cubing_grammar(6, 12), "utf-8")
    assert main(["count", "--json", str(path)]) == 0
    count = json.loads(capsys.readouterr().out)["count"]
    expected = 2
    for _ in range(6):
        expected = expected**3 + 9
    assert count == expected
    assert len(str(expected)) == 300
    assert main(["count", str(path)]) == 0
    assert "about 1.16e+299 (300 digits)" in capsys.readouterr().out


def test_a_samples_xml_whose_root_was_lost_is_located(tmp_path, capsys):
    text = (SPECS / "wfc-samples" / "samples.xml").read_text("utf-8")
    path = tmp_path / "samples.xml"
    path.write_text(text.replace("<samples>", "", 1).replace("</samples>", "", 1), "utf-8")
    assert main(["validate", "-q", str(path)]) == 1
    out = capsys.readouterr().out
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: ", out), out


def test_a_nested_count_past_1000_children_is_located(tmp_path, capsys):
    nested = tmp_path / "nested-dungeon.epcg"
    text = (SPECS / "nested-dungeon.epcg").read_text("utf-8")
    nested.write_text(text.replace("chest 0-1", "chest 0-9223372036854775808"))
    rooms = tmp_path / "rooms-dungeon.epcg"
    rooms.write_text((SPECS / "rooms-dungeon.epcg").read_text("utf-8"))
    for path in (nested, rooms):
        began = time.process_time()
        assert main(["validate", "-q", str(path)]) == 1
        assert time.process_time() - began < LIMIT_S
        out = capsys.readouterr().out
        assert out.startswith(f"{nested}:15:9: the count 0-9223372036854775808 is more than 1,000")


@pytest.mark.parametrize(
    "amount", ["room,3-{big}", "room,{big}%", "room,0.{big}%"], ids=["range", "chance", "fraction"]
)
def test_a_nested_amount_of_thousands_of_digits_is_located(amount, tmp_path, capsys):
    """Python reads no integer of over 4,300 digits: its own message was the located line."""
    big = f'"{amount.format(big="9" * 5000)}"'
    nested, out = _validated(tmp_path, capsys, "nested-dungeon.epcg", '"room,3-6"', big)
    assert re.match(
        rf"{re.escape(str(nested))}:\d+:\d+: '.{{20}}\.\.\..{{20}}' is longer than any count", out
    ), out
    assert len(out.splitlines()[0]) < len(str(nested)) + 160


@pytest.mark.parametrize("command", ["sample", "build"])
def test_a_path_index_of_thousands_of_digits_is_no_child(command, tmp_path, capsys):
    """A rooms spec's `at` (and nested's --at) of such an index was exit 3."""
    index = "9" * 5000
    (tmp_path / "nested-dungeon.epcg").write_text((SPECS / "nested-dungeon.epcg").read_text())
    at = f"dungeon/level[{index}]"
    rooms, out = _validated(tmp_path, capsys, "rooms-dungeon.epcg", "dungeon/level[0]", at)
    assert re.match(
        rf"{re.escape(str(rooms))}:\d+:\d+: .* dungeon has no child 'level\[9+\.\.\.9+\]'", out
    )
    nested = str(tmp_path / "nested-dungeon.epcg")
    argv = [command, nested, "--at", f"dungeon/level[{index}]", "--out", str(tmp_path / "out")]
    assert main(argv if command == "build" else argv[:4]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage error: --at 'dungeon/level[999") and len(err) < 500, err
    assert not (tmp_path / "out").exists()


NOT_READ_BY_INT = ["\u00b2", "9" * 5000]  # a digit to str.isdigit, not to int(); too many


@pytest.mark.parametrize("digits", NOT_READ_BY_INT, ids=["superscript", "5000-digits"])
@pytest.mark.parametrize(
    "spec,old,new",
    [
        ("ppg-levers.epcg", "lh: {name: Lever}", "lh: {name: Lever_T_DIGITS}"),
        ("wfc-voxel-terrain.yaml", "{left: air, right: air}", '{left: "air DIGITS", right: air}'),
    ],
)
def test_a_copy_or_variant_number_int_cannot_read_is_located(
    spec, old, new, digits, tmp_path, capsys
):
    """They were exit 3: str.isdigit took them, then int() refused them."""
    path, out = _validated(tmp_path, capsys, spec, old, new.replace("DIGITS", digits))
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: ", out), out


@pytest.mark.parametrize("digits", NOT_READ_BY_INT, ids=["superscript", "5000-digits"])
@pytest.mark.parametrize(
    "flag", ["--shard {}/4", "--shard 0/{}", "--scheduler local:{}", "--param n={}"]
)
def test_a_flag_number_int_cannot_read_is_a_short_usage_error(flag, digits, tmp_path, capsys):
    """They were exit 3 (--shard, --scheduler), or a usage line of 5,000 digits (--param)."""
    out = tmp_path / "out"
    argv = ["build", str(SPECS / "n-queens.yaml"), *flag.format(digits).split(), "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage error: ") and len(err) < 400 and err.count("\n") == 1, err
    assert not out.exists()


def test_a_rooms_tree_past_1000_elements_is_located(tmp_path, capsys):
    (tmp_path / "nested-dungeon.epcg").write_text(
        (SPECS / "nested-dungeon.epcg").read_text("utf-8").replace('"room,3-6"', '"room,900"')
    )
    rooms = tmp_path / "rooms-dungeon.epcg"
    rooms.write_text(
        (SPECS / "rooms-dungeon.epcg").read_text("utf-8").replace("depth: 2", "depth: 8")
    )
    began = time.process_time()
    assert main(["validate", "-q", str(rooms)]) == 1
    assert time.process_time() - began < LIMIT_S
    out = capsys.readouterr().out
    assert out.startswith(f"{rooms}:12:11: the tree holds more than 1,000 elements down to depth 8")


@pytest.mark.parametrize("name,text", [("a.yaml", ""), ("a.epcg", ""), ("b.epcg", "# only\n\n")])
def test_an_empty_spec_is_refused_in_either_syntax(name, text, tmp_path, capsys):
    """fmt printed `{}` for an empty DSL file, exit 0, where the YAML one was refused."""
    spec = tmp_path / name
    spec.write_text(text)
    assert main(["fmt", str(spec), "--to", "yaml"]) == 1
    assert capsys.readouterr().err == f"{spec}:1:1: the file is empty; write a spec mapping\n"


def test_thousands_of_unknown_names_among_thousands_are_checked_in_seconds(tmp_path, capsys):
    """Each unknown name was compared with every known one for its 'did you mean': 4,000
    of each took minutes. The hints stop once a budget of comparisons is spent."""
    grammar = {f"sym{i}": "x" for i in range(4000)}
    grammar["origin"] = "".join(f"#syn{i}#" for i in range(4000))
    path = tmp_path / "unknown.yaml"
    path.write_text(json.dumps({"kind": "tracery", "grammar": grammar}), "utf-8")
    began = time.process_time()
    assert main(["validate", "-q", str(path)]) == 0  # Tracery renders on: warnings
    seconds = time.process_time() - began
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4000
    assert out[0].endswith(
        "warning: no rule defines or pushes 'syn0', so it renders ((syn0)); did you mean 'sym0'?"
    )
    assert out[-1].endswith("so it renders ((syn3999))")  # past the budget: no hint
    assert seconds < 5 * LIMIT_S, f"took {seconds:.2f} s"


def test_a_message_lists_the_first_30_names_and_how_many(tmp_path, capsys):
    """Each line listed every tile: thousands of unknown tiles among thousands printed
    gigabytes."""
    tiles = [{"name": f"t{i}", "color": "#000000"} for i in range(100)]
    spec = {"kind": "wfc", "model": "tiled", "size": 4, "tiles": tiles}
    spec["neighbors"] = [{"left": "t5x", "right": "t1"}]
    path = tmp_path / "tiles.yaml"
    path.write_text(json.dumps(spec), "utf-8")
    assert main(["validate", "-q", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    listed = ", ".join(sorted(f"t{i}" for i in range(100))[:30])
    assert out == [
        f"{path}:1:3770: unknown tile 't5x'; did you mean 't5'? (tiles: {listed}, ... (100 in all))"
    ]


@pytest.mark.parametrize(
    "name", ["sudoku-4x4.epcg", "tracery-tavern.json", "tracery-weather.epcg", "n-queens.yaml"]
)
def test_a_byte_order_mark_is_read_as_yaml_reads_it(name, tmp_path, capsys):
    """Editors on Windows begin UTF-8 files with one: the DSL refused it as an unexpected
    character, JSON as a syntax error."""
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + (SPECS / name).read_bytes())
    assert main(["validate", "-q", str(path)]) == 0, capsys.readouterr().out


def test_a_byte_that_is_not_utf8_is_located(tmp_path, capsys):
    path = tmp_path / "latin1.epcg"
    text = (SPECS / "tracery-weather.epcg").read_text("utf-8")
    path.write_bytes(text.replace("light |", "lïght |").encode("latin-1"))
    assert main(["validate", "-q", str(path)]) == 1
    assert capsys.readouterr().out == (
        f"{path}:11:11: byte 0xEF is not UTF-8 text (invalid continuation byte); "
        "save the file as UTF-8\n"
    )


def test_a_cube_grid_past_one_vox_model_is_located(tmp_path, capsys):
    """Its build searched the whole world, then stopped writing the .vox: exit 3."""
    name = "wfc-voxel-terrain.yaml"
    path, out = _validated(tmp_path, capsys, name, "width: 16\n", "width: 257\n")
    assert out.startswith(
        f"{path}:11:8: a cube grid is written as a MagicaVoxel .vox, at most 256 voxels along "
        "each axis, not 257; give a width of at most 256"
    ), out
