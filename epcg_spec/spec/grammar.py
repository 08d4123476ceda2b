"""The lark parser shared by the DSL and the expression language, and its error messages."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

MAX_NESTING = 64
"""Most brackets that may be open at once in a DSL file or an expression."""
MAX_TREE_DEPTH = 200
"""Deepest parse tree accepted (a chain of about 200 operators is that deep)."""
MAX_EXPRESSION = 20_000
"""Longest expression accepted, in characters (parsing one this long takes a while)."""
MAX_DIGITS = 4_300
"""Longest integer read, in digits (Python's own bound on reading one from text)."""

KEYWORDS = frozenset(
    {
        "if",
        "else",
        "for",
        "in",
        "and",
        "or",
        "not",
        "true",
        "false",
        "null",
        "True",
        "False",
        "None",
    }
)

_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "FLOAT": "a number",
    "STRING": 'a "string"',
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/', '//' or '%'",
    "TRUE": "true",
    "FALSE": "false",
    "NULL": "null",
    "$END": "the end of the text",
}


@cache
def parser() -> Lark:
    """The LALR parser for both start symbols, built once per process."""
    text = resources.files(__package__).joinpath("epcg.lark").read_text(encoding="utf-8")
    return Lark(
        text,
        start=["document", "expression"],
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
    )


def parse(text: str, start: str) -> Tree:
    """Parse `text` from the start symbol `start`; raises SyntaxProblem on bad input."""
    if start == "expression" and len(text) > MAX_EXPRESSION:
        raise SyntaxProblem(
            MAX_EXPRESSION,
            f"an expression longer than {MAX_EXPRESSION:,} characters; split it, or use "
            "sum(...), all(...) over a range",
        )
    deep = _too_deep_bracket(text)
    if deep is not None:
        raise SyntaxProblem(
            deep, f"brackets nested more than {MAX_NESTING} deep; a spec never needs this"
        )
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput as exc:
        offset, message = _describe(exc, text)
        opened = _unclosed_bracket(text[:offset]) if PLACE in message else None
        raise SyntaxProblem(offset, message, opened) from None
    deep = _too_deep_node(tree)
    if deep is not None:
        raise SyntaxProblem(
            deep,
            f"nested more than {MAX_TREE_DEPTH} levels deep (a very long chain of operators?); "
            "split it, or use sum(...), all(...) over a range",
        )
    _check_numbers(tree)
    return tree


def decode_string(token: Token) -> str:
    """The value of a STRING token (JSON escapes); a bad escape is a SyntaxProblem."""
    try:
        return json.loads(token.value)
    except json.JSONDecodeError as exc:
        raise SyntaxProblem(
            token.start_pos + exc.pos,
            f'invalid escape in string; use \\n, \\t, \\", \\\\ or \\uXXXX ({exc.msg})',
        ) from None


PLACE = "\0"  # in a message: where `opened` is, written by `SyntaxProblem.placed`


class SyntaxProblem(Exception):
    """A parse error at a character offset of the parsed text; `opened`, the offset of the
    bracket its message names, if it names one."""

    def __init__(self, offset: int, message: str, opened: int | None = None):
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.opened = opened

    def placed(self, place: Callable[[int], str]) -> str:
        """The message, the bracket it names placed by `place(offset)` ("line:col" in the
        file: an expression's text is not all of the file)."""
        if self.opened is None:
            return self.message
        return self.message.replace(PLACE, place(self.opened))


def _describe(exc: UnexpectedInput, text: str) -> tuple[int, str]:
    offset = exc.pos_in_stream if exc.pos_in_stream is not None else len(text)
    if isinstance(exc, UnexpectedCharacters):
        return offset, _bad_character(text, offset)
    at_end = isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    )
    after = len(text) if at_end else offset
    run_on = _run_on_key(text, after) if "COLON" in set(exc.expected or ()) else None
    if run_on is not None:
        return run_on, (
            "a new key seems to begin here, ending the value before it; quote text that is "
            'not an expression, e.g. "sudoku-4x4"'
        )
    if at_end:
        unclosed = _unclosed_bracket(text)
        if unclosed is not None:
            return unclosed, f"'{text[unclosed]}' is never closed"
        return len(text), "the text ends too early; " + _expected(exc)
    token: Token = exc.token
    expected = set(exc.expected)
    if token.value == "=" or (token.type == "COMP_OP" and "COLON" in expected):
        return offset, "unexpected '='; write '==' to compare, or ':' between a key and its value"
    if "COLON" in expected and token.type in ("NAME", "STRING", "INT"):
        return offset, f"unexpected {token.value!r}; expected ':' after the key"
    if token.type == "LSQB" and "LSQB" not in expected:  # a list where a value goes
        return offset, (
            "unexpected '['; expressions have no lists: aggregate over a comprehension, "
            "e.g. distinct(x[i] for i in range(n))"
        )
    opened = _unclosed_bracket(text[:offset])
    if opened is not None and expected & {"RPAR", "RSQB", "RBRACE"}:
        return offset, f"unexpected {_show(token)}; the '{text[opened]}' at {PLACE} is not closed"
    return offset, f"unexpected {_show(token)}; " + _expected(exc)


