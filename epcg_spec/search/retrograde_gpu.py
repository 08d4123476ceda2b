"""The retrograde back end's passes on a CUDA GPU: the CPU module's three block loops,
called with the same arguments, run by the GPU module's kernels (retrograde_gpu_loop.py)
over pieces of each block, one piece a thread.

The layers stay what they are on the CPU: bit arrays in the layer store's files, which the
host reads and writes. For one pass, each array a loop reads (the layer below, the tables)
and the layer's own words go to the device once; after each chunk the words of its blocks
come back to the store's files, so a pass stopped on one device goes on on the other.
The predecessor pass's ranks are packed on the device, in the CPU's order, before they
cross to the host.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from . import gpu

BLOCK_THREADS = 64  # CUDA threads per CUDA block
SCAN_PIECE = 256  # ranks a thread judges or fills: whole words, so a thread owns its words
PREDECESSOR_PIECE = 4  # unique states a thread takes the predecessors of
PREDECESSOR_LAUNCH = 1024  # the most predecessor blocks a launch takes: its scratch's bound
# what the GPU's module imports from the CPU's (retrograde_gpu_loop.py runs them)
CPU_NAMES = (
    "MAX_MOVES",
    "MAX_PREDECESSORS",
    "STATE_TYPE",
    "_fill_block",
    "_predecessor_block",
    "_scan_block",
)


class GpuLoops:
    """scan_blocks, fill_blocks and predecessor_blocks on the GPU, by the kernels of the GPU's
    `module`, for one pass."""

    def __init__(self, module: ModuleType):
        self.module = module
        self._sent: dict[int, tuple] = {}  # id(host array) -> (host array, device array)

    def scan_blocks(self, m, starts, ends, below, below_moves, below_boards, rules, free_last,
                    G, out, tally) -> None:  # fmt: skip
        words = tuple(self._held(o) for o in out)
        arrays = (*self._blocks(starts, ends), *map(self._held, (below, below_moves,
                  below_boards)), words, gpu.send(tally))  # fmt: skip
        self._in_pieces(self.module.gpu_scan_blocks, starts, ends, SCAN_PIECE, m, rules,
                        free_last, G, arrays)  # fmt: skip
        tally[...] = gpu.fetch(arrays[-1])
        _words_back(out, words, starts, ends)

    def fill_blocks(self, m, starts, ends, G, out, tally) -> None:
        words = tuple(self._held(o) for o in out)
        arrays = (*self._blocks(starts, ends), words, gpu.send(tally))
        self._in_pieces(self.module.gpu_fill_blocks, starts, ends, SCAN_PIECE, m, G, arrays)
        tally[...] = gpu.fetch(arrays[-1])
        _words_back(out, words, starts, ends)

    def predecessor_blocks(self, m, unique_below, starts, ends, below, rule, free_last, G,
                           out, found) -> None:  # fmt: skip
        for lo in range(0, max(len(starts), 1), PREDECESSOR_LAUNCH):  # no blocks: compiles
            at = slice(lo, lo + PREDECESSOR_LAUNCH)
            self._predecessors(m, unique_below, starts[at], ends[at], below, rule, free_last,
                               G, out[at], found[at])  # fmt: skip

    def _predecessors(self, m, unique_below, starts, ends, below, rule, free_last, G, out,
                      found) -> None:  # fmt: skip
        """predecessor_blocks for one launch: each piece's ranks to its own row, then
        packed in piece order, which is the CPU's order within and across blocks."""
        per_block = _per_block(starts, ends, PREDECESSOR_PIECE)
        pieces = len(starts) * per_block
        room = PREDECESSOR_PIECE * int(self.module.MAX_PREDECESSORS)
        rows, counts = (
            gpu.empty((max(pieces, 1), room), np.int64),
            gpu.send(np.zeros(pieces, np.int64)),
        )
        arrays = (self._held(unique_below), *self._blocks(starts, ends), self._held(below),
                  rows, counts)  # fmt: skip
        self._launch(self.module.gpu_predecessor_blocks, pieces, m, rule, free_last, G,
                     PREDECESSOR_PIECE, per_block, arrays)  # fmt: skip
        each = gpu.fetch(counts)
        total = int(each.sum())
        offsets = gpu.send(np.cumsum(each) - each)
        packed = gpu.empty(max(total, 1), np.int64)
        grid = max(1, -(-pieces // BLOCK_THREADS))
        self.module.gpu_pack[grid, BLOCK_THREADS](rows, counts, offsets, packed)
        ranks = gpu.fetch(packed)[:total]
        found[...] = each.reshape(len(starts), per_block).sum(axis=1)
        block = np.repeat(np.arange(len(starts)), found)
        out[block, np.arange(total) - np.repeat(np.cumsum(found) - found, found)] = ranks

    def _in_pieces(self, kernel, starts, ends, piece: int, *args) -> None:
        """kernel over blocks starts..ends cut into pieces of `piece`, one a thread."""
        per_block = _per_block(starts, ends, piece)
        *scalars, arrays = args
        self._launch(kernel, len(starts) * per_block, *scalars, piece, per_block, arrays)

    def _launch(self, kernel, threads: int, *args) -> None:
        *scalars, tables, piece, per_block, arrays = args
        grid = max(1, -(-threads // BLOCK_THREADS))  # none: one idle launch compiles
        kernel[grid, BLOCK_THREADS](*scalars, self._tables(tables), piece, per_block, arrays)

    def _held(self, array: np.ndarray):
        """`array` on the device, sent on first use in this pass."""
        key = id(array)
        if key not in self._sent:
            self._sent[key] = (array, gpu.send(np.asarray(array)))
        return self._sent[key][1]

    def _tables(self, tables):
        """The domain's table tuple with its arrays on the device."""
        return type(tables)(*(self._held(v) if isinstance(v, np.ndarray) else v for v in tables))

    def _blocks(self, starts: np.ndarray, ends: np.ndarray) -> tuple:
        return gpu.send(np.ascontiguousarray(starts)), gpu.send(np.ascontiguousarray(ends))


def _per_block(starts: np.ndarray, ends: np.ndarray, piece: int) -> int:
    """Pieces of `piece` in the longest block (1 where there are none)."""
    return max(1, -(-int((ends - starts).max(initial=0)) // piece))


def _words_back(out: tuple, words: tuple, starts: np.ndarray, ends: np.ndarray) -> None:
    """Copy the words of blocks starts..ends from the device into the layer's files."""
    if len(starts) == 0:
        return
    lo, hi = int(starts[0]) >> 6, (int(ends[-1]) + 63) >> 6
    for host, device in zip(out, words, strict=True):
        if host.shape[0] > 0 and host is not device:
            host[lo:hi] = gpu.fetch(device[lo:hi])
