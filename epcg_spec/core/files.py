"""Writing files: contained in their folder, never seen half-written, output sets replaced
in one step.

Every path the tool writes under a folder it was given (the output folder, the cache) goes
through `contained`. A build's output set goes through `write_set`: the whole set is written
into a staging folder beside the target, then swapped into place with one rename, so after a
kill the target holds the old set or the new set, never a mix. Staging folders and temporary
files carry the id of the process that made them; `clean_stale` removes those of processes
that no longer run, and every build calls it before it starts writing. `held` keeps a
second build out of a folder while one writes it.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import secrets
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from filelock import FileLock, Timeout

from . import inputs
from .errors import BuildError, UsageError

MANIFEST = ".epcg-outputs.json"  # the names of the set, written first into the staging folder
LOCK = ".epcg-lock"  # held by the one build (or merge) writing the folder
ADVANCE_EVERY = 1024  # files written between two calls of write_set's `advance`
_STAGING = re.compile(r"^\.(?P<name>.+)\.epcg-(?P<role>new|old)-(?P<pid>\d+)-[0-9a-f]+$")
_TEMPORARY = re.compile(r"^\..+\.(?P<pid>\d+)\.[^.]+\.tmp$")
_AT_FDCWD, _RENAME_EXCHANGE = -100, 2


MAX_INPUT_BYTES = 64 << 20  # a spec, or a file one names: far above any real one


class NotReadable(OSError):
    """A file refused before it is read: not a regular file, or larger than allowed."""


def read_bounded(path: Path, most: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a spec or of a file a spec names (`bounded_bytes`), noted with their
    digest by an open `inputs.recording()` (a spec's input files)."""
    data = bounded_bytes(path, most)
    inputs.note(Path(path), data)
    return data


