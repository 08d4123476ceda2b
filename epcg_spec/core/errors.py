"""Exceptions that carry a source position and map to the CLI's exit codes."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from .sizes import count_text


@dataclass(frozen=True, order=True)
class Pos:
    """A place in a source file: 1-based line and column."""

    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


# what str.splitlines breaks at, and every other control character but the tab, written as
# escapes: a problem is one line, whatever text of the spec (or file name) its message quotes
# (a NEL, U+0085, in a name made two lines of one), and no text of a spec can send the
# terminal a command (an escaped ESC or BEL in a YAML string: colours, the window's title)
_CONTROLS = [chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if chr(c) != "\t"]
_ONE_LINE = str.maketrans(
    {
        **{c: f"\\x{ord(c):02x}" for c in _CONTROLS},
        **{c: f"\\u{ord(c):04x}" for c in "\u2028\u2029"},
        **{"\n": "\\n", "\r": "\\r", "\v": "\\v", "\f": "\\f"},
    }
)


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a spec: where, what, and optionally how to fix it."""

    pos: Pos
    message: str
    hint: str = ""

    @property
    def text(self) -> str:
        """The message with its hint; a bare listing, "(kinds: ...)", follows as an aside."""
        if not self.hint:
            return self.message
        return f"{self.message}{' ' if self.hint.startswith('(') else '; '}{self.hint}"

    def __str__(self) -> str:
        return one_line(f"{self.pos}: {self.text}")


def one_line(text: str) -> str:
    """`text` with the line breaks it quotes written as escapes (\\n, \\x85, \\u2028...)."""
    return text.translate(_ONE_LINE)


_PRINTABLE = str.maketrans({c: f"\\x{ord(c):02x}" for c in _CONTROLS if c != "\n"})


def printable(text: str) -> str:
    """`text` (lines a command shows: a summary, explain's rows) with its control characters
    but the tab and the line break written as escapes, as `one_line` writes them."""
    return text.translate(_PRINTABLE)


def shortened(text: str, most: int = 120) -> str:
    """`text` in at most `most` characters, its middle elided: what a message quotes of a
    name or a value stays short, whatever a spec or a command line gives."""
    return text if len(text) <= most else f"{text[: most // 2]}...{text[-most // 2 :]}"


MAX_LISTED = 30
"""Most names a message lists (then how many there are in all)."""
HINT_COMPARISONS = 300_000
"""Most (unknown, known) name pairs the hints of one spec compare, about a second: a spec
naming thousands of unknown names among thousands of known ones took hours, and past this
budget its other unknown names get no 'did you mean'."""
_hint_budget: ContextVar[list[int] | None] = ContextVar("hint_budget", default=None)


@contextmanager
def hint_budget() -> Iterator[None]:
    """Bound the comparisons `closest` makes meanwhile to HINT_COMPARISONS (one spec's check)."""
    token = _hint_budget.set([HINT_COMPARISONS])
    try:
        yield
    finally:
        _hint_budget.reset(token)


def closest(word: str, options: Sequence[str]) -> str | None:
    """The option most like `word` (difflib's choice), or None; None too once the
    hint_budget in force is spent."""
    budget = _hint_budget.get()
    if budget is not None:
        if budget[0] < len(options):
            return None
        budget[0] -= len(options)
    close = difflib.get_close_matches(word, options, n=1)
    return close[0] if close else None


def listed(options: Sequence[str]) -> str:
    """`options` joined by commas ('none' if empty), at most MAX_LISTED of them and then how
    many there are: a message stays one short line whatever a spec defines."""
    shown = ", ".join(options[:MAX_LISTED]) or "none"
    return shown if len(options) <= MAX_LISTED else f"{shown}, ... ({len(options):,} in all)"


def did_you_mean(word: str, options: Sequence[str], label: str, enclosed: bool = False) -> str:
    """A hint for an unknown `word`: "did you mean 'x'? (label: a, b)", or the listing alone
    (in parentheses if `enclosed`)."""
    close = closest(word, options)
    listing = f"{label}: {listed(options)}"
    if close:
        return f"did you mean '{close}'? ({listing})"
    return f"({listing})" if enclosed else listing


class EpcgError(Exception):
    """Base class of every error the tool reports without a traceback."""

    exit_code = 3

    def __reduce__(self):
        """Pickled as its message and attributes, whatever its constructor takes: errors
        raised on a cluster's workers reach the client whole."""
        return _rebuilt, (type(self), str(self), self.__dict__)


def _rebuilt(kind: type[EpcgError], message: str, attributes: dict) -> EpcgError:
    error = kind.__new__(kind)
    Exception.__init__(error, message)
    error.__dict__.update(attributes)
    return error


class SpecError(EpcgError):
    """One or more problems in a spec file (exit code 1)."""

    exit_code = 1

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic):
        self.diagnostics = (
            [diagnostics] if isinstance(diagnostics, Diagnostic) else list(diagnostics)
        )
        super().__init__("\n".join(str(p) for p in self.diagnostics))


class BuildError(EpcgError):
    """A valid spec that could not be built or run (exit code 1).

    `at` names the settings that would change the outcome, as document paths such as
    ("search", "attempts"), best first; the Python API sets `pos` to where the spec holds
    the first of them, and the command line prints the error there.
    """

    exit_code = 1

    def __init__(self, message: str, at: tuple[tuple[str | int, ...], ...] = ()):
        super().__init__(message)
        self.at = at
        self.pos: Pos | None = None


class UsageError(EpcgError):
    """Wrong command-line usage (exit code 2)."""

    exit_code = 2


class SpaceTooLarge(BuildError):
    """A ranked space with more states than a 64-bit rank can address."""

    # what to write instead: the page's section shows it for a `power` space of 3**40 states
    HINT = (
        "make it smaller, or take its first position out of the space as a param "
        "(params: {head: 0}; a space one position shorter; head read where x[0] was) and "
        "build once per value, --param head=V (docs/kinds/space.md#a-space-too-large-for-"
        "64-bit-ranks)"
    )

    def __init__(self, what: str, size: int):
        self.size = size
        self.problem = (
            f"{what} has {count_text(size, 2**128)} states (about 2**{size.bit_length() - 1}), "
            "more than the 2**63 - 1 that 64-bit ranks can address"
        )
        super().__init__(f"{self.problem}; {self.HINT}")


class Interrupted(EpcgError):
    """The user stopped a run (Ctrl-C); a checkpoint may have been written (exit code 130)."""

    exit_code = 130
