"""Progress with an ETA on stderr, shown only for work that lasts more than a moment."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich is imported when a bar or spinner is shown, not at every start
    from rich.console import Console
    from rich.progress import Progress, ProgressColumn

SHOW_AFTER_SECONDS = 2.0
SAY_COMPILE_AFTER_SECONDS = 1.0
PLAIN_EVERY_SECONDS = 10.0
MIN_BAR = 10  # the narrowest bar worth drawing
TIME = len("0:00:00")


def columns_for(width: int, label: str, total: int) -> tuple[ProgressColumn, ...]:
    """The progress line's columns for a terminal `width` columns wide.

    The bar takes whatever the text leaves (at least MIN_BAR); on a narrow terminal the
    done/total count goes first, then the elapsed time, then the label is shortened, so the
    percentage and the ETA always show whole.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    count = 2 * len(str(total)) + 1
    percent, eta = len("100%"), len("ETA ") + TIME
    for extras in ((count, TIME), (TIME,), ()):
        if len(label) + MIN_BAR + percent + eta + sum(extras) + 3 + len(extras) <= width:
            break
    room = width - (MIN_BAR + percent + eta + sum(extras) + 3 + len(extras))
    text = label if len(label) <= room else label[: max(room - 1, 0)] + "…"
    chosen: list[ProgressColumn] = [
        TextColumn(text, markup=False),
        BarColumn(bar_width=None),
        TaskProgressColumn(),
    ]
    if count in extras and len(extras) == 2:
        chosen.append(MofNCompleteColumn())
    if extras:
        chosen.append(TimeElapsedColumn())
    chosen += [TextColumn("ETA"), TimeRemainingColumn()]
    return tuple(chosen)


class StderrProgress:
    """A rich progress bar on a terminal; on a pipe, a plain line every few seconds."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self._bar: Progress | None = None
        self._task = None
        self._label = ""
        self._total = 0
        self._done = 0
        self._began = 0.0
        self._last_line = 0.0
        self._width = 0

    @cached_property
    def console(self) -> Console:
        from rich.console import Console

        return Console(stderr=True)

    def start(self, label: str, total: int) -> None:
        self._label, self._total, self._done = label, total, 0
        self._began = self._last_line = time.perf_counter()

    def advance(self, units: int) -> None:
        self._done += units
        if self.quiet:
            return
        elapsed = time.perf_counter() - self._began
        if elapsed < SHOW_AFTER_SECONDS:
            return
        if self.console.is_terminal:
            self._update_bar()
        elif time.perf_counter() - self._last_line > PLAIN_EVERY_SECONDS:
            self._last_line = time.perf_counter()
            print(f"{self._label}: {self._plain(elapsed)}", file=sys.stderr)

    def _plain(self, elapsed: float) -> str:
        if not self._total:  # a job that cannot say how much work it has (a search)
            return f"running for {elapsed:,.0f} s; how much is left is not known"
        share = self._done / self._total
        eta = elapsed * (1 - share) / share if share > 0 else float("inf")
        return f"{share:.1%} done, about {eta:,.0f} s left"

    @contextmanager
    def compiling(self, kind: str) -> Iterator[None]:
        """A spinner while kernels compile; their time is said once they are ready."""
        what = f"compiling kernels for {kind or 'this spec'} (first run only)"
        began = time.perf_counter()
        if self.quiet:
            yield
            return
        if self.console.is_terminal:
            with self.console.status(what):
                yield
        else:
            yield
        seconds = time.perf_counter() - began
        if seconds >= SAY_COMPILE_AFTER_SECONDS:
            print(f"{what}: ready in {seconds:.1f} s", file=sys.stderr)

    def note(self, line: str) -> None:
        if not self.quiet:
            print(line, file=sys.stderr)

    def _update_bar(self) -> None:
        width = self.console.width
        if self._bar is None:
            from rich.progress import Progress

            self._bar = Progress(console=self.console, transient=True, expand=True)
            self._bar.start()
            self._task = self._bar.add_task(self._label, total=self._total or None)
        if width != self._width:  # the terminal was resized: lay the line out again
            self._width = width
            self._bar.columns = columns_for(width, self._label, self._total)
        self._bar.update(self._task, completed=self._done)

    def finish(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
            self._width = 0
