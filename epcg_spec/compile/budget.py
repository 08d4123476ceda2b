"""Estimate before allocating: a build's memory, disk and time, judged before it starts.

A problem may offer `estimate(ctx) -> Estimate`, computed from the spec alone (instantly, with
no allocation). `check` refuses a build (exit 1, with the numbers) that needs more memory than
the machine, or a limit on this process, has available, more disk than is free where it
writes, or more than MAX_SECONDS; `build --force` skips the check. A MemoryError or a full disk
is never how a user learns a size.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.errors import BuildError

MAX_SECONDS = 24 * 3600.0  # beyond a day, a build is refused unless forced
_UNITS = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]


@dataclass(frozen=True)
class Estimate:
    """What a build will take; None where the spec alone cannot tell."""

    memory: float | None = None  # bytes held at the peak
    disk: float | None = None  # bytes written
    seconds: float | None = None
    disk_at: Path | None = None  # where the disk bytes go, if not the output folder
    lower_bound: bool = False  # each figure is at least what the build takes


def estimate_rows(estimate: Estimate, notes: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """`explain`'s rows for an estimate, of what it can tell; `notes` (by label) say what a
    figure counts."""
    how = "at least" if estimate.lower_bound else "about"
    figures = [
        ("estimated memory", estimate.memory, size_text),
        ("estimated disk", estimate.disk, size_text),
        ("estimated time", estimate.seconds, time_text),
    ]
    notes = notes or {}
    return [
        (label, f"{how} {text(value)}" + (f": {notes[label]}" if label in notes else ""))
        for label, value, text in figures
        if value is not None
    ]


def refuse_oversize(problem: object, ctx: object, folder: Path, on_cluster: bool = False) -> None:
    """Check the estimate of a problem that offers one (see `check`). A run on a cluster is
    not judged by its time: the estimate is of this machine's threads, and the cluster's are
    unknown until it connects (its memory and disk are still checked: the outputs land here)."""
    estimate = getattr(problem, "estimate", None)
    if callable(estimate):
        found = estimate(ctx)
        check(replace(found, seconds=None) if on_cluster else found, folder)


def bounded(count: int | float) -> float:
    """`count` as a float, capped where an exact integer would not fit one."""
    return float(min(count, 10**300))


def check(estimate: Estimate, folder: Path) -> None:
    """Refuse (BuildError, exit 1) a build beyond the machine's memory, disk or MAX_SECONDS."""
    problems = []
    available = available_memory()
    if estimate.memory is not None and available is not None and estimate.memory > available:
        problems.append(
            f"about {size_text(estimate.memory)} of memory ({size_text(available)} available)"
        )
    if estimate.disk is not None:
        free = free_disk(estimate.disk_at or folder)
        if estimate.disk > free:
            problems.append(f"about {size_text(estimate.disk)} of disk ({size_text(free)} free)")
    if estimate.seconds is not None and estimate.seconds > MAX_SECONDS:
        problems.append(
            f"about {time_text(estimate.seconds)} (more than the {time_text(MAX_SECONDS)} limit)"
        )
    if problems:
        raise BuildError(
            f"this build would need {'; '.join(problems)}; make the spec smaller, "
            f"or pass --force to start it anyway"
        )


def available_memory() -> float | None:
    """Bytes of memory a new allocation can have: the least of the machine's (Linux
    MemAvailable), the room under this process's address-space limit (`ulimit -v`) and
    under its cgroup's memory limit (a container's, a batch job's); None where none is
    known. Under such a limit the machine's free memory overstated it: the build then
    stopped with a MemoryError, or was killed."""
    rooms = (_machine_room(), _address_room(), _cgroup_room())
    known = [room for room in rooms if room is not None]
    return min(known) if known else None


def _machine_room() -> float | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return float(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return float(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def _address_room() -> float | None:
    try:
        import resource  # POSIX only
    except ImportError:
        return None
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            mapped = int(handle.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return None
    return float(max(limit - mapped, 1))


CGROUP_FILES = (  # limit, usage, and the page cache it may reclaim: v2, then v1, as a
    # container sees its own cgroup
    ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current", "inactive_file"),
    (
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
        "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        "total_inactive_file",
    ),
)
NO_CGROUP_LIMIT = 1 << 60  # v1 writes "no limit" as about 2**63; v2 as "max"


def _cgroup_room() -> float | None:
    for limit_file, usage_file, cache_key in CGROUP_FILES:
        try:
            limit = Path(limit_file).read_text("ascii").strip()
            usage = int(Path(usage_file).read_text("ascii"))
        except (OSError, ValueError):
            continue
        if not limit.isdigit() or int(limit) >= NO_CGROUP_LIMIT:
            return None
        return float(max(int(limit) - usage + _cgroup_cache(usage_file, cache_key), 1))
    return None


def _cgroup_cache(usage_file: str, key: str) -> int:
    """The cgroup's page cache not in use (memory.stat beside the usage file): counted in
    its usage, and given back when a build needs the memory."""
    try:
        for line in (Path(usage_file).parent / "memory.stat").read_text("ascii").splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


def free_disk(path: Path) -> float:
    """Free bytes on the file system that `path` (or its nearest existing parent) is on."""
    path = Path(path).resolve()
    while not path.exists():
        path = path.parent
    return float(shutil.disk_usage(path).free)


def size_text(count: float) -> str:
    """Bytes for people: 1.5 GiB, 2.3e+05 EiB."""
    unit = 0
    while count >= 1024 and unit < len(_UNITS) - 1:
        count /= 1024
        unit += 1
    return f"{count:,.1f} {_UNITS[unit]}" if count < 1e6 else f"{count:.2g} {_UNITS[unit]}"


def time_text(seconds: float) -> str:
    """Seconds for people: 45 s, 3.2 hours, 770 years."""
    for limit, unit, size in [(120, "s", 1), (7200, "minutes", 60), (172800, "hours", 3600)]:
        if seconds < limit:
            return f"{seconds / size:,.1f} {unit}" if size > 1 else f"{seconds:,.0f} s"
    days = seconds / 86400
    return f"{days:,.1f} days" if days < 730 else f"{days / 365.25:,.3g} years"
