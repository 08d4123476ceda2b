"""The contracts between the CLI, the domains (spec kinds) and the back ends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..core.context import RunContext, RunOutput
from ..spec.document import Document


@dataclass(frozen=True)
class CliOption:
    """A command-line option a domain adds to some of build, count and sample (--origin)."""

    name: str
    help: str
    metavar: str = "TEXT"
    commands: tuple[str, ...] = ("build", "count", "sample")
    type: Any = str  # a click type: values arrive checked and converted


@dataclass
class Format:
    """A reader for an existing file format (a Tracery JSON grammar, a WFC samples.xml...)."""

    name: str
    suffixes: tuple[str, ...]
    sniff: Callable[[Path, str], bool]
    read: Callable[[Path, str], Document]


class Problem(Protocol):
    """A compiled spec: generator, evaluators and the chosen back end, ready to run."""

    name: str
    kind: str
    backend: str

    def explain(self) -> list[tuple[str, str]]:
        """Rows (label, text) describing the compiled problem, for `epcg-spec explain`."""
        ...

    def space_size(self) -> int | None:
        """The exact number of candidate states, or None where it is not finite or known."""
        ...

    def run(self, ctx: RunContext) -> RunOutput:
        """Run the back end and return the result (`epcg-spec build`)."""
        ...


@runtime_checkable
class Countable(Protocol):
    """A problem that can count its content exactly (`epcg-spec count`)."""

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput: ...


@runtime_checkable
class Samplable(Protocol):
    """A problem whose content can be addressed by rank or sampled (`epcg-spec sample`).

    A kind whose problems are not says what gives its content instead, in its domain's
    `sample_instead`: the flags of the build to run ("--seed N", or "") and what it does,
    for the refusal's hint and `epcg-spec kinds`. A problem whose spec's mode differs
    says so in `sample_instead()` (None: the kind's).
    """

    def sample(
        self, ctx: RunContext, ranks: list[int] | None, n: int, distinct: bool
    ) -> RunOutput: ...


@runtime_checkable
class Distributable(Protocol):
    """A problem whose driver jobs a cluster worker can rebuild from the spec alone."""

    def job(self, name: str, args: dict[str, Any], ctx: RunContext) -> Any:
        """The driver job `name` (with `args`), the same here and on a worker (see
        search/cluster.py); it sets the job's `remote` to (name, args)."""
        ...


class Domain(Protocol):
    """One kind of content: its schema, its semantic checks and its compiler."""

    kind: str
    schema: str
    summary: str
    formats: tuple[Format, ...]
    options: tuple[CliOption, ...]

    def load(self, doc: Document, params: dict[str, Any]) -> Any:
        """Build the typed spec from a schema-valid document; raise SpecError on bad content.

        Must be fast and must not compile kernels: `epcg-spec validate` calls it. A problem
        that does not stop the spec (Tracery renders on) goes in the typed spec's
        `warnings`, a tuple of located Diagnostics, which `validate` and `build` print.
        `params` overrides the spec's own parameters (from `--param name=value`).
        """
        ...

    # optional: check_despite(doc, params, broken) -> list[Diagnostic], the semantic problems
    # of the parts a document's schema violations (at the document paths `broken`) leave
    # sound, reported with them in one run (witness has it; see spec/load.py)

    def compile(self, spec: Any, options: dict[str, Any] | None = None) -> Problem:
        """Compile the typed spec into a runnable problem; `options`, the kind's own given
        to the run (`--origin`...), as `explain` and `space_size` are to describe it."""
        ...
