"""Nested element dictionaries: notations, inheritance, and browsing by path."""

import json
import time
import tracemalloc
from fractions import Fraction
from pathlib import Path

import pytest

import epcg_spec
from epcg_spec.cli.main import main
from epcg_spec.compile.options import NESTED_MAX_DEPTH
from epcg_spec.core.context import RunContext
from epcg_spec.domains.nested.generate import Universe
from epcg_spec.domains.nested.model import ChildRule
from epcg_spec.domains.nested.notation import compact, item, orteil
from epcg_spec.domains.nested.problem import NestedProblem, tree_levels
from epcg_spec.spec.load import load_spec

SPECS = Path(__file__).parents[3] / "specs"


def test_orteils_notations():
    assert orteil("moon") == ChildRule(("moon",), 1, 1)
    assert orteil("moon,3") == ChildRule(("moon",), 3, 3)
    assert orteil("moon,1-4") == ChildRule(("moon",), 1, 4)
    assert orteil("moon,20%") == ChildRule(("moon",), 1, 1, Fraction(1, 5))
    assert orteil(".planet") == "planet"


def test_our_short_form():
    rules, inherited, problems = compact(
        "always arm, hole; possible star 10-30; rare worm 5%; inherit x"
    )
    assert rules == [
        ChildRule(("arm",)),
        ChildRule(("hole",)),
        ChildRule(("star",), 10, 30),
        ChildRule(("worm",), 1, 1, Fraction(1, 20)),
    ]
    assert inherited == ["x"] and problems == []
    assert item("moon", "possible") == ChildRule(("moon",), 0, 1)
    assert compact("possible star 3-1, moon; often x") == (
        [ChildRule(("moon",), 0, 1)],
        [],
        [
            "the range 3-1 ends before it starts; write 1-3",
            "a clause starts with 'often'; start each with always, possible, rare or inherit",
        ],
    )


def _universe(seed=None):
    spec = load_spec(SPECS / "nested-universe.yaml").spec
    return Universe(spec, spec.seed if seed is None else seed)


def test_an_element_is_the_same_reached_by_path_or_by_walking_the_tree():
    walked = _universe()
    tree = walked.tree(walked.root(), 3)
    galaxy = tree["children"][1]["children"][2]
    direct = _universe()
    element = direct.at(galaxy["path"])
    assert element.name == galaxy["name"]
    assert [f"{t}[{i}]" for t, i in element.children] == [
        c["path"].rsplit("/", 1)[1] for c in galaxy["children"]
    ]
    # only the elements on the path were made: root, supercluster, galaxy
    assert direct.made == 3


def test_another_seed_gives_another_universe_and_the_same_seed_the_same():
    a, b, c = _universe(1), _universe(1), _universe(2)
    assert a.tree(a.root(), 2) == b.tree(b.root(), 2) != c.tree(c.root(), 2)


def _names(tree: dict) -> set[str]:
    return {tree["name"]}.union(*(_names(child) for child in tree.get("children", ())))


def test_neighbouring_seeds_name_their_elements_apart():
    # seeds 3, 4 and 5 once shared "Tortortor Spiral" at one path: each seed's streams
    # were the last seed's, one draw on
    named = [_names(u.tree(u.root(), 2)) for u in map(_universe, (3, 4, 5))]
    assert all(len(names) > 10 for names in named)
    assert named[0] & named[1] <= {"the observable universe"}
    assert named[1] & named[2] <= {"the observable universe"}


def test_inheritance_adds_the_other_types_children():
    spec = load_spec(SPECS / "nested-universe.yaml").spec
    assert spec.types["inhabitant"].children == spec.types["person"].children


