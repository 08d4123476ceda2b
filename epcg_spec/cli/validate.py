"""`epcg-spec validate`: every spec under the given paths, one line per problem."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import SpecError, UsageError
from ..spec.load import check_document, discover, load_document
from .errors import INVALID, OK, USAGE


def validate_paths(paths: list[Path], quiet: bool) -> int:
    """Check every spec found; 0 if all are valid, 1 if any is not, 2 on a usage error."""
    valid = invalid = skipped = 0
    usage_problem = False
    for path, explicit in discover(paths):
        try:
            doc = load_document(path)
            if not explicit and not _is_spec(doc):
                skipped += 1
                continue
            check_document(doc, {})
            valid += 1
        except SpecError as exc:
            invalid += 1
            for diagnostic in exc.diagnostics:
                click.echo(str(diagnostic))
        except UsageError as exc:
            if explicit:
                usage_problem = True
                click.echo(f"usage error: {exc}", err=True)
            else:
                skipped += 1
    if not quiet:
        note = f"; skipped {skipped} files that are not specs" if skipped else ""
        print(
            f"{valid + invalid} specs checked: {valid} valid, {invalid} invalid{note}",
            file=sys.stderr,
        )
    if usage_problem:
        return USAGE
    return INVALID if invalid else OK


def _is_spec(doc) -> bool:
    """In a folder walk, only mappings with a `kind` (or read by a format) count as specs."""
    return doc.format != "yaml" or (isinstance(doc.data, dict) and "kind" in doc.data)
