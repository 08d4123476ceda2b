"""The base English modifiers: Tracery 2's rules, and which defects `compat` keeps."""

import pytest

from epcg_spec.domains.tracery.modifiers import MODIFIERS, apply_modifiers
from epcg_spec.domains.tracery.parse import is_clean, scan, unescape


@pytest.mark.parametrize(
    ("name", "word", "expected"),
    [
        ("a", "owl", "an owl"),
        ("a", "unicorn", "a unicorn"),
        ("a", "umbrella", "an umbrella"),
        ("a", "cat", "a cat"),
        ("s", "fox", "foxes"),
        ("s", "bus", "buses"),
        ("s", "fly", "flies"),
        ("s", "day", "days"),
        ("s", "cat", "cats"),
        ("ed", "bake", "baked"),
        ("ed", "cry", "cried"),
        ("ed", "fix", "fixed"),
        ("ed", "walk", "walked"),
        ("capitalize", "bear", "Bear"),
        ("capitalizeAll", "the old road", "The Old Road"),
        ("firstS", "cup of tea", "cups of tea"),
        ("uppercase", "Ab", "AB"),
        ("lowercase", "Ab", "ab"),
    ],
)
def test_known_answers_in_both_modes(name, word, expected):
    for compat in (False, True):
        assert MODIFIERS[name](word, (), compat) == expected


@pytest.mark.parametrize(
    ("name", "word", "params", "original", "fixed"),
    [
        ("ed", "play", (), "playd", "played"),
        ("firstS", "cat", (), "cats ", "cats"),
        ("replace", "a-b", ("-",), "aundefinedb", "ab"),
        ("replace", "ab", ("b", "[$&]"), "a[b]", "a[$&]"),
        ("capitalizeAll", "élan vital", (), "éLan Vital", "Élan Vital"),
        ("capitalizeAll", "don't stop", (), "Don'T Stop", "Don't Stop"),
    ],
)
def test_compat_keeps_the_original_defects_and_the_default_fixes_them(
    name, word, params, original, fixed
):
    assert MODIFIERS[name](word, params, True) == original
    assert MODIFIERS[name](word, params, False) == fixed


def test_unknown_modifiers_append_a_marker_and_modifiers_chain_left_to_right():
    mods = (("s", None), ("foo", None), ("capitalize", None))
    assert apply_modifiers("fox", mods, False) == "Foxes((.foo))"


def test_scanner_sections_and_problems():
    sections, problems = scan("a #b.s# [k:v]c#", False)
    assert [(s.kind, s.raw) for s in sections] == [
        (0, "a "),
        (1, "b.s"),
        (0, " "),
        (2, "k:v"),
        (0, "c"),
    ]
    assert problems == [(14, "unclosed tag: this '#' has no partner")]
    assert scan("[a:[b]c", False)[1] == [(0, "too many '[': this action is not closed")]
    assert scan("a]b]", False)[1] == [(1, "too many ']'")]


def test_escapes_are_kept_until_the_end_and_only_tracery2_drops_some():
    rule = "\\#a\\# b"
    assert scan(rule, False)[0][0].raw == "\\#a\\# b"
    assert scan(rule, True)[0][0].raw == "#a\\# b"
    assert unescape("\\#x\\\\", False) == unescape("\\#x\\\\", True) == "#x\\"


def test_clean_text_reads_back_as_plain():
    assert is_clean("a \\#b\\[")
    assert not is_clean("a #b")
    assert not is_clean("a\\")