def test_browse_from_the_command_line(tmp_path, capsys):
    spec = str(SPECS / "nested-universe.yaml")
    assert main(["sample", spec, "--at", "universe/supercluster[0]", "--depth", "0", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["path"] == "universe/supercluster[0]"
    assert main(["sample", spec, "--at", "universe/galaxy[0]"]) == 2
    assert "its children: supercluster[0]" in capsys.readouterr().err
    for command in (["sample"], ["build", "--out", str(tmp_path / "out")]):
        assert main([*command, spec, "--at", ""]) == 2  # was the root: a flag ignored
        assert capsys.readouterr().err == "usage error: --at '': give a path such as universe/...\n"
    assert not (tmp_path / "out").exists()


def test_a_long_outline_is_cut_short_saying_how_many_lines_are_left(tmp_path, capsys):
    out = tmp_path / "out"
    spec = str(SPECS / "nested-universe.yaml")
    assert main(["build", spec, "--out", str(out), "--depth", "3", "-q"]) == 0
    printed = capsys.readouterr().out.splitlines()
    outline = (out / "outline.txt").read_text("utf-8").splitlines()
    assert len(outline) > 25  # the outline is longer than a summary shows
    assert printed[1:24] == outline[:23]  # the first line says how many elements
    assert printed[24] == f"... {len(outline) + 1 - 24:,} lines more: see {out}/result.json"


def test_count_says_one_name_and_one_layout_in_the_singular(tmp_path, capsys):
    spec = tmp_path / "one.yaml"
    spec.write_text("kind: nested\nroot: a\ntypes:\n  a: {name: A, always: [b]}\n  b: {}\n")
    assert main(["count", str(spec)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  a: 1 name, 1 child layout",
        "  b: 1 name, 1 child layout",
    ]


@pytest.mark.parametrize(
    ("types", "says"),
    [
        ("  a: {always: [b]}\n  b: {possible: [c 1-3]}\n  c: {}\n", "finite, at most 2 levels"),
        ("  a: {always: [b]}\n  b: {possible: [b 0-2]}\n", "unbounded (recursion through b)"),
        ("  a: {}\n  b: {always: [b]}\n", "finite, at most 0 levels"),  # b is never reached
    ],
)
def test_count_says_whether_the_tree_is_finite(types, says, tmp_path, capsys):
    spec = tmp_path / "tree.yaml"
    spec.write_text(f"kind: nested\nroot: a\ntypes:\n{types}")
    assert main(["count", str(spec)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"tree: the tree is {says}")
    assert first.endswith("; per element type:")


BROKEN = {
    "kind: nested\nroot: a\ntypes:\n  a: 'always b'\n": "4:6: unknown element type 'b' (types: a)",
    "kind: nested\nroot: a\ntypes:\n  a: {children: ['.b']}\n  b: {children: ['.a']}\n": (
        "4:6: inheritance goes round in a circle: a -> b -> a"
    ),
    "kind: nested\nroot: a\ntypes:\n  a: 'sometimes a'\n": (
        "4:6: a clause starts with 'sometimes'; start each with always, possible, rare or inherit"
    ),
    "kind: nested\nroot: c\ntypes:\n  a: 'always a'\n": "2:7: unknown element type 'c' (types: a)",
    "kind: nested\nroot: a\ntypes:\n  a:\n    name: A\n    always: [a, bb]\n  b: 'always a'\n": (
        "6:17: unknown element type 'bb'; did you mean 'b'? (types: a, b)"
    ),
    "kind: nested\nroot: a\ntypes:\n  a:\n    name: A\n    possible: [a 0-1, a 6-3]\n": (
        "6:23: the range 6-3 ends before it starts; write 3-6"
    ),
    "kind: nested\nroot: a\ntypes:\n  a:\n    name: A\n    children: ['a,1', 'a,200%']\n": (
        "6:23: the chance 200% must be above 0% and at most 100%"
    ),
    # a symbol or modifier a name uses that no rule defines renders ((x)) in the name
    "kind: nested\nroot: a\ngrammar: {syllable: [ka]}\ntypes:\n  a: {name: '#sylable# Town'}\n": (
        "5:15: no rule defines or pushes 'sylable', so it renders ((sylable)); "
        "did you mean 'syllable'?"
    ),
    "kind: nested\nroot: a\ngrammar: {s: [ka]}\ntypes:\n"
    "  a: {name: [['#s#'], [' Town', '#t#']]}\n": (
        "5:35: no rule defines or pushes 't', so it renders ((t))"
    ),
    "kind: nested\nroot: a\ngrammar: {p: ['#s.capitalise#'], s: ka}\ntypes:\n"
    "  a: {name: '#p#'}\n": (
        "3:19: unknown modifier 'capitalise', so it renders ((.capitalise)) after the unmodified "
        "text; did you mean 'capitalize'? (modifiers: capitalize, capitalizeAll, a, s, ed, "
        "firstS, replace, uppercase, lowercase)"
    ),
    "kind: nested\nroot: a\ntypes:\n  a: {name: 'Room #1'}\n": (  # renders 'Room 1'
        "4:19: unclosed tag: this '#' has no partner"
    ),
}


@pytest.mark.parametrize("text", sorted(BROKEN))
def test_broken_specs_give_one_located_line(text, tmp_path, capsys):
    spec = tmp_path / "broken.yaml"
    spec.write_text(text, "utf-8")
    assert main(["validate", "--quiet", str(spec)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines() == [f"{spec}:{BROKEN[text]}"]


INDEPENDENT = {
    # a type's second bad entry, a bad clause, an unknown type and a circle: each was shown
    # only once the one before it was fixed
    "kind: nested\nroot: a\ntypes:\n  a:\n    always: [b 5-2, c]\n    rare: [b 0%]\n"
    "  b: 'inherit c'\n  c: 'inherit b; sometimes d'\n  d: {children: ['.e']}\n": [
        "5:14: the range 5-2 ends before it starts; write 2-5",
        "6:12: the chance 0% must be above 0% and at most 100%",
        "7:6: inheritance goes round in a circle: b -> c -> b",
        "8:6: a clause starts with 'sometimes'; start each with always, possible, rare or inherit",
        "9:18: unknown element type 'e' (types: a, b, c, d)",
    ],
    # two circles and a symbol no rule defines
    "kind: nested\nroot: a\ntypes:\n  a: {inherit: [b]}\n  b: {inherit: [a]}\n"
    "  c: {inherit: [d]}\n  d: {inherit: [c], name: '#x#'}\n": [
        "4:6: inheritance goes round in a circle: a -> b -> a",
        "6:6: inheritance goes round in a circle: c -> d -> c",
        "7:29: no rule defines or pushes 'x', so it renders ((x))",
    ],
    # an unknown root, a misspelt symbol, a bad range and an unknown type, in the file's order
    "kind: nested\nroot: univers\ngrammar: {syllable: [ka]}\ntypes:\n  universe:\n"
    "    name: '#sylable#'\n    always: [galaxy 5-2]\n  galaxy: {possible: [star 1-3]}\n": [
        "2:7: unknown element type 'univers'; did you mean 'universe'? (types: universe, galaxy)",
        "6:13: no rule defines or pushes 'sylable', so it renders ((sylable)); did you mean "
        "'syllable'?",
        "7:14: the range 5-2 ends before it starts; write 2-5",
        "8:23: unknown element type 'star' (types: universe, galaxy)",
    ],
}


@pytest.mark.parametrize("text", list(INDEPENDENT), ids=range(len(INDEPENDENT)))
def test_independent_mistakes_are_all_reported_at_once(text, tmp_path, capsys):
    spec = tmp_path / "broken.yaml"
    spec.write_text(text, "utf-8")
    assert main(["validate", "--quiet", str(spec)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"{spec}:{at}" for at in INDEPENDENT[text]]


def test_an_unknown_symbol_in_a_name_is_an_error_and_nothing_is_written(tmp_path, capsys):
    spec = tmp_path / "names.epcg"
    spec.write_text(
        "kind: nested\nroot: a\ngrammar {\n  s -> ka | lo\n}\n"
        'types {\n  a { name: "the #s# and #sx#" }\n}\n',
        "utf-8",
    )
    out = tmp_path / "out"
    assert main(["build", str(spec), "--out", str(out), "-q"]) == 1
    assert capsys.readouterr().err == (
        f"{spec}:7:27: no rule defines or pushes 'sx', so it renders ((sx)); did you mean 's'?\n"
    )
    assert not out.exists()


def test_a_symbol_a_name_pushes_is_known(tmp_path, capsys):
    spec = tmp_path / "pushed.yaml"
    spec.write_text(
        "kind: nested\nroot: a\ngrammar: {s: ka}\ntypes:\n"
        "  a: {name: '[n:#s#]#n.capitalize# of #n#'}\n",
        "utf-8",
    )
    assert main(["sample", str(spec)]) == 0
    assert capsys.readouterr().out == "a: Ka of ka\n"


def test_names_with_no_derivation_are_a_located_error_not_a_crash(tmp_path, capsys):
    """A name that only recurses was a ValueError from the random stream (exit 3)."""
    spec = tmp_path / "loop.yaml"
    spec.write_text("kind: nested\nroot: a\ngrammar: {x: '#x#'}\ntypes:\n  a: {name: '#x#'}\n")
    out = tmp_path / "out"
    for argv in (["build", str(spec), "--out", str(out), "-q"], ["sample", str(spec)]):
        assert main(argv) == 1
        assert capsys.readouterr().err == (
            f"{spec}:5:7: the names of type 'a' have no derivation within 12 nested "
            "expansions: give each recursive symbol they use a rule that ends sooner\n"
        )
    assert not out.exists()


def test_depth_is_bounded_as_the_schema_bounds_it(tmp_path, capsys):
    """A chain of one type nests as deep as --depth asks; past the schema's bound of 32 the
    flag is refused on one line, as a deeper tree nests past Python's and JSON's limits."""
    schema = json.loads((SPECS.parent / "schemas" / "nested.schema.json").read_text())
    assert schema["properties"]["depth"]["maximum"] == NESTED_MAX_DEPTH == 32
    spec = tmp_path / "chain.yaml"
    spec.write_text("kind: nested\nname: chain\nroot: a\ntypes:\n  a: 'always a'\n")
    out = tmp_path / "out"
    assert main(["build", str(spec), "--depth", "32", "--out", str(out), "-q"]) == 0
    tree = json.loads((out / "tree.json").read_text())
    for _ in range(32):
        (tree,) = tree["children"]
    assert "children" not in tree or tree["children"] == []
    capsys.readouterr()
    assert main(["build", str(spec), "--depth", "33", "--out", str(out), "-q"]) == 2
    assert "0<=x<=32" in capsys.readouterr().err


def test_the_estimate_is_a_lower_bound_within_a_factor_of_three(tmp_path):
    # 10,051 nameless elements: the smallest there are. The estimate was once 8 times under
    # the memory a build took, and let a build of a large tree run out of memory
    spec = tmp_path / "wide.yaml"
    spec.write_text(
        "kind: nested\nroot: a\ndepth: 2\ntypes:\n  a: {always: [b 50]}\n"
        "  b: {always: [c 200]}\n  c: {}\n"
    )
    estimate = NestedProblem(load_spec(spec).spec).estimate(RunContext())
    epcg_spec.load(str(spec)).build(out=str(tmp_path / "first"))  # imports left out
    tracemalloc.start()
    try:
        epcg_spec.load(str(spec)).build(out=str(tmp_path / "out"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    written = sum(f.stat().st_size for f in (tmp_path / "out").iterdir())
    assert estimate.memory <= peak <= 3 * estimate.memory
    assert estimate.disk <= written <= 3 * estimate.disk


def _chain(tmp_path, links: int, inherit: str) -> Path:
    """A spec of types t0 ... tN, each inheriting the next as `inherit` says ({n}: the next)."""
    types = [f"  t{i}: {{inherit: {inherit.format(n=f't{i + 1}')}}}" for i in range(links)]
    text = "\n".join(["kind: nested", "root: t0", "types:", *types, f"  t{links}: 'always t0'"])
    spec = tmp_path / "chain.yaml"
    spec.write_text(text + "\n", "utf-8")
    return spec


def test_a_long_chain_of_inheritance_loads(tmp_path, capsys):
    """Inheritance was followed by recursion: 1,200 links were an internal error (exit 3)."""
    spec = _chain(tmp_path, 1200, "[{n}]")
    assert main(["sample", str(spec), "--depth", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["  t0[0]: t0  (+1 more)"]


def test_inheriting_a_type_many_times_over_is_refused_at_once(tmp_path, capsys):
    """Each type inheriting the next twice doubles the children: 40 links never ended."""
    spec = _chain(tmp_path, 40, "[{n}, {n}]")
    assert main(["validate", "-q", str(spec)]) == 1
    assert capsys.readouterr().out == (
        f"{spec}:4:7: the types have 2,199,023,255,551 child rules in all, counting those each "
        "inherits ('t0' alone 1,099,511,627,776), more than 1,000,000; inherit fewer types, or "
        "each one once (a type inherited twice, or through two others, adds its children each "
        "time)\n"
    )


def test_the_levels_of_a_chain_of_5000_types_are_found_in_a_pass(tmp_path):
    """Each level was found by a pass over every type: a chain of 20,000 took minutes."""
    types = {f"t{i}": {"name": "x", "always": [f"t{i + 1}"]} for i in range(5000)}
    types["t5000"] = {"name": "x"}
    path = tmp_path / "chain.yaml"
    path.write_text(json.dumps({"kind": "nested", "root": "t0", "types": types}))
    spec = epcg_spec.load(path)._problem().spec
    began = time.process_time()
    assert tree_levels(spec) == (5000, None)
    assert time.process_time() - began < 1.0
