"""Writing files so that a reader never sees half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, content: str | bytes) -> None:
    """Write `content` to a temporary file beside `path`, then rename it into place.

    The folder is created if it does not exist yet.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_all(folder: Path, files: dict[str, str | bytes]) -> list[Path]:
    """Write every file of `files` (name -> content) into `folder`, each atomically.

    The folder is created if needed; if any write fails, the files this call already
    wrote are removed again, so a failed build leaves nothing half-written behind.
    """
    folder = Path(folder)
    created_folder = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    try:
        for name, content in files.items():
            target = folder / name
            atomic_write(target, content)
            written.append(target)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        if created_folder and not any(folder.iterdir()):
            folder.rmdir()
        raise
    return written
