"""Counts in text."""

from epcg_spec.core.sizes import counted


def test_counted_says_one_noun_and_many_nouns():
    assert [counted(n, "block") for n in (0, 1, 2, 16384)] == [
        "0 blocks",
        "1 block",
        "2 blocks",
        "16,384 blocks",
    ]
    assert counted(1.0, "solution") == "1 solution"  # Fling counts solutions as floats


def test_counted_writes_an_integer_beyond_two_to_the_53_exactly():
    assert counted(10**30 + 1, "name") == "1,000,000,000,000,000,000,000,000,000,001 names"


def test_counted_takes_a_plural_that_is_not_the_noun_and_s():
    assert [counted(n, "guess", "guesses") for n in (1, 7)] == ["1 guess", "7 guesses"]