def bounded_bytes(path: Path, most: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of `path`, refused (NotReadable) unless it is a regular file of at most
    `most` bytes: a device, a pipe or a file that never ends (/dev/zero, a FIFO, some /proc
    files) would otherwise hang the reader or fill memory."""
    path = Path(path)
    too_large = NotReadable(f"{path} is larger than {most >> 20} MiB")
    if path.exists():  # else open says so
        if not path.is_file():
            raise NotReadable(f"{path} is not a regular file")
        if path.stat().st_size > most:
            raise too_large
    parts, total = [], 0
    with open(path, "rb") as handle:  # in parts: some files say size 0 and are not empty
        while part := handle.read(1 << 20):
            total += len(part)
            if total > most:
                raise too_large
            parts.append(part)
    return b"".join(parts)


def unopenable(path: Path | str) -> str | None:
    """Why no file on this system can have the name `path` (a NUL character in it, a name or
    the whole path too long), or None: a file of that name may or may not exist."""
    text = os.fspath(path)
    if "\0" in text:
        return "a file name cannot hold a NUL character"
    try:
        os.stat(text)
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return "the path is longer than this system allows a file name or path to be"
    return None


def slug(text: str) -> str:
    """`text` as a spec name (the pattern of common.schema.json): runs of other characters
    become '-', e.g. a file name's stem 'My Grammar' -> 'My-Grammar'."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", text).lstrip("._-")[:100].rstrip("-")
    return cleaned or "spec"


def contained(root: Path, name: str | Path) -> Path:
    """`root / name` resolved; refused (exit 1) if it would lie outside `root`."""
    base = Path(root).resolve()
    path = (base / name).resolve()
    if base not in path.parents:
        raise BuildError(
            f"refusing to write {name}: it would lie outside {root}; "
            f"output names must be plain file names"
        )
    return path


def output_folder(out: str | None, name: str, default_root: str = "out") -> Path:
    """The folder a build writes: `out`, else `default_root/name` (checked to stay inside
    it); cleaned of what killed runs left there, before the run starts."""
    folder = Path(out) if out else Path(default_root) / name
    if not out:
        contained(Path(default_root), name)
    clean_stale(not_a_file(folder))
    return folder


def not_a_file(folder: Path, flag: str = "--out", given: Path | None = None) -> Path:
    """`folder`, or a usage error if it, or a folder above it, is a file (naming `flag` and
    the path it was `given`, by default the folder itself)."""
    for place in (folder, *folder.parents):
        if place.is_dir():
            break
        if place.exists():
            raise UsageError(f"{flag} {given or folder}: {place} is a file, not a folder")
        if place.is_symlink() and loops(place):
            raise UsageError(f"{flag} {given or folder}: {place} is a link that leads to itself")
    return folder


def loops(link: Path) -> bool:
    """Whether following the symbolic link `link` comes back to it (ELOOP)."""
    try:
        os.stat(link)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def why_absent(path: Path) -> str:
    """Why `path`, which does not exist, cannot be read: no such file, or a link that
    leads to itself or to nothing."""
    if not path.is_symlink():
        return "no such file"
    if loops(path):
        return "a symbolic link that leads to itself"
    return f"a symbolic link to {os.readlink(path)}, which does not exist"


@contextmanager
def held(folder: Path, flag: str = "--out") -> Iterator[None]:
    """Hold `folder` for one build: another build or merge into it meanwhile stops at once
    (exit 1). A folder made only to hold the lock goes again if nothing else was written."""
    folder = Path(folder)
    made = not folder.exists()
    lock = FileLock(folder / LOCK)
    try:  # from the first step: Ctrl-C while the lock file is being made leaves nothing
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a path the system refuses: /proc/x, a read-only disk
            made = False
            raise BuildError(f"{flag} {folder}: cannot make this folder ({exc.strerror})") from None
        _plain_lock(folder / LOCK, flag)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            made = False  # another build holds the folder: its lock stays
            raise BuildError(
                f"{folder}: another build is writing this folder now; wait for it to end, "
                f"or give another {flag}"
            ) from None
        yield
    finally:
        if made and [entry.name for entry in _entries(folder)] in ([LOCK], []):
            (folder / LOCK).unlink(missing_ok=True)
            lock.release()
            with suppress(OSError):  # something came in meanwhile: the folder stays
                os.rmdir(folder)
        else:
            lock.release()


def _plain_lock(path: Path, flag: str) -> None:
    """Refuse (BuildError) a lock path that is a link or a folder: a folder from elsewhere
    may hold one, and a lock opened through a link may empty the file it names."""
    what = "link" if path.is_symlink() else "folder" if path.is_dir() else None
    if what is not None:
        raise BuildError(
            f"{path}: not a lock file a build made (a {what}); remove it, or give another {flag}"
        )


def atomic_write(path: Path, content: str | bytes, flag: str | None = None) -> None:
    """Write `content` to a temporary file beside `path`, then rename it into place.

    The folder is created if it does not exist yet. `flag`: the option that named `path`;
    then a path the system refuses (/proc/x, a folder that cannot be made) is a BuildError
    naming it, not an error of ours.
    """
    path = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    tmp = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_new(str(tmp), data)  # mode 0666 less the umask, as the files of a set
        os.replace(tmp, path)
    except BaseException as exc:
        with suppress(OSError):  # in a folder that could not be made, there is none
            tmp.unlink(missing_ok=True)
        if flag is not None and isinstance(exc, OSError):
            raise BuildError(f"{flag} {path}: cannot write it here ({exc.strerror})") from None
        if isinstance(exc, OSError) and exc.filename == str(tmp):  # say which file it was
            exc.filename = str(path)  # (the rename onto a folder: "Is a directory")
        raise


def write_set(
    folder: Path, files: dict[str, str | bytes], advance: Callable[[int], None] | None = None
) -> list[Path]:
    """Replace the output set in `folder` by `files` (name -> content) in one step, calling
    `advance(n)` as each n more are written.

    Files in `folder` that are not part of the previous set (a checkpoint, the spec itself,
    anything of the user's) are kept; the previous set's files that the new set lacks go.
    """
    target = Path(folder).resolve()
    names = _relative_names(target, list(files))
    cwd = Path.cwd().resolve()
    if cwd == target or target in cwd.parents:
        raise UsageError(
            f"the output folder {folder} holds the current folder; it is replaced as a whole "
            f"when a build ends, so give --out a folder below the current one or elsewhere"
        )
    not_a_file(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(target)
    staging = _staging(target, "new")
    os.mkdir(staging)
    try:
        if target.is_dir():
            shutil.copymode(target, staging)
        (staging / MANIFEST).write_text(json.dumps(sorted(names)), "utf-8")
        for done, (content, name) in enumerate(zip(files.values(), names, strict=True), 1):
            path = os.path.join(staging, name)
            if os.sep in name:
                os.makedirs(os.path.dirname(path), exist_ok=True)
            _write_new(path, content.encode("utf-8") if isinstance(content, str) else content)
            if advance is not None and (done % ADVANCE_EVERY == 0 or done == len(names)):
                advance(done % ADVANCE_EVERY or ADVANCE_EVERY)
        folders = _carry_over(target, staging, set(names))
        old = _swap(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if old is not None:
        for name in folders:
            os.rename(old / name, target / name)
        shutil.rmtree(old, ignore_errors=True)
    return [Path(folder) / name for name in names]


def _relative_names(target: Path, names: list[str]) -> list[str]:
    """Each name's path relative to `target` (resolved), each checked by `contained`; a
    plain file name that is no symbolic link in `target` is that name, with no look-up
    (a build writes thousands)."""
    links = {e.name for e in _entries(target) if e.is_symlink()}
    return [
        name
        if isinstance(name, str) and plain_name(name) and name not in links
        else str(contained(target, name).relative_to(target))
        for name in names
    ]


def plain_name(name: str) -> bool:
    """A file name with no folder in it, which `contained` would not change."""
    return name not in ("", ".", "..") and "/" not in name and os.path.split(name) == ("", name)


def _write_new(path: str, data: bytes) -> None:
    """Create the file `path` (it must not exist yet) holding `data`."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def clean_stale(target: Path) -> None:
    """Remove what killed runs left in and beside `target`: staging folders and temporary
    files of processes that no longer run (restoring a target a kill left missing)."""
    target = Path(target).resolve()
    for entry in _entries(target.parent):
        found = _STAGING.match(entry.name)
        if found and found["name"] == target.name and not _running(int(found["pid"])):
            path = Path(entry.path)
            if not target.exists() and found["role"] == "old":
                os.rename(path, target)  # killed between the two renames of _swap
                continue
            for name in _carried_folders(path, target):
                os.rename(path / name, target / name)
            shutil.rmtree(path, ignore_errors=True)
    for entry in _entries(target):
        found = _TEMPORARY.match(entry.name)
        if found and not _running(int(found["pid"])):
            Path(entry.path).unlink(missing_ok=True)


def _staging(target: Path, role: str) -> Path:
    return target.parent / f".{target.name}.epcg-{role}-{os.getpid()}-{secrets.token_hex(4)}"


def _entries(folder: Path) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return False  # this process is not writing while it cleans
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def in_output_set(path: Path) -> bool:
    """Whether `path` names a file (or folder) of the output set a build wrote beside it."""
    return Path(path).name in _set_names(Path(path).parent)


def _set_names(folder: Path) -> set[str]:
    """The top-level names of the output set recorded in `folder`'s manifest (none if it is
    absent, or not a list: a folder from elsewhere may hold anything there, a pipe too)."""
    try:
        names = json.loads(read_bounded(folder / MANIFEST))
    except (OSError, ValueError):
        return set()
    if not isinstance(names, list):
        return set()
    return {Path(n).parts[0] for n in names if isinstance(n, str) and Path(n).parts}


def _carry_over(target: Path, staging: Path, new: set[str]) -> list[str]:
    """Hard-link into `staging` the files of `target` outside its old set and the new one;
    return the names of such folders (moved after the swap)."""
    skip = _set_names(target) | {Path(n).parts[0] for n in new} | {MANIFEST}
    folders = []
    for entry in _entries(target):
        if entry.name in skip or _TEMPORARY.match(entry.name):
            continue
        if entry.is_dir(follow_symlinks=False):
            folders.append(entry.name)
            continue
        try:
            os.link(entry.path, staging / entry.name, follow_symlinks=False)
        except OSError:
            shutil.copy2(entry.path, staging / entry.name, follow_symlinks=False)
    return folders


def _carried_folders(stale: Path, target: Path) -> list[str]:
    """Folders of a stale staging folder that belong in `target`: not in its set, not there."""
    skip = _set_names(stale)
    return [
        e.name
        for e in _entries(stale)
        if e.is_dir(follow_symlinks=False)
        and e.name not in skip
        and not (target / e.name).exists()
        and target.is_dir()
    ]


def _swap(staging: Path, target: Path) -> Path | None:
    """Put `staging` in place of `target`; return where the old target now is (or None)."""
    if not target.exists():
        try:
            os.rename(staging, target)
            return None
        except OSError:
            if not target.exists():
                raise
    if _exchange(staging, target):
        return staging
    old = _staging(target, "old")
    os.rename(target, old)
    os.rename(staging, target)
    return old


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2); False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except AttributeError:
        return False
    code = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return code == 0
