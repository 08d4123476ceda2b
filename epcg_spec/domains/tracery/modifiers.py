"""Tracery's base English modifiers, with Tracery 2's own rules; `compat` keeps its defects.

Defects kept only under `compat: tracery2` (fixed by default):
- `ed` after a vowel and `y` adds `d` (`play` -> `playd`; fixed: `played`);
- `firstS` of a single word adds a trailing space;
- `replace` with one parameter replaces with the text "undefined" (fixed: with nothing),
  and its replacement reads JavaScript's `$&`, `$$`, `` $` ``, `$'` patterns (fixed: literal);
- `capitalizeAll` treats only ASCII letters and digits as word characters (`élan` ->
  `éLan`; fixed: any letter or digit, and an apostrophe does not start a word).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...search.expand import MAX_CHARS, too_long

Modifier = Callable[[str, tuple[str, ...], bool], str]
VOWELS = "aeiou"
APOSTROPHES = "'’"


def _char(text: str, index: int) -> str:
    """JavaScript's charAt: the character at `index`, or '' outside the string."""
    return text[index] if 0 <= index < len(text) else ""


def _vowel(char: str) -> bool:
    return char != "" and char.lower() in VOWELS


def capitalize(text: str, params: tuple[str, ...], compat: bool) -> str:
    if not text or (compat and ord(text[0]) > 0xFFFF):
        return text
    return text[0].upper() + text[1:]


def capitalize_all(text: str, params: tuple[str, ...], compat: bool) -> str:
    out, cap_next, previous = [], True, ""
    for char in text:
        word = (char.isascii() and char.isalnum()) if compat else char.isalnum()
        if not word and not (not compat and char in APOSTROPHES and previous.isalnum()):
            cap_next = True
            out.append(char)
        elif word and cap_next:
            out.append(char.upper())
            cap_next = False
        else:
            out.append(char)
        previous = char
    return "".join(out)


def article(text: str, params: tuple[str, ...], compat: bool) -> str:
    if text:
        if text[0].lower() == "u" and len(text) > 2 and text[2].lower() == "i":
            return "a " + text
        if _vowel(text[0]):
            return "an " + text
    return "a " + text


def plural(text: str, params: tuple[str, ...], compat: bool) -> str:
    last = _char(text, len(text) - 1)
    if last in ("s", "h", "x"):
        return text + "es"
    if last == "y":
        if not _vowel(_char(text, len(text) - 2)):
            return text[:-1] + "ies"
        return text + "s"
    return text + "s"


def past(text: str, params: tuple[str, ...], compat: bool) -> str:
    last = _char(text, len(text) - 1)
    if last in ("s", "h", "x"):
        return text + "ed"
    if last == "e":
        return text + "d"
    if last == "y":
        if not _vowel(_char(text, len(text) - 2)):
            return text[:-1] + "ied"
        return text + ("d" if compat else "ed")
    return text + "ed"


def first_plural(text: str, params: tuple[str, ...], compat: bool) -> str:
    words = text.split(" ")
    first = plural(words[0], params, compat)
    if len(words) == 1 and not compat:
        return first
    return first + " " + " ".join(words[1:])


def replace(text: str, params: tuple[str, ...], compat: bool) -> str:
    if not params:
        return text
    missing = "undefined" if compat else ""
    replacement = params[1] if len(params) > 1 else missing
    pieces, size, done = [], 0, 0
    for match in re.finditer(re.escape(params[0]), text):
        made = _js_replacement(replacement, match) if compat else replacement
        pieces += (text[done : match.start()], made)
        size += match.start() - done + len(made)
        done = match.end()
        if size > MAX_CHARS:  # "$`" repeats all before each match: text^2 / 2 of it
            raise too_long()
    pieces.append(text[done:])
    return "".join(pieces)


def _js_replacement(replacement: str, match: re.Match) -> str:
    """JavaScript's String.replace patterns for a match without groups."""
    out, i = [], 0
    whole = match.string
    while i < len(replacement):
        char = replacement[i]
        follow = replacement[i + 1] if i + 1 < len(replacement) else ""
        if char == "$" and follow in "$&`'" and follow:
            out.append(
                {
                    "$": "$",
                    "&": match.group(0),
                    "`": whole[: match.start()],
                    "'": whole[match.end() :],
                }[follow]
            )
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


def uppercase(text: str, params: tuple[str, ...], compat: bool) -> str:
    return text.upper()


def lowercase(text: str, params: tuple[str, ...], compat: bool) -> str:
    return text.lower()


MODIFIERS: dict[str, Modifier] = {
    "capitalize": capitalize,
    "capitalizeAll": capitalize_all,
    "a": article,
    "s": plural,
    "ed": past,
    "firstS": first_plural,
    "replace": replace,
    "uppercase": uppercase,
    "lowercase": lowercase,
}


def apply_modifiers(
    text: str, modifiers: tuple[tuple[str, tuple[str, ...] | None], ...], compat: bool
) -> str:
    """Apply a tag's modifiers left to right; an unknown one appends `((.name))`."""
    for name, params in modifiers:
        modifier = MODIFIERS.get(name)
        if modifier is None:
            text += f"((.{name}))"
        else:
            text = modifier(text, params or (), compat)
    return text
