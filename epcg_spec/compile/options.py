"""The command-line options kinds add to build, count and sample, by kind.

Kept apart from the domains so that the command line can list every kind's options without
importing the kinds: a build imports only the kind its spec names. A kind's DOMAIN.options
is its entry here.
"""

from __future__ import annotations

import click

from .protocols import CliOption

NESTED_MAX_DEPTH = 32  # as the nested schema's `depth` allows: deeper trees nest past JSON's
# and Python's recursion limits (a chain of 400 levels did), and no nested spec needs them

OPTIONS: dict[str, tuple[CliOption, ...]] = {
    "fling": (
        CliOption(  # not sample's: it judges each board it draws alone, with no layers
            "layers-dir",
            "Folder of the stored retrograde layers (default: the cache)",
            "PATH",
            ("build", "count"),
        ),
    ),
    "nested": (
        CliOption(
            "at",
            "Start at the element at this path, e.g. universe/galaxy[2]",
            "PATH",
            ("build", "sample"),
        ),
        CliOption(
            "depth",
            "How many levels below the --at element to show",
            "LEVELS",
            ("build", "sample"),
            click.IntRange(min=0, max=NESTED_MAX_DEPTH),
        ),
    ),
    "rooms": (
        CliOption(
            "steps",
            "Pause after this many guesses (continue with --resume)",
            "N",
            ("build",),
            click.IntRange(min=1),
        ),
    ),
    "tracery": (CliOption("origin", "Expand this rule text instead of the spec's origin", "RULE"),),
}
