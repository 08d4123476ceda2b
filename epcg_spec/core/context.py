"""What a run is given (RunContext) and what it gives back (RunOutput), and the progress
sink it reports to: the contract every command, back end and kind shares."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


@runtime_checkable  # so that the API can refuse an object that is not one
class Progress(Protocol):
    """Progress of long work: `total` units announced, `advance` as they complete."""

    def start(self, label: str, total: int) -> None: ...
    def advance(self, units: int) -> None: ...
    def finish(self) -> None: ...
    def compiling(self, kind: str) -> AbstractContextManager[None]:
        """Shown while kernels compile (first run only), apart from the work's rate and ETA."""
        ...

    def note(self, line: str) -> None:
        """A line about the run (e.g. a cluster's dashboard), shown apart from the bar."""


@dataclass(frozen=True)
class SpecSource:
    """A spec as a cluster worker rebuilds it: its text, the file name it was read from
    (its suffix says the syntax; files it names are found beside it), params and options;
    and the digests of the files it names, as read when it was loaded (core/inputs.py)."""

    text: str
    name: str
    params: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)  # {path: "sha256:..."}


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
    # stop at once ("too long") if the run would take longer, or once it has run this long
    # ("time budget") where its size is not known ahead
    budget_seconds: float | None = None
    kind: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    allow_python: bool = False  # may the spec's Python hooks be imported (run)? see docs/trust.md
    source: SpecSource | None = None  # what a cluster worker rebuilds the spec from
    cluster: Any = None  # a connected dask.distributed Client (--scheduler), see docs/cluster.md
    device: str = "cpu"  # "gpu": a kind with a GPU path runs its work there (--device)


@dataclass
class RunOutput:
    """What a run produced: result.json's content, extra files, and a readable summary."""

    result: dict[str, Any]
    artifacts: dict[str, bytes | str] = field(default_factory=dict)
    summary: list[str] = field(default_factory=list)
    stopped: str | None = None  # None: complete; else why the driver (or a count's limit) stopped
