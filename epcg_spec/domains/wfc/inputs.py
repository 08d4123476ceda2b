"""What every wfc loader shares: located problems collected in one pass, images read safely."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from PIL import Image, UnidentifiedImageError

from ...core.errors import Diagnostic, SpecError
from ...core.files import read_bounded, unopenable
from ...spec.document import Document
from ...spec.document import Path as DocPath


class Problems:
    """Collects located diagnostics; raises them all at the end."""

    def __init__(self) -> None:
        self.found: list[Diagnostic] = []

    def add(self, doc: Document, path: DocPath, message: str, hint: str = "") -> None:
        self.found.append(doc.diag(path, message, hint))

    def named_file(self, doc: Document, path: DocPath, folder: Path, relative: str) -> Path | None:
        """`relative` (to `folder`) resolved, or None with a located problem where no file
        can have that name (`core.files.unopenable`)."""
        if why := unopenable(folder / relative):
            self.add(doc, path, why)
            return None
        return (folder / relative).resolve()

    def raise_any(self) -> None:
        if self.found:
            raise SpecError(self.found)


def outside(
    key: str, cell: list[int], sizes: tuple[int, ...], negatives: bool = True
) -> tuple[str, str]:
    """What is wrong with a `cell` (written after `key`) beyond a grid of `sizes` (x, y[, z]),
    and each axis's range: from -n where `negatives` count back from the end."""
    ranges = [f"{axis} is 0-{n - 1}" for axis, n in zip("xyz", sizes, strict=False)]
    return (
        f"{key}{list(cell)} lies outside the {' x '.join(map(str, sizes))} grid",
        f"{', '.join(ranges[:-1])} and {ranges[-1]}" + (" (-1 is the last)" if negatives else ""),
    )


MAX_PIXELS = 1 << 24
"""Pixels an image a spec names may have (a 4096 x 4096 mask): a few kilobytes of PNG can
claim billions, which decoding would hold in memory."""


class TooLarge(ValueError):
    """An image of more pixels than its use allows."""


@contextmanager
def opened(data: bytes, max_pixels: int = MAX_PIXELS) -> Iterator[Image.Image]:
    """The image in `data`, its size checked before its pixels are decoded (TooLarge)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # checked here
        try:
            image = Image.open(io.BytesIO(data))
        except Image.DecompressionBombError:
            raise TooLarge("claims more than 178 million pixels") from None
    with image:
        if image.width * image.height > max_pixels:
            raise TooLarge(f"is {image.width} x {image.height} pixels")
        yield image


def read_image(
    doc, path, relative: str, folder: Path, problems: Problems, max_pixels: int = MAX_PIXELS
) -> np.ndarray | None:
    """An RGB image relative to the spec's folder, or None with a located problem."""
    file = problems.named_file(doc, path, folder, relative)
    if file is None:
        return None
    try:
        with opened(read_bounded(file), max_pixels) as image:
            return np.asarray(image.convert("RGB"))
    except FileNotFoundError:
        problems.add(doc, path, f"no image at {file}", "paths are relative to the spec's folder")
    except TooLarge as exc:
        problems.add(
            doc,
            path,
            f"the image {file} {exc}, more than the {max_pixels:,} pixels allowed here",
            "crop or scale it down",
        )
    except (UnidentifiedImageError, OSError) as exc:
        problems.add(doc, path, f"cannot read the image {file}: {exc}")
    return None
