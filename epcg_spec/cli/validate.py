"""`epcg-spec validate`: every spec under the given paths, one line per problem.

Three report formats: `text` (one `file:line:col: message` line per problem, for people and
editors), `json` (one document on stdout, for tools) and `github` (GitHub Actions workflow
commands, `::error file=...,line=...,col=...::message`, so problems show on the pull request).
In a folder walk, files that are not specs are skipped and each is reported with the reason.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from ..core.errors import Diagnostic, SpecError, UsageError
from ..core.sizes import counted
from ..spec.load import check_document, discover, load_document
from .errors import INVALID, OK, USAGE
from .params import GivenPath, OnceCommand

FORMATS = ("text", "json", "github")


@dataclass
class Report:
    """What a validate run found: problems per file, skipped files, usage errors."""

    valid: list[Path] = field(default_factory=list)
    invalid: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    warnings: dict[Path, tuple[Diagnostic, ...]] = field(default_factory=dict)
    skipped: dict[Path, str] = field(default_factory=dict)
    usage: dict[Path, str] = field(default_factory=dict)

    @property
    def checked(self) -> int:
        """How many specs were checked, valid or not."""
        return len(self.valid) + len(self.invalid)

    @property
    def only_usage_errors(self) -> bool:
        """Whether no path named could be read: a summary would say "0 specs checked" under
        the usage errors, as if something else had gone wrong."""
        return bool(self.usage) and not (self.checked or self.skipped)

    @property
    def exit_code(self) -> int:
        """2 on a usage error (a named file that cannot be read), 1 on an invalid spec, else 0."""
        if self.usage:
            return USAGE
        return INVALID if self.invalid else OK

    def summary(self) -> str:
        """One line: how many specs were checked, valid, invalid, skipped."""
        checked = counted(self.checked, "spec")
        text = f"{checked} checked: {len(self.valid)} valid, {len(self.invalid)} invalid"
        if self.skipped:
            skipped = counted(len(self.skipped), "file")
            what = "is not a spec" if len(self.skipped) == 1 else "are not specs"
            text += f"; skipped {skipped} that {what}"
        return text


def check_paths(paths: list[Path]) -> Report:
    """Check every spec found under `paths` (files, or folders searched recursively)."""
    report = Report()
    for path, explicit in discover(paths):
        try:
            doc = load_document(path)
            reason = None if explicit else _not_a_spec(doc.data, doc.format)
            if reason:
                report.skipped[path] = reason
                continue
            warnings = check_document(doc, {}).warnings
            report.valid.append(path)
            if warnings:
                report.warnings[path] = warnings
        except SpecError as exc:
            report.invalid[path] = exc.diagnostics
        except UsageError as exc:
            if explicit:
                report.usage[path] = str(exc)
            else:
                report.skipped[path] = str(exc).removeprefix(f"{path}: ").removeprefix(f"{path} ")
    return report


def _not_a_spec(data: Any, fmt: str) -> str | None:
    """Why a file met in a folder walk is not a spec, or None if it is one."""
    if fmt != "yaml":
        return None
    if isinstance(data, dict):
        return None if "kind" in data else "a mapping without a 'kind' key"
    if isinstance(data, list):
        return "its top level is a list, not a mapping with a 'kind'"
    if data is None:
        return "it is empty"
    return f"its top level is a {type(data).__name__}, not a mapping with a 'kind'"


def validate_paths(paths: list[Path], quiet: bool, fmt: str = "text") -> int:
    """Check every spec found and print the report in `fmt`; the exit code."""
    report = check_paths(paths)
    if fmt == "json":
        click.echo(json.dumps(to_json(report), indent=2))
    elif fmt == "github":
        for line in github_lines(report, quiet):
            click.echo(line)
    else:
        for diagnostics in (*report.invalid.values(), *report.warnings.values()):
            for diagnostic in diagnostics:
                click.echo(str(diagnostic))
        for message in report.usage.values():
            click.echo(f"usage error: {message}", err=True)
        if not quiet:
            for path, reason in report.skipped.items():
                click.echo(f"{path}: skipped: {reason}", err=True)
    if not (quiet or fmt == "json" or report.only_usage_errors):
        print(report.summary(), file=sys.stderr)
    return report.exit_code


def to_json(report: Report) -> dict[str, Any]:
    """The report as one JSON document (`--format json`)."""
    return {
        "checked": report.checked,
        "valid": [str(p) for p in report.valid],
        "invalid": [str(p) for p in report.invalid],
        "problems": _located(report.invalid),
        "warnings": _located(report.warnings),
        "skipped": [{"file": str(p), "reason": r} for p, r in report.skipped.items()],
        "usage_errors": [{"file": str(p), "message": m} for p, m in report.usage.items()],
        "exit_code": report.exit_code,
    }


def _located(diagnostics: dict[Path, Sequence[Diagnostic]]) -> list[dict[str, Any]]:
    """Each file's diagnostics as JSON objects: file, line, col, message, hint."""
    return [
        {
            "file": d.pos.path,
            "line": d.pos.line,
            "col": d.pos.col,
            "message": d.message,
            "hint": d.hint,
        }
        for found in diagnostics.values()
        for d in found
    ]


def github_lines(report: Report, quiet: bool) -> list[str]:
    """GitHub Actions workflow commands: an error per problem, a warning per warning, a
    notice per skipped file."""
    lines = []
    for command, found in (("error", report.invalid), ("warning", report.warnings)):
        for d in (d for diagnostics in found.values() for d in diagnostics):
            where = f"file={_prop(d.pos.path)},line={d.pos.line},col={d.pos.col}"
            lines.append(f"::{command} {where}::{_data(d.text)}")
    for path, message in report.usage.items():
        lines.append(f"::error file={_prop(str(path))}::{_data(message)}")
    if not quiet:
        for path, reason in report.skipped.items():
            lines.append(f"::notice file={_prop(str(path))}::{_data('skipped: ' + reason)}")
    return lines


def _data(text: str) -> str:
    """Escape a workflow command's message (GitHub's rules: %, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    """Escape a workflow command's property value (also ':' and ',')."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


@click.command(
    cls=OnceCommand, short_help="Check specs (files, or folders searched) without compiling."
)
@click.argument("paths", nargs=-1, required=True, type=GivenPath())
@click.option("--quiet", "-q", is_flag=True, help="Print problems only, no summary or skips.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text: file:line:col lines; json: one document; github: Actions annotations.",
)
def validate(paths: tuple[str, ...], quiet: bool, fmt: str) -> int:
    """Check specs (files, or folders searched recursively) without compiling anything."""
    return validate_paths([Path(p) for p in paths], quiet, fmt)
