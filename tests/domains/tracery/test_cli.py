"""The tracery kind through the command line: counts, ranks, builds, broken specs."""

import json
from pathlib import Path

import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.core.errors import UsageError

SPECS = Path(__file__).parents[3] / "specs"


def _json(capsys, argv):
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_count_of_the_heroes_spec(capsys):
    result = _json(capsys, ["count", str(SPECS / "tracery-heroes.yaml")])
    assert result["space_size"] == result["count"] == 2400


def test_recursive_grammar_is_infinite_with_a_count_up_to_the_depth(capsys):
    result = _json(capsys, ["count", str(SPECS / "tracery-weather.epcg")])
    assert result["infinite"] is True and result["space_size"] is None
    assert result["recursive_symbols"] == ["forecast"]
    assert result["count"] == 168_420


def test_negative_ranks_count_from_the_end(capsys):
    spec = str(SPECS / "tracery-tavern.json")
    last = _json(capsys, ["sample", spec, "--rank", "-1"])["best"][0]
    assert last["rank"] == 47
    assert last["state"] == "Hail, traveller! Tonight we have an apple tart and berry wines."
    assert main(["sample", spec, "--rank", "48"]) == 2


def test_build_is_the_same_for_any_sharding(tmp_path, capsys):
    spec = str(SPECS / "tracery-heroes.yaml")
    assert main(["build", spec, "--out", str(tmp_path / "one"), "-q"]) == 0
    whole = (tmp_path / "one" / "outputs.txt").read_text("utf-8")
    parts = []
    for i in range(3):
        folder = tmp_path / f"part{i}"
        assert main(["build", spec, "--out", str(folder), "--shard", f"{i}/3", "-q"]) == 0
        parts.append((folder / "outputs.txt").read_text("utf-8"))
    capsys.readouterr()
    assert "".join(parts) == whole and len(whole.splitlines()) == 12


def test_distinct_samples_are_distinct_outputs(capsys, tmp_path):
    spec = tmp_path / "twice.yaml"
    spec.write_text("kind: tracery\ngrammar: {origin: [a, a, b, '#x#'], x: [a, b]}\n", "utf-8")
    result = _json(capsys, ["sample", str(spec), "-n", "2", "--distinct"])
    assert sorted(s["state"] for s in result["best"]) == ["a", "b"]
    assert main(["sample", str(spec), "-n", "5", "--distinct"]) == 2  # only 2 there are
    assert "there are only 2 distinct outputs" in capsys.readouterr().err


