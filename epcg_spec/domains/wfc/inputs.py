"""What every wfc loader shares: located problems collected in one pass, images read safely."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from ...core.errors import Diagnostic, SpecError
from ...core.files import read_bounded
from ...spec.document import Document
from ...spec.document import Path as DocPath


class Problems:
    """Collects located diagnostics; raises them all at the end."""

    def __init__(self) -> None:
        self.found: list[Diagnostic] = []

    def add(self, doc: Document, path: DocPath, message: str, hint: str = "") -> None:
        self.found.append(doc.diag(path, message, hint))

    def raise_any(self) -> None:
        if self.found:
            raise SpecError(self.found)


def read_image(doc, path, relative: str, folder: Path, problems: Problems) -> np.ndarray | None:
    """An RGB image relative to the spec's folder, or None with a located problem."""
    file = (folder / relative).resolve()
    try:
        with Image.open(io.BytesIO(read_bounded(file))) as image:
            return np.asarray(image.convert("RGB"))
    except FileNotFoundError:
        problems.add(doc, path, f"no image at {file}", "paths are relative to the spec's folder")
    except (UnidentifiedImageError, OSError) as exc:
        problems.add(doc, path, f"cannot read the image {file}: {exc}")
    return None
