"""A block that must end in time: a test of a read that once waited forever (a pipe)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


def _timed_out(signum, frame):
    raise TimeoutError("read a pipe, waiting for a writer")


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Raise TimeoutError inside the block once `seconds` have passed (SIGALRM)."""
    previous = signal.signal(signal.SIGALRM, _timed_out)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