def test_all_mode_writes_every_derivation_in_rank_order(tmp_path, capsys):
    spec = tmp_path / "all.yaml"
    spec.write_text(
        "kind: tracery\ngrammar: {origin: '#a##b#', a: [x, y], b: ['1', '2']}\n"
        "generate: {mode: all}\n",
        "utf-8",
    )
    assert main(["build", str(spec), "--out", str(tmp_path / "o"), "-q"]) == 0
    capsys.readouterr()
    assert (tmp_path / "o" / "outputs.txt").read_text("utf-8").split() == ["x1", "x2", "y1", "y2"]
    # nothing is drawn: a seed, once taken and ignored, is refused
    assert main(["build", str(spec), "--seed", "3", "--out", str(tmp_path / "s"), "-q"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "usage error: --seed is refused for `build` of this tracery spec: mode all writes every "
        "derivation in rank order: nothing is drawn\n"
    )
    assert not (tmp_path / "s").exists()


NO_DERIVATION = {
    "depth: 2\ngrammar: {origin: '#a#', a: '#b#', b: x}\n": "the shortest needs depth 3",
    "grammar: {origin: ['#origin#', '#a#'], a: '#origin#'}\n": "none ends within",
}


@pytest.mark.parametrize("mode", ["uniform", "tracery"])
@pytest.mark.parametrize("text", sorted(NO_DERIVATION))
def test_a_grammar_with_no_derivation_fails_on_one_line(text, mode, tmp_path, capsys):
    spec = tmp_path / "none.yaml"
    spec.write_text(f"kind: tracery\n{text}generate: {{mode: {mode}}}\n", "utf-8")
    out = tmp_path / "o"
    for argv in (["build", str(spec), "--out", str(out), "-q"], ["sample", str(spec)]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and NO_DERIVATION[text] in err, err
    assert not out.exists()


BROKEN = {
    "kind: tracery\ngrammar: {a: x}\nno_repeat: [b]\n": ("3:13: unknown symbol 'b' (symbols: a)"),
    "kind: tracery\ngrammar: {animal: x}\nstart: animl\n": (
        "3:8: unknown symbol 'animl'; did you mean 'animal'? (symbols: animal)"
    ),
    "kind: tracery\ngrammar: {a: x}\ngenerate: {mode: every}\n": (
        '3:18: generate.mode is "every", which is not allowed'
    ),
    "kind: tracery\ngrammar_file: nothing.json\n": ("2:15: no such grammar file"),
}


@pytest.mark.parametrize("text", sorted(BROKEN))
def test_broken_specs_give_one_located_line(text, tmp_path, capsys):
    spec = tmp_path / "broken.yaml"
    spec.write_text(text, "utf-8")
    assert main(["validate", "--quiet", str(spec)]) == 1
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1 and "Traceback" not in out + err
    assert out.startswith(f"{spec}:{BROKEN[text]}")


def test_a_json_syntax_error_points_into_the_grammar_file(tmp_path, capsys):
    grammar = tmp_path / "g.json"
    grammar.write_text('{\n "a": ["x",\n  "y" "z"]\n}\n', "utf-8")
    spec = tmp_path / "s.yaml"
    spec.write_text("kind: tracery\ngrammar_file: g.json\n", "utf-8")
    assert main(["validate", "--quiet", str(spec)]) == 1
    out = capsys.readouterr().out
    assert out.strip() == f"{grammar}:3:7: JSON syntax error: expected ']'"


def test_rule_problems_are_warnings_located_in_the_rule(tmp_path, capsys):
    spec = tmp_path / "w.yaml"
    spec.write_text('kind: tracery\ngrammar:\n  origin: "a #b"\n', "utf-8")
    result = _json(capsys, ["count", str(spec)])
    # at the '#' that opened the tag (it was at the rule's end)
    assert result["warnings"] == [f"{spec}:3:14: warning: unclosed tag: this '#' has no partner"]


def test_a_warning_after_a_tracery2_escape_is_located_at_its_name(tmp_path, capsys):
    """Tracery 2 drops some escapes: a section holding one was placed after the escape."""
    spec = tmp_path / "e.yaml"
    spec.write_text("kind: tracery\ncompat: tracery2\ngrammar:\n  origin: ['[p:\\[ #animl#]#p#']\n")
    result = _json(capsys, ["count", str(spec)])
    assert [w.split(": warning: ")[0] for w in result["warnings"]] == [f"{spec}:4:20"]


def test_problems_in_the_origin_are_warnings_too(tmp_path, capsys):
    spec = tmp_path / "o.yaml"
    spec.write_text('kind: tracery\norigin: "#a# and #a"\ngrammar:\n  a: [x, y]\n', "utf-8")
    result = _json(capsys, ["count", str(spec)])
    assert result["warnings"] == [f"{spec}:2:18: warning: unclosed tag: this '#' has no partner"]


def test_a_symbol_no_rule_defines_or_pushes_is_a_warning_with_a_near_name(tmp_path, capsys):
    spec = tmp_path / "t.yaml"
    grammar = (
        'kind: tracery\ngrammar:\n  origin: ["#hero# #[pet:cat]pet# #[x:#animl#]x#"]\n'
        "  heroes: [Ann]\n  animal: [owl]\n"
    )
    spec.write_text(grammar, "utf-8")
    result = _json(capsys, ["count", str(spec)])
    assert result["warnings"] == [
        f"{spec}:3:14: warning: no rule defines or pushes 'hero', so it renders ((hero)); "
        "did you mean 'heroes'?",
        f"{spec}:3:40: warning: no rule defines or pushes 'animl', so it renders ((animl)); "
        "did you mean 'animal'?",
    ]  # 'pet' and 'x' are pushed: no warning
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    assert "did you mean 'heroes'?" in capsys.readouterr().out


def test_an_unknown_modifier_is_a_warning_at_its_name_with_a_near_one(tmp_path, capsys):
    """Tracery 2 renders the text unmodified and appends ((.name)); so does the build, and
    the load says so, at the modifier, also in a pushed value and with parameters."""
    spec = tmp_path / "m.yaml"
    spec.write_text(
        "kind: tracery\ngenerate: {mode: all}\ngrammar:\n"
        '  origin: "#hero.capitalise# #[x:#hero.a.s#]x# #hero.zap(1,2)#"\n'
        "  hero: [owl]\n",
        "utf-8",
    )
    listing = (
        "modifiers: capitalize, capitalizeAll, a, s, ed, firstS, replace, uppercase, lowercase"
    )
    result = _json(capsys, ["count", str(spec)])
    assert result["warnings"] == [
        f"{spec}:4:18: warning: unknown modifier 'capitalise', so it renders ((.capitalise)) "
        f"after the unmodified text; did you mean 'capitalize'? ({listing})",
        f"{spec}:4:54: warning: unknown modifier 'zap', so it renders ((.zap)) after the "
        f"unmodified text; {listing}",
    ]  # 'a' and 's' in the pushed value are known
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    capsys.readouterr()
    outputs = (tmp_path / "out" / "outputs.txt").read_text("utf-8")
    assert outputs == "owl((.capitalise)) an owls owl((.zap))\n"


def test_warnings_inside_actions_are_located_at_the_name(tmp_path, capsys):
    """A tag's symbol after its actions, and a pushed value's tags, are located where
    they are written (they were at the tag's or the action's start)."""
    spec = tmp_path / "a.yaml"
    spec.write_text(
        'kind: tracery\ngrammar:\n  origin: "#[p:pa,#hero.capitalise#]heros# [q:#p.sx#]"\n'
        "  hero: [owl]\n",
        "utf-8",
    )
    assert main(["validate", "--quiet", str(spec)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": warning: ")[0] for line in lines] == [
        f"{spec}:3:25",  # capitalise
        f"{spec}:3:37",  # heros
        f"{spec}:3:50",  # sx
    ]
    assert [line.split("'")[1] for line in lines] == ["capitalise", "heros", "sx"]


def test_validate_prints_the_warnings_build_prints_and_exits_0(tmp_path, capsys):
    spec = tmp_path / "v.yaml"
    spec.write_text('kind: tracery\ngrammar:\n  origin: "#heros.capitalise#"\n  hero: [owl]\n')
    lines = [
        f"{spec}:3:13: warning: no rule defines or pushes 'heros', so it renders ((heros)); "
        "did you mean 'hero'?",
        f"{spec}:3:19: warning: unknown modifier 'capitalise', so it renders ((.capitalise)) "
        "after the unmodified text; did you mean 'capitalize'? (modifiers: capitalize, "
        "capitalizeAll, a, s, ed, firstS, replace, uppercase, lowercase)",
    ]
    assert main(["validate", str(spec)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == lines and err == "1 spec checked: 1 valid, 0 invalid\n"
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == [*lines, "v: 1 derivation (exact)"]
    assert main(["validate", str(spec), "--format", "github"]) == 0
    where = f"::warning file={str(spec).replace(':', '%3A')},line=3,col="
    assert capsys.readouterr().out.splitlines() == [
        f"{where}13::{lines[0].split(': ', 1)[1]}",
        f"{where}19::{lines[1].split(': ', 1)[1]}",
    ]
    assert main(["validate", str(spec), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["problems"], report["exit_code"]) == ([], 0)
    assert [(w["line"], w["col"], w["hint"]) for w in report["warnings"]] == [
        (3, 13, "did you mean 'hero'?"),
        (3, 19, lines[1].split("; ", 1)[1]),
    ]


def test_build_with_json_prints_the_warnings_only_in_the_result(tmp_path, capsys):
    spec = tmp_path / "j.yaml"
    spec.write_text('kind: tracery\ngrammar:\n  origin: "#x#"\n')
    result = _json(capsys, ["build", str(spec), "--out", str(tmp_path / "out"), "-q"])
    assert result["warnings"] == [
        f"{spec}:3:13: warning: no rule defines or pushes 'x', so it renders ((x))"
    ]


def test_origin_is_refused_for_other_kinds(capsys):
    assert main(["count", str(SPECS / "nested-universe.yaml"), "--origin", "#x#"]) == 2


def test_an_empty_origin_is_expanded_not_taken_for_the_specs(capsys):
    """--origin '' was the spec's origin (168,420 derivations): a flag ignored."""
    result = _json(capsys, ["count", str(SPECS / "tracery-weather.epcg"), "--origin", ""])
    assert (result["origin"], result["count"], result["infinite"]) == ("", 1, False)


def test_one_derivation_is_counted_in_the_singular(capsys):
    assert main(["count", str(SPECS / "tracery-weather.epcg"), "--origin", "plain text"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  1 derivation (exact)"


def test_a_build_summary_says_how_many_outputs_it_does_not_show(tmp_path, capsys):
    """The summary showed the first 5 of the heroes' 12 outputs and did not say so."""
    assert main(["build", str(SPECS / "tracery-heroes.yaml"), "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("  12 outputs (uniform) in ")
    outputs = (tmp_path / "outputs.txt").read_text("utf-8").splitlines()
    assert lines[2:8] == [*(f"  {text}" for text in outputs[:5]), "  ... 7 more in outputs.txt"]


HEROES_SYMBOLS = "symbols: story, tale, setHero, name, title, creature, place, verb"


@pytest.mark.parametrize(
    ("origin", "why"),
    [
        (
            "a #stroy# b",
            "'stroy' is no symbol of the grammar, nor pushed by an action it runs, so it "
            f"renders ((stroy)); did you mean 'story'? ({HEROES_SYMBOLS})",
        ),
        (  # set only by setHero's actions, which this origin does not run
            "#hero#",
            "'hero' is no symbol of the grammar, nor pushed by an action it runs, so it "
            f"renders ((hero)); {HEROES_SYMBOLS}",
        ),
        (
            "#place.capitalise#",
            "unknown modifier 'capitalise', so it renders ((.capitalise)) after the unmodified "
            "text; did you mean 'capitalize'? (modifiers: capitalize, capitalizeAll, a, s, ed, "
            "firstS, replace, uppercase, lowercase)",
        ),
        ("#place", "unclosed tag: this '#' has no partner"),
    ],
)
def test_an_origin_that_would_render_markup_is_refused(origin, why, tmp_path, capsys):
    """`--origin '#nope#'` printed "((nope))", exit 0, where the spec's own origin is warned of."""
    spec = str(SPECS / "tracery-heroes.yaml")
    for command in (["sample", spec], ["count", spec], ["build", spec, "--out", str(tmp_path)]):
        assert main([*command, "--origin", origin]) == 2
        assert capsys.readouterr().err == f"usage error: --origin {origin!r}: {why}\n"
    with pytest.raises(UsageError) as caught:
        epcg_spec.load(spec, options={"origin": origin}).sample()
    assert str(caught.value) == f"--origin {origin!r}: {why}"
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("origin", "first"), [("[x:#name#]#x#", "Ash"), ("#[#setHero#]hero#", "Ash")]
)
def test_an_origin_may_read_what_it_pushes(origin, first, capsys):
    assert (
        main(["sample", str(SPECS / "tracery-heroes.yaml"), "--origin", origin, "--rank", "0"]) == 0
    )
    assert capsys.readouterr().out.splitlines()[0].endswith(first)


def test_an_origin_of_actions_nested_3000_deep_is_refused(tmp_path, capsys):
    """Actions are read recursively, a level a bracket: such an --origin was exit 3."""
    origin = "[k:" * 3000 + "x" + "]" * 3000
    run = ["build", str(SPECS / "tracery-weather.epcg"), "--origin", origin]
    assert main([*run, "-q", "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == (
        "usage error: --origin: actions nested more than 64 deep ('[' inside '['); "
        "a grammar never needs this\n"
    )
    assert not (tmp_path / "out").exists()
