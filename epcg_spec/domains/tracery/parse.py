"""Tracery rule text: sections (plain text, tags, actions) read as Tracery 2 reads them.

The scanner follows Tracery 2's: `[` and `]` nest actions, `#` opens and closes a tag
outside brackets, a backslash makes the next character plain, and problems (an unclosed
tag, unbalanced brackets, empty tags and actions) are collected, never raised. The one
difference is the raw text of a section: Tracery 2 keeps only the last escaping
backslash of a section and drops the others (so `\\#a\\#` reads as `#a\\#`); under
`compat: tracery2` this module does the same, and by default keeps every backslash.
"""

from __future__ import annotations

from dataclasses import dataclass

TEXT, TAG, ACTION = 0, 1, 2
MARKUP = "#[]"
MISSING_SYMBOL = "undefined"


@dataclass(frozen=True)
class Section:
    kind: int
    raw: str
    start: int


@dataclass(frozen=True)
class Tag:
    """`#[actions]symbol.mod1.mod2(a,b)#` read apart."""

    actions: tuple[str, ...]
    symbol: str
    modifiers: tuple[tuple[str, tuple[str, ...] | None], ...]
    error: str = ""


@dataclass(frozen=True)
class Action:
    """`[target:v1,v2]` (push), `[target:POP]` (pop), or `[text]` (run for its effects)."""

    kind: str
    target: str
    values: tuple[str, ...] = ()


def scan(rule: str, compat: bool) -> tuple[list[Section], list[tuple[int, str]]]:
    """The sections of `rule` and its problems as (offset, message) pairs."""
    sections: list[Section] = []
    errors: list[tuple[int, str]] = []
    depth, in_tag, escaped, start = 0, False, False, 0
    begin = 0  # where the section starts (`start` moves past Tracery 2's escapes)
    opened = {"#": 0, "[": 0, "]": -1}  # where the last tag and action opened, a stray ']'
    kept = ""
    last_escape = -1

    def cut(end: int, kind: int) -> None:
        nonlocal kept, last_escape
        if end - start < 1 and kind != TEXT:
            errors.append((start, f"empty {'tag' if kind == TAG else 'action'}"))
        if compat and last_escape >= 0:
            raw = kept + "\\" + rule[last_escape + 1 : end]
        else:
            raw = rule[start:end]
        sections.append(Section(kind, raw, begin))
        kept, last_escape = "", -1

    for i, char in enumerate(rule):
        if escaped:
            escaped = False
            continue
        if char == "[":
            if depth == 0:
                opened["["] = i
            if depth == 0 and not in_tag:
                if start < i:
                    cut(i, TEXT)
                start = begin = i + 1
            depth += 1
        elif char == "]":
            depth -= 1
            if depth < 0 and opened["]"] < 0:
                opened["]"] = i
            if depth == 0 and not in_tag:
                cut(i, ACTION)
                start = begin = i + 1
        elif char == "#" and depth == 0:
            if in_tag:
                cut(i, TAG)
            elif start < i:
                cut(i, TEXT)
            if not in_tag:
                opened["#"] = i
            start = begin = i + 1
            in_tag = not in_tag
        elif char == "\\":
            escaped = True
            if compat:
                kept += rule[start:i]
                start = i + 1
                last_escape = i
    if start < len(rule):
        cut(len(rule), TEXT)
    if in_tag:
        errors.append((opened["#"], "unclosed tag: this '#' has no partner"))
    if depth > 0:
        errors.append((opened["["], "too many '[': this action is not closed"))
    if depth < 0:
        errors.append((opened["]"], "too many ']'"))
    return [s for s in sections if s.kind != TEXT or s.raw], errors


def too_deep(rule: str, most: int) -> int | None:
    """Where the first '[' nested more than `most` deep in `rule` opens, counted as `scan`
    counts (an escaped bracket is text), or None: actions nest by their brackets, and
    reading them recurses once a level."""
    depth, escaped = 0, False
    for i, char in enumerate(rule):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            depth += 1
            if depth > most:
                return i
        elif char == "]":
            depth -= 1
    return None


def split_unescaped(text: str, separator: str, limit: int = -1) -> list[str]:
    """`text` split at each `separator` not preceded by an escaping backslash."""
    parts, current, escaped = [], "", False
    for char in text:
        if escaped:
            current += char
            escaped = False
        elif char == "\\":
            current += char
            escaped = True
        elif char == separator and limit != 0:
            parts.append(current)
            current = ""
            limit -= 1
        else:
            current += char
    return [*parts, current]


def _split(text: str, separator: str, compat: bool, limit: int = -1) -> list[str]:
    if compat:
        return text.split(separator)
    return split_unescaped(text, separator, limit)


def read_tag(content: str, compat: bool) -> Tag:
    """The actions, symbol and modifiers of a tag's content."""
    sections, _ = scan(content, compat)
    plain = [s.raw for s in sections if s.kind == TEXT]
    actions = tuple(s.raw for s in sections if s.kind != TEXT)
    if len(plain) > 1:
        return Tag(actions, content, (), f"multiple main sections in {content!r}")
    if not plain:
        return Tag(actions, MISSING_SYMBOL, ())
    symbol, *names = _split(plain[0], ".", compat)
    return Tag(actions, symbol, tuple(_modifier(name, compat) for name in names))


def name_offsets(content: str, compat: bool) -> tuple[int, ...]:
    """Where the symbol and each modifier of a tag's content (read_tag's) start in it."""
    sections, _ = scan(content, compat)
    plain = [s for s in sections if s.kind == TEXT]
    if len(plain) != 1:
        return ()
    offsets, at = [], plain[0].start
    for piece in _split(plain[0].raw, ".", compat):
        offsets.append(at)
        at += len(piece) + 1
    return tuple(offsets)


def action_offsets(content: str, compat: bool) -> tuple[int, ...]:
    """Where each action of a tag's content (read_tag's, in order) starts in it."""
    sections, _ = scan(content, compat)
    return tuple(s.start for s in sections if s.kind != TEXT)


def value_offsets(action: Action) -> tuple[int, ...]:
    """Where each value of a push starts in the action's text."""
    offsets, at = [], len(action.target) + 1
    for value in action.values:
        offsets.append(at)
        at += len(value) + 1
    return tuple(offsets)


def _modifier(name: str, compat: bool) -> tuple[str, tuple[str, ...] | None]:
    """A modifier's name and parameters: `replace(a,b)` -> ('replace', ('a', 'b'))."""
    opening = name.find("(")
    if opening > 0:
        closing = name.find(")", opening + 1)
        if closing > opening + 1:
            return name[:opening], tuple(_split(name[opening + 1 : closing], ",", compat))
    return name, None


def read_action(raw: str, compat: bool) -> Action:
    """A push, a pop or a function action."""
    parts = _split(raw, ":", compat, limit=1)
    if len(parts) == 1:
        return Action("run", raw)
    target, rule = parts[0], parts[1]
    if rule == "POP":
        return Action("pop", target)
    return Action("push", target, tuple(_split(rule, ",", compat)))


def unescape(text: str, compat: bool) -> str:
    """The final text: escaping backslashes removed (`\\\\` stays one backslash)."""
    if "\\" not in text:
        return text
    if compat:
        marker = "DOUBLEBACKSLASH"
        return text.replace("\\\\", marker).replace("\\", "").replace(marker, "\\")
    out, escaped = [], False
    for char in text:
        if escaped:
            out.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        else:
            out.append(char)
    return "".join(out)


def is_clean(text: str) -> bool:
    """No markup outside escapes and no dangling backslash: the text reads back as plain."""
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in MARKUP:
            return False
    return not escaped
