"""The console script's first step, before numpy and numba load (a second or more): Ctrl-C
while they do stops it as it does later, in one line with exit 130, not with the traceback
of the import under way."""

from __future__ import annotations

import sys

from .errors import INTERRUPTED


def entry_point() -> None:
    """`epcg-spec`: load the command line, then run it."""
    try:
        from .main import entry_point as run
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED)
    run()
