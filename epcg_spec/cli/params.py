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


class OnceCommand(click.Command):
    """A command that refuses an option of one value given twice: the first would be
    ignored without a word (`--seed 1 --seed 2` built seed 2)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        _, _, order = self.make_parser(ctx).parse_args(args=list(args))
        seen: set[str | None] = set()
        for param in order:
            if isinstance(param, click.Option) and not (param.multiple or param.is_flag):
                if param.name in seen:
                    raise click.UsageError(f"{param.opts[-1]} is given twice; give it once", ctx)
                seen.add(param.name)
        return super().parse_args(ctx, args)
