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

VERSION = 150


VOX_SIDE = 256  # the most voxels along each axis of one .vox model


def _chunk(name: bytes, content: bytes, children: bytes = b"") -> bytes:
    return name + struct.pack("<ii", len(content), len(children)) + content + children


def write_vox(
    shape: tuple[int, int, int], codes: np.ndarray, palette: dict[int, tuple[int, int, int]]
) -> bytes:
    """One model: `codes` per cell (x fastest, then y, then z; 0 = empty), `palette` per code."""
    if max(shape) > VOX_SIDE:
        raise ValueError(f"a .vox model is at most {VOX_SIDE} voxels along each axis")
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


class NotVox(ValueError):
    """A file that is not a well-formed MagicaVoxel model; the message names the byte."""


_LEAST = {b"SIZE": 12, b"XYZI": 4, b"RGBA": 1024}  # bytes of content a chunk must hold


def read_vox(data: bytes) -> tuple[np.ndarray, dict[int, tuple[int, int, int]]]:
    """((z, y, x) colour indices, 0 = empty; colour index -> RGB) of the file's one model."""
    if data[:4] != b"VOX " or len(data) < 20:
        raise NotVox("not a MagicaVoxel file (it does not start with 'VOX ')")
    if data[8:12] != b"MAIN":
        raise NotVox("the .vox file has no MAIN chunk after its header")
    sizes, models, palette = [], [], None
    at = 20 + max(0, struct.unpack_from("<i", data, 12)[0])  # MAIN's own content (none, normally)
    while at < len(data):
        if at + 12 > len(data):
            raise NotVox(f"the .vox file ends inside a chunk header at byte {at}")
        name = data[at : at + 4]
        content, children = struct.unpack_from("<ii", data, at + 4)
        if content < 0 or children < 0 or at + 12 + content + children > len(data):
            raise NotVox(f"chunk {name!r} at byte {at} runs past the end of the file")
        body = data[at + 12 : at + 12 + content]
        if len(body) < _LEAST.get(name, 0):
            raise NotVox(f"chunk {name!r} at byte {at} holds {len(body)} bytes, too few")
        if name == b"SIZE":
            sizes.append(struct.unpack_from("<iii", body))
        elif name == b"XYZI":
            count = struct.unpack_from("<i", body)[0]
            if not 0 <= count <= (len(body) - 4) // 4:
                raise NotVox(f"XYZI at byte {at} lists {count} voxels but holds fewer")
            models.append(np.frombuffer(body, np.uint8, 4 * count, 4).reshape(count, 4))
        elif name == b"RGBA":
            entries = np.frombuffer(body, np.uint8, 1024).reshape(256, 4)
            palette = {i + 1: tuple(int(c) for c in entries[i, :3]) for i in range(255)}
        at += 12 + content + children
    if len(models) != 1 or len(sizes) != 1:
        raise NotVox(
            f"the file holds {len(models)} models; one is read (merge the models in "
            "MagicaVoxel, or save one per file)"
        )
    x_size, y_size, z_size = sizes[0]
    if not all(1 <= side <= 256 for side in sizes[0]):  # a voxel's x, y, z are bytes
        raise NotVox(
            f"the model's SIZE is {x_size} x {y_size} x {z_size}; a MagicaVoxel model is 1 to "
            "256 voxels a side"
        )
    grid = np.zeros((z_size, y_size, x_size), dtype=np.int64)
    voxels = models[0].astype(np.int64)
    if len(voxels) and (voxels[:, :3] >= np.array([x_size, y_size, z_size])).any():
        raise NotVox("a voxel lies outside the model's SIZE")
    grid[voxels[:, 2], voxels[:, 1], voxels[:, 0]] = voxels[:, 3]
    if palette is None:
        palette = {i: (i, i, i) for i in range(1, 256)}
    return grid, palette
