"""MagicaVoxel .vox files, read and written from the published chunk format (version 150).

A file is the magic "VOX ", a version (int32), then one MAIN chunk. Every chunk is a 4-byte id,
the byte length of its content (int32), the byte length of its children (int32), the content,
the children; integers are little-endian. MAIN's children hold one model as SIZE (x, y, z:
int32 each; z points up) and XYZI (a voxel count, then x, y, z, colour index: one byte each,
index 1..255), and the palette as RGBA (256 entries r, g, b, a; entry i is colour index i + 1).
Chunks we do not use (PACK, nTRN, nGRP, nSHP, MATL, LAYR, rOBJ, rCAM, NOTE, IMAP) are skipped.
A file without RGBA uses MagicaVoxel's default palette, which we do not reproduce: its colours
are read as grey levels (index i -> i) and its indices kept as they are.
"""

from __future__ import annotations

import struct

import numpy as np

from ...core.errors import Diagnostic, Pos, SpecError

VERSION = 150


def _chunk(name: bytes, content: bytes, children: bytes = b"") -> bytes:
    return name + struct.pack("<ii", len(content), len(children)) + content + children


def write_vox(
    shape: tuple[int, int, int], codes: np.ndarray, palette: dict[int, tuple[int, int, int]]
) -> bytes:
    """One model: `codes` per cell (x fastest, then y, then z; 0 = empty), `palette` per code."""
    if max(shape) > 256:
        raise ValueError("a .vox model is at most 256 voxels along each axis")
    grid = np.asarray(codes).reshape(shape[2], shape[1], shape[0])
    z, y, x = np.nonzero(grid)
    voxels = np.stack([x, y, z, grid[z, y, x]], axis=1).astype(np.uint8)
    xyzi = struct.pack("<i", len(voxels)) + voxels.tobytes()
    rgba = bytearray(256 * 4)
    for code, (r, g, b) in palette.items():
        rgba[(code - 1) * 4 : code * 4] = bytes((r, g, b, 255))
    children = (
        _chunk(b"SIZE", struct.pack("<iii", *shape))
        + _chunk(b"XYZI", xyzi)
        + _chunk(b"RGBA", bytes(rgba))
    )
    return b"VOX " + struct.pack("<i", VERSION) + _chunk(b"MAIN", b"", children)


def read_vox(data: bytes, source: str) -> tuple[np.ndarray, dict[int, tuple[int, int, int]]]:
    """((z, y, x) colour indices, 0 = empty; colour index -> RGB) of the file's one model."""

    def fail(message: str, hint: str = "") -> SpecError:
        return SpecError(Diagnostic(Pos(source, 1, 1), message, hint))

    if data[:4] != b"VOX " or len(data) < 20:
        raise fail("not a MagicaVoxel file (it does not start with 'VOX ')")
    if data[8:12] != b"MAIN":
        raise fail("the .vox file has no MAIN chunk after its header")
    sizes, models, palette = [], [], None
    at = 20 + struct.unpack_from("<i", data, 12)[0]  # MAIN's own content (none, normally)
    while at < len(data):
        if at + 12 > len(data):
            raise fail(f"the .vox file ends inside a chunk header at byte {at}")
        name = data[at : at + 4]
        content, children = struct.unpack_from("<ii", data, at + 4)
        body = data[at + 12 : at + 12 + content]
        if len(body) != content:
            raise fail(f"chunk {name!r} at byte {at} runs past the end of the file")
        if name == b"SIZE":
            sizes.append(struct.unpack_from("<iii", body))
        elif name == b"XYZI":
            count = struct.unpack_from("<i", body)[0]
            if 4 + 4 * count > len(body):
                raise fail(f"XYZI at byte {at} lists {count} voxels but holds fewer")
            models.append(np.frombuffer(body, np.uint8, 4 * count, 4).reshape(count, 4))
        elif name == b"RGBA":
            entries = np.frombuffer(body, np.uint8, 1024).reshape(256, 4)
            palette = {i + 1: tuple(int(c) for c in entries[i, :3]) for i in range(255)}
        at += 12 + content + children
    if len(models) != 1 or len(sizes) != 1:
        raise fail(
            f"the file holds {len(models)} models; one is read",
            "merge the models in MagicaVoxel, or save one per file",
        )
    x_size, y_size, z_size = sizes[0]
    if not all(1 <= side <= 256 for side in sizes[0]):  # a voxel's x, y, z are bytes
        raise fail(
            f"the model's SIZE is {x_size} x {y_size} x {z_size}; a MagicaVoxel model is 1 to "
            "256 voxels a side"
        )
    grid = np.zeros((z_size, y_size, x_size), dtype=np.int64)
    voxels = models[0].astype(np.int64)
    if len(voxels) and (voxels[:, :3] >= np.array([x_size, y_size, z_size])).any():
        raise fail("a voxel lies outside the model's SIZE")
    grid[voxels[:, 2], voxels[:, 1], voxels[:, 0]] = voxels[:, 3]
    if palette is None:
        palette = {i: (i, i, i) for i in range(1, 256)}
    return grid, palette
