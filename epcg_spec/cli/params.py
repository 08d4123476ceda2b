"""Click parameter types shared by the commands."""

from __future__ import annotations

import click


class GivenPath(click.Path):
    """A path that must not be empty: '' would otherwise stand for the default (--out '')
    or the current folder, and the flag would be ignored without a word."""

    def convert(self, value, param, ctx):
        if value == "":
            self.fail("an empty path; give a file or folder name", param, ctx)
        return super().convert(value, param, ctx)
