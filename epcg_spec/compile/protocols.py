"""The contracts between the CLI, the domains (spec kinds) and the back ends."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..spec.document import Document


class Progress(Protocol):
    """Progress of long work: `total` units announced, `advance` as they complete."""

    def start(self, label: str, total: int) -> None: ...
    def advance(self, units: int) -> None: ...
    def finish(self) -> None: ...
    def compiling(self, kind: str) -> AbstractContextManager[None]:
        """Shown while kernels compile (first run only), apart from the work's rate and ETA."""
        ...


@dataclass
class RunContext:
    """Everything a run needs beyond the spec: seed, threads, where to write and resume,
    and the driver's flags (see search/driver.py)."""

    seed: int = 0
    threads: int | None = None
    progress: Progress | None = None
    work_dir: Path | None = None
    resume: bool = False
    fresh: bool = False
    shard: tuple[int, int] = (0, 1)
    time_limit: float | None = None
    limit: int | None = None  # count: stop after this many (the count is then a lower bound)
    unit_limit: int | None = None  # stop this run after this many units (rooms --steps)
    budget_seconds: float | None = None  # stop at once ("too long") if the run would take longer
    kind: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    allow_python: bool = False  # may the spec's Python hooks be imported (run)? see docs/trust.md


@dataclass
class RunOutput:
    """What a run produced: result.json's content, extra files, and a readable summary."""

    result: dict[str, Any]
    artifacts: dict[str, bytes | str] = field(default_factory=dict)
    summary: list[str] = field(default_factory=list)
    stopped: str | None = None  # None: complete; else why the driver stopped early


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


class Countable(Protocol):
    """A problem that can count its content exactly (`epcg-spec count`)."""

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput: ...


class Samplable(Protocol):
    """A problem whose content can be addressed by rank or sampled (`epcg-spec sample`)."""

    def sample(
        self, ctx: RunContext, ranks: list[int] | None, n: int, distinct: bool
    ) -> RunOutput: ...


class Domain(Protocol):
    """One kind of content: its schema, its semantic checks and its compiler."""

    kind: str
    schema: str
    summary: str
    formats: tuple[Format, ...]
    options: tuple[CliOption, ...]

    def load(self, doc: Document, params: dict[str, Any]) -> Any:
        """Build the typed spec from a schema-valid document; raise SpecError on bad content.

        Must be fast and must not compile kernels: `epcg-spec validate` calls it.
        `params` overrides the spec's own parameters (from `--param name=value`).
        """
        ...

    def compile(self, spec: Any) -> Problem:
        """Compile the typed spec into a runnable problem."""
        ...