def _run_on_key(text: str, offset: int) -> int | None:
    """Where the word before `offset` starts, if it stands after a value on its line."""
    end = len(text[:offset].rstrip())
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if start == end or ":" not in before or not before.split(":", 1)[1].strip():
        return None
    return start


def _bad_character(text: str, offset: int) -> str:
    char = text[offset]
    pair = text[offset : offset + 2]
    if pair in ("&&", "||"):
        word = "and" if pair == "&&" else "or"
        return f"unexpected '{pair}'; write '{word}'"
    if char == "!":
        return "unexpected '!'; write 'not' (or '!=' to compare)"
    if char == "=":
        return "unexpected '='; write '==' to compare, or ':' between a key and its value"
    if char == "'":
        return 'unexpected "\'"; strings use double quotes'
    if char == '"':
        return 'this string is never closed; end it with " on the same line'
    return f"unexpected character {char!r}"


# a string as runs between escapes: `(?:[^"\\]|\\.)*` kept a backtracking state per
# character, over 100 bytes each (a MemoryError on a 50 MB string)
_BRACKET_SCAN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|#[^\n]*|[()\[\]{}]')
_OPENING = {")": "(", "]": "[", "}": "{"}


def _brackets(text: str) -> Iterator[tuple[int, str]]:
    """Each bracket outside strings and comments, with its offset."""
    for match in _BRACKET_SCAN.finditer(text):
        if len(match.group()) == 1 and match.group() not in '"#':
            yield match.start(), match.group()


def _unclosed_bracket(text: str) -> int | None:
    stack: list[int] = []
    for offset, char in _brackets(text):
        if char in "([{":
            stack.append(offset)
        elif stack and text[stack[-1]] == _OPENING[char]:
            stack.pop()
    return stack[-1] if stack else None


def _too_deep_bracket(text: str) -> int | None:
    """The first bracket opened inside MAX_NESTING others, if any."""
    depth = 0
    for offset, char in _brackets(text):
        if char in "([{":
            depth += 1
            if depth > MAX_NESTING:
                return offset
        else:
            depth = max(depth - 1, 0)
    return None


def _too_deep_node(tree: Tree) -> int | None:
    """Where the first node deeper than MAX_TREE_DEPTH in `tree` starts, if any."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            return node.start_pos if isinstance(node, Token) else node.meta.start_pos
        if isinstance(node, Tree):
            stack.extend((child, depth + 1) for child in node.children)
    return None


def _check_numbers(tree: Tree) -> None:
    """A SyntaxProblem at the first number that cannot be read as one: an integer of more
    than MAX_DIGITS digits, or a float beyond the largest (1e999 reads as infinity)."""
    for token in tree.scan_values(lambda v: isinstance(v, Token)):
        if token.type == "INT" and len(token) > MAX_DIGITS:
            raise SyntaxProblem(
                token.start_pos,
                f"an integer of {len(token):,} digits; a spec's numbers fit in 64 bits (19 digits)",
            )
        if token.type == "FLOAT" and not math.isfinite(float(token)):
            raise SyntaxProblem(
                token.start_pos,
                f"{token[:40]} is too large a number; the largest is about 1.8e308",
            )


def _show(token: Token) -> str:
    if token.type == "$END":
        return "end of text"
    return f"{token.value!r}"


def _expected(exc: UnexpectedInput) -> str:
    names = sorted({_word(name) for name in getattr(exc, "expected", ()) or ()})
    if not names:
        return "check the syntax"
    if len(names) > 8:
        return "expected a value, an operator or a closing bracket"
    return "expected " + ", ".join(names)


def _word(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    return f"'{pattern.value}'"
