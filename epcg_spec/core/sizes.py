"""Counts in text: `1 block`, `2 blocks`; those too large to print by their size as digits and a
power of ten, never all the digits. And counts read from text (a flag's, a name's)."""

from __future__ import annotations

import math

INT64_MAX = 2**63 - 1
"""The largest value the kernels' 64-bit integers hold: of a rank, a seed, a count's --limit."""
EXACT_BELOW = 10**15
"""Counts below this are printed in full; larger ones by their order of magnitude."""


MOST_DIGITS = 100
"""Most digits of a count read from text: int() reads none of over 4,300, and no count of
more than 100 digits is one a spec or a flag can use."""


def digits_value(text: str) -> int | None:
    """The number `text` writes in ASCII digits alone, or None: not a sign, a space nor
    another script's digits (str.isdigit takes `²`, which int() refuses), nor more than
    MOST_DIGITS digits."""
    if text.isascii() and text.isdigit() and len(text) <= MOST_DIGITS:
        return int(text)
    return None


def log10(n: int) -> float:
    """log10 of a positive integer of any size, without converting it to text or float."""
    shift = max(n.bit_length() - 60, 0)
    return math.log10(n >> shift) + shift * math.log10(2)


def count_text(n: int, exact_below: int = EXACT_BELOW) -> str:
    """`1,234,567` for a readable count, `about 4.02e+5735 (5,736 digits)` past exact_below."""
    if abs(n) < exact_below:
        return f"{n:,}"
    size = log10(abs(n))
    digits = math.floor(size) + 1
    if abs(n) >= 10**digits:  # log10 rounded down across a power of ten
        digits += 1
    elif abs(n) < 10 ** (digits - 1):
        digits -= 1
    exponent = math.floor(size)
    mantissa = 10 ** (size - exponent)
    if mantissa >= 9.995:
        mantissa, exponent = mantissa / 10, exponent + 1
    sign = "-" if n < 0 else ""
    return f"about {sign}{mantissa:.2f}e+{exponent} ({digits:,} digits)"


def counted(n: float, noun: str, plural: str | None = None) -> str:
    """`1 block`, `2,048 blocks`: n with the noun, plural (`noun`s unless given) unless n is 1
    (an integer exactly)."""
    text = f"{n:,}" if isinstance(n, int) else f"{n:,.0f}"
    return f"{text} {noun}" if n == 1 else f"{text} {plural or noun + 's'}"
