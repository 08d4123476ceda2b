"""The retrograde back end's passes on a CUDA GPU: the CPU module's three block loops,
called with the same arguments, run by the GPU module's kernels (retrograde_gpu_loop.py),
one block a thread.

The layers stay what they are on the CPU: bit arrays in the layer store's files, which the
host reads and writes. For one pass, each array a loop reads (the layer below, the tables)
and the layer's own words go to the device once; after each chunk the words of its blocks
come back to the store's files, so a pass stopped on one device goes on on the other.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from . import gpu

BLOCK_THREADS = 64  # CUDA threads per CUDA block; each runs one block of ranks
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
        self._launch(self.module.gpu_scan_blocks, len(starts), m, rules, free_last, G, arrays)
        tally[...] = gpu.fetch(arrays[-1])
        _words_back(out, words, starts, ends)

    def fill_blocks(self, m, starts, ends, G, out, tally) -> None:
        words = tuple(self._held(o) for o in out)
        arrays = (*self._blocks(starts, ends), words, gpu.send(tally))
        self._launch(self.module.gpu_fill_blocks, len(starts), m, G, arrays)
        tally[...] = gpu.fetch(arrays[-1])
        _words_back(out, words, starts, ends)

    def predecessor_blocks(self, m, unique_below, starts, ends, below, rule, free_last, G,
                           out, found) -> None:  # fmt: skip
        arrays = (self._held(unique_below), *self._blocks(starts, ends), self._held(below),
                  gpu.empty(out.shape, out.dtype), gpu.send(found))  # fmt: skip
        self._launch(self.module.gpu_predecessor_blocks, len(starts), m, rule, free_last, G,
                     arrays)  # fmt: skip
        found[...] = gpu.fetch(arrays[-1])
        out[...] = gpu.fetch(arrays[-2])

    def _launch(self, kernel, blocks: int, *args) -> None:
        *scalars, tables, arrays = args
        grid = max(1, -(-blocks // BLOCK_THREADS))  # no blocks: one idle launch compiles
        kernel[grid, BLOCK_THREADS](*scalars, self._tables(tables), arrays)

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


def _words_back(out: tuple, words: tuple, starts: np.ndarray, ends: np.ndarray) -> None:
    """Copy the words of blocks starts..ends from the device into the layer's files."""
    if len(starts) == 0:
        return
    lo, hi = int(starts[0]) >> 6, (int(ends[-1]) + 63) >> 6
    for host, device in zip(out, words, strict=True):
        if host.shape[0] > 0 and host is not device:
            host[lo:hi] = gpu.fetch(device[lo:hi])
