"""Bad rooms specs: one located line per problem, exit 1, nothing written."""

from __future__ import annotations

import pytest

from epcg_spec.cli.main import main

HEAD = "kind: rooms\nmap: {width: 12, height: 8}\n"


@pytest.mark.parametrize(
    "body, line, message",
    [
        ("rooms:\n  - {name: a}\n  - {name: b, parent: c}\n", 5, "no room is named 'c'"),
        ("rooms:\n  - {name: hall}\n  - {name: b, parent: hal}\n", 5, "did you mean 'hall'"),
        ("rooms:\n  - {name: a}\n  - {name: a, parent: a}\n", 5, "a second room named 'a'"),
        ("rooms:\n  - {name: a}\n  - {name: b}\n", 5, "one root; found 2 (a, b)"),
        ("rooms:\n  - {name: a, parent: b}\n  - {name: b, parent: a}\n", 4, "go round in a circle"),
        (
            "rooms:\n  - {name: r}\n  - {name: a, parent: b}\n  - {name: b, parent: a}\n",
            5,
            "go round in a circle",
        ),
        ("rooms:\n  - {name: a, parent: a}\n", 4, "its own parent"),
        ("rooms:\n  - {name: a, size: [13, 2]}\n", 4, "larger than the 12 x 8 map"),
        ("rooms:\n  - {name: a}\nsearch: {strategy: fast}\n", 5, "strategy"),
        ("rooms:\n  - {name: a}\nsearch: {tries: 3}\n", 5, "tries"),
        ("rooms:\n  - {name: a}\ntree: {nested: x.epcg}\n", 5, "give the tree of rooms once"),
        ("margin: 1\n", 1, "give the tree of rooms once"),
        ("tree: {nested: missing.epcg}\n", 3, "no such file"),
        # itself: loading the tree loaded the spec again, until a RecursionError (exit 3)
        ("tree: {nested: bad.yaml}\n", 3, "bad.yaml is a rooms spec, not nested"),
        ("tree: {nested: /dev/null}\n", 3, "/dev/null is not a regular file"),
    ],
)
def test_located_errors(tmp_path, capsys, body, line, message):
    spec = tmp_path / "bad.yaml"
    spec.write_text(HEAD + body)
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert f"bad.yaml:{line}:" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_rock_rows_are_checked(tmp_path, capsys):
    spec = tmp_path / "bad.yaml"
    spec.write_text(
        "kind: rooms\nmap:\n  width: 4\n  height: 2\n  blocked:\n    - '..x.'\n    - '...'\n"
        "rooms:\n  - {name: a}\n"
    )
    assert main(["validate", str(spec)]) == 1
    err = capsys.readouterr().out
    assert "bad.yaml:6:10: 'x' is not a map cell" in err
    assert "bad.yaml:7:" in err and "3 cells; the map is 4 wide" in err


INDEPENDENT = {
    # rock, a parent's name and a room's size: each was shown only once the one before was
    # fixed (the tree first, then the rock, then the sizes)
    "map:\n  width: 8\n  height: 3\n  blocked: ['....x...', '........', '...']\n"
    "rooms:\n  - {name: hall, size: [4, 3]}\n  - {name: kitchen, size: [9, 2], parent: hall}\n"
    "  - {name: pantry, parent: hal}\n": [
        "5:18: 'x' is not a map cell; '#' rock, '.' free",
        "5:37: 3 cells; the map is 8 wide",
        "8:27: room 'kitchen' (9 x 2) is larger than the 8 x 3 map; enlarge 'map' or shrink "
        "the room",
        "9:28: no room is named 'hal'; did you mean 'hall'? (rooms: hall, kitchen, pantry)",
    ],
    # a second name, rock rows and a size beside a tree given twice
    "map: {width: 8, height: 3, blocked: ['........']}\ntree: {nested: x.yaml}\n"
    "rooms:\n  - {name: hall, size: [4, 3]}\n  - {name: hall, size: 20, parent: hall}\n": [
        "2:37: 1 rows; the map is 3 high",
        "3:7: give the tree of rooms once: 'rooms' (a list) or 'tree' (from a nested spec)",
    ],
    "map: {width: 8, height: 3, blocked: ['........']}\n"
    "rooms:\n  - {name: hall, size: [4, 3]}\n  - {name: hall, size: 20, parent: hall}\n": [
        "2:37: 1 rows; the map is 3 high",
        "5:12: a second room named 'hall'; give every room its own name",
        "5:24: room 'hall' (20 x 20) is larger than the 8 x 3 map; enlarge 'map' or shrink "
        "the room",
    ],
}


@pytest.mark.parametrize("body", list(INDEPENDENT), ids=range(len(INDEPENDENT)))
def test_independent_mistakes_are_all_reported_at_once(tmp_path, capsys, body):
    spec = tmp_path / "bad.yaml"
    spec.write_text("kind: rooms\n" + body)
    assert main(["validate", "-q", str(spec)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"{spec}:{at}" for at in INDEPENDENT[body]]


def test_nested_tree_errors(tmp_path, capsys):
    (tmp_path / "tree.yaml").write_text(
        "kind: nested\nroot: house\ntypes:\n  house: 'always room 2'\n  room: ''\n"
    )
    spec = tmp_path / "bad.yaml"
    spec.write_text(HEAD + "tree: {nested: tree.yaml, sizes: {hall: 2}}\n")
    assert main(["validate", str(spec)]) == 1
    assert "has no element type 'hall'" in capsys.readouterr().out
    spec.write_text(HEAD + "tree: {nested: tree.yaml, at: house/attic}\n")
    assert main(["validate", str(spec)]) == 1
    assert "bad.yaml:3:" in capsys.readouterr().out
    spec.write_text(HEAD + "tree: {nested: tree.yaml, sizes: {room: 3, default: 4}}\n")
    assert main(["validate", str(spec)]) == 0


@pytest.mark.parametrize(
    "extra, args, message",
    [
        ("", ["--steps", "0"], "'--steps': 0 is not in the range x>=1"),
        ("search: {strategy: restart}\n", ["--steps", "3"], "this spec restarts"),
        ("search: {undos: 5}\n", ["--resume"], "this spec restarts"),
    ],
)
def test_usage_errors(tmp_path, capsys, extra, args, message):
    spec = tmp_path / "spec.yaml"
    spec.write_text(HEAD + "rooms:\n  - {name: a}\n  - {name: b, parent: a}\n" + extra)
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q", *args]) == 2
    assert message in capsys.readouterr().err
