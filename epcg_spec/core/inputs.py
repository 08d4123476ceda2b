"""The files a spec reads while it loads (sample images, maps, tilesets, grammars, other
specs), each with the sha256 of its bytes: part of every checkpoint's key and of result.json,
so that a resume or a merge never mixes two versions of a file.

Every file a spec names is read through `files.read_bounded`, which reports what it read to
the innermost `recording()` block: one mechanism for every kind, with nothing for a kind to
add. A block inside another (a rooms spec loading the nested spec it names) passes its
reads on to the outer one.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_recorder: ContextVar[dict[str, str] | None] = ContextVar("epcg_spec_reads", default=None)


@contextmanager
def recording() -> Iterator[dict[str, str]]:
    """{path as read: "sha256:..."} of every file read in the block, filled as it runs."""
    reads: dict[str, str] = {}
    token = _recorder.set(reads)
    try:
        yield reads
    finally:
        _recorder.reset(token)
        outer = _recorder.get()
        if outer is not None:
            outer.update(reads)


ABSENT = "absent"
"""What is recorded for a file a kind looked for and does without (a Tiled tileset's image,
drawn in stand-in colours): adding it later changes the run as editing it would."""


def note(path: Path, data: bytes | None) -> None:
    """Record that `data` was read from `path` (None: it is absent), if a `recording()`
    block is open."""
    reads = _recorder.get()
    if reads is not None:
        digest = ABSENT if data is None else "sha256:" + hashlib.sha256(data).hexdigest()
        reads[os.fspath(path)] = digest


def relative_to(reads: dict[str, str], folder: Path) -> dict[str, str]:
    """`reads` keyed by each path relative to `folder` (the spec's), with '/' between
    parts, in sorted order: the same whatever the folder the tool was started from, and
    whether the spec was named through a symbolic link or not (some kinds read their files
    at their resolved paths)."""
    base = os.path.realpath(folder)
    named = {
        Path(os.path.relpath(os.path.realpath(path), base)).as_posix(): digest
        for path, digest in reads.items()
    }
    return dict(sorted(named.items()))


def changed_file(before: dict[str, str], after: dict[str, str]) -> str | None:
    """The first path (in sorted order) read with another digest, or read by one only."""
    paths = sorted(before.keys() | after.keys())
    return next((path for path in paths if before.get(path) != after.get(path)), None)
