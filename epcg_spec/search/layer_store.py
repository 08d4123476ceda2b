"""A folder of finished files (the retrograde layers) that many runs share safely.

Each finished file `NAME` has a manifest `NAME.manifest` beside it: the file's size and
SHA-256, the record the caller keeps with it (e.g. a count), and a checksum of the manifest
itself. A file is published by writing its manifest atomically, then renaming the finished
work file into place: a manifest without its file is a publication under way (or stopped),
and counts as missing; a file without its manifest never comes from a publication.

Reading checks before trusting: `record` checks the manifest, the name and the size, and the
whole checksum when the file is at most FULL_CHECK_BYTES (cheap); `read_bits` and
`read_array` always check the whole checksum, as they read the file. A damaged file
(truncated, changed bytes, a missing or stale manifest) is reported in one line on stderr
and treated as missing: the caller computes it again and publishes it over the damaged one.

Work on a file happens under `lock(key)`, a `filelock` lock in `locks/`: a second run that
needs the same work waits for the first (and says so), then finds the file published. The
operating system drops the lock of a run that dies, so a killed run never blocks others.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from filelock import FileLock, Timeout

from ..core.errors import BuildError
from ..core.files import atomic_write, bounded_bytes
from ..core.seal import sealed, unsealed

MANIFEST = ".manifest"
FULL_CHECK_BYTES = 64 << 20  # files up to this size are hashed whole on every check
READ_CHUNK = 16 << 20
_REPORTED: set[str] = set()  # the damaged files this process has reported


class Damaged(BuildError):
    """A stored file that does not match its manifest (exit 1 if computing it again fails)."""

    def __init__(self, path: Path, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class LayerStore:
    """Finished files with manifests in `folder`; `say` gets the one-line reports."""

    def __init__(self, folder: Path, say: Callable[[str], None] = _stderr):
        self.folder = Path(folder)
        self.say = say

    def path(self, name: str) -> Path:
        """Where the file `name` (finished or in the works) lives."""
        return self.folder / name

    # ---- reading ----

    def record(self, name: str, full: bool = False) -> dict | None:
        """The record published with `name`, or None if it is missing or damaged. The
        checksum is checked whole when `full` or when the file is small."""
        try:
            manifest = self._manifest(name)
            if manifest is not None and (full or manifest["bytes"] <= FULL_CHECK_BYTES):
                self._check_digest(name, manifest, _file_digest(self.path(name)))
        except Damaged as damage:
            self._report(damage)
            return None
        return None if manifest is None else manifest["record"]

    def read_bits(self, name: str) -> np.ndarray:
        """A published file of uint64 words, read into memory and checked whole as it is
        read; raises Damaged (after reporting it) if it does not match its manifest."""
        return self._checked(name, _read_words)

    def read_array(self, name: str) -> np.ndarray:
        """A published .npy file, checked whole, then memory-mapped; raises Damaged (after
        reporting it) if it does not match its manifest."""
        self._checked(name, lambda path, size: (None, _file_digest(path)))
        return np.load(self.path(name), mmap_mode="r")

    def find_array(self, name: str) -> np.ndarray | None:
        """`read_array`, or None if the file is missing or damaged."""
        try:
            return self.read_array(name)
        except Damaged:
            return None

    def _checked(self, name: str, read: Callable[[Path, int], tuple[Any, str]]) -> Any:
        """What read(path, size) -> (value, digest) gives, once the digest is checked; a
        damaged file is reported, a missing one is not (both raise Damaged)."""
        try:
            manifest = self._manifest(name)
            if manifest is not None:
                value, digest = read(self.path(name), manifest["bytes"])
                self._check_digest(name, manifest, digest)
        except Damaged as damage:
            self._report(damage)
            raise
        if manifest is None:
            raise Damaged(self.path(name), "missing")
        return value

    def _manifest(self, name: str) -> dict | None:
        """The manifest of `name` if both exist and agree on the name and size; None if
        the file does not exist; raises Damaged otherwise."""
        path, sums = self.path(name), self.path(name + MANIFEST)
        if not sums.exists():
            if path.exists():
                raise Damaged(path, "it has no manifest")
            return None
        try:  # bounded: a pipe in its place (a store shared by others) waited forever
            manifest = json.loads(bounded_bytes(sums))
        except (OSError, ValueError):
            manifest = None
        body = unsealed(manifest)
        if body is None or body.get("name") != name:
            raise Damaged(path, "its manifest is damaged or belongs to another file")
        if not path.exists():
            return None  # being published, or a run stopped before the rename
        size = path.stat().st_size
        if size != manifest["bytes"]:
            raise Damaged(path, f"{size:,} bytes, its manifest says {manifest['bytes']:,}")
        return manifest

    def _check_digest(self, name: str, manifest: dict, digest: str) -> None:
        if digest != manifest["sha256"]:
            raise Damaged(self.path(name), "its SHA-256 differs from its manifest's")

    def _report(self, damage: Damaged) -> None:
        """One line per damaged file and run."""
        key = str(damage.path)
        if key not in _REPORTED:
            _REPORTED.add(key)
            self.say(f"damaged: {damage}; it will be computed again")

    # ---- writing ----

    def publish(self, name: str, work: Path, record: dict) -> None:
        """Write the manifest of the finished file `work`, then rename it to `name`."""
        body = {
            "name": name,
            "bytes": work.stat().st_size,
            "sha256": _file_digest(work),
            "record": record,
        }
        atomic_write(self.path(name + MANIFEST), json.dumps(sealed(body)))
        os.replace(work, self.path(name))
        _REPORTED.discard(str(self.path(name)))

    def publish_array(self, name: str, array: np.ndarray, record: dict) -> None:
        """Publish `array` as `name`: .npy format if the name ends so, else raw words."""
        self.folder.mkdir(parents=True, exist_ok=True)
        work = self.path(f".{name}.{os.getpid()}.work")
        with open(work, "wb") as handle:
            if name.endswith(".npy"):
                np.save(handle, array)
            else:
                array.tofile(handle)
        self.publish(name, work, record)

    @contextmanager
    def lock(self, key: str, what: str) -> Iterator[None]:
        """Hold the lock on `key` (e.g. one layer), waiting for (and saying that we wait
        for) another run that holds it."""
        (self.folder / "locks").mkdir(parents=True, exist_ok=True)
        lock = FileLock(self.folder / "locks" / f"{key}.lock")
        try:
            lock.acquire(timeout=0)
        except Timeout:
            self.say(f"waiting for another run that is computing {what}")
            lock.acquire()
        try:
            yield
        finally:
            lock.release()


def _file_digest(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _read_words(path: Path, size: int) -> tuple[np.ndarray, str]:
    """The file's first `size` bytes as uint64 words, and the SHA-256 of what was read,
    in one pass."""
    words = np.zeros(size // 8, np.uint64)
    view = memoryview(words).cast("B")
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        at = 0
        while at < len(view):
            got = handle.readinto(view[at : at + READ_CHUNK])
            if not got:
                break
            digest.update(view[at : at + got])
            at += got
    return words, digest.hexdigest()
