"""Candidate lines: every self-avoiding walk from the start vertex to the goal, enumerated
once per panel shape and cached on disk, each stored as the bitset of slots it uses."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ...core.cache import LINES, cache_dir
from ...core.errors import BuildError
from ...search.blocks import each_run
from ...search.layer_store import LayerStore
from .kernels import grid_tables, region_labels, region_masks
from .model import Grid

MAX_LINES = 1 << 23
CACHE_VERSION = 2  # 2: each file has a manifest (a checksum)
DX = np.array([1, -1, 0, 0], dtype=np.int64)
DY = np.array([0, 0, 1, -1], dtype=np.int64)


def vertex_tables(grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """nbr[v, d]: the vertex one step in direction d from vertex v (v = y * (width + 1) + x),
    or -1 off the panel; step[v, d]: the slot of the edge of that step."""
    cols = grid.width + 1
    nbr = np.full((grid.vertices, 4), -1, dtype=np.int64)
    step = np.full((grid.vertices, 4), -1, dtype=np.int64)
    for v in range(grid.vertices):
        x, y = v % cols, v // cols
        for d in range(4):
            nx, ny = x + int(DX[d]), y + int(DY[d])
            if 0 <= nx <= grid.width and 0 <= ny <= grid.height:
                nbr[v, d] = ny * cols + nx
                step[v, d] = grid.edge((x, y), (nx, ny))
    return nbr, step


@njit(cache=True)
def _walk(nbr, step, first_vertex_slot, start, goal, words, limit, out):
    """Enumerate walks start -> goal (in a fixed order) until `limit` + 1 are found; write the
    first out.shape[0] of them into `out`; return how many were found."""
    n = nbr.shape[0]
    visited = np.zeros(n, np.bool_)
    at = np.zeros(n, np.int64)
    tried = np.zeros(n, np.int64)
    entered = np.full(n, -1, np.int64)
    mask = np.zeros(words, np.uint64)
    one = np.uint64(1)
    found = 0
    depth = 0
    at[0] = start
    visited[start] = True
    s = first_vertex_slot + start
    mask[s >> 6] |= one << np.uint64(s & 63)
    while depth >= 0:
        v = at[depth]
        if v == goal or tried[depth] == 4:
            if v == goal:
                if found < out.shape[0]:
                    for w in range(words):  # a loop: numba's slice copy compiles 2 s more
                        out[found, w] = mask[w]
                found += 1
                if found > limit:
                    return found
            visited[v] = False
            s = first_vertex_slot + v
            mask[s >> 6] &= ~(one << np.uint64(s & 63))
            e = entered[depth]
            if e >= 0:
                mask[e >> 6] &= ~(one << np.uint64(e & 63))
            tried[depth] = 0
            entered[depth] = -1
            depth -= 1
            continue
        d = tried[depth]
        tried[depth] = d + 1
        u = nbr[v, d]
        if u < 0 or visited[u]:
            continue
        depth += 1
        at[depth] = u
        visited[u] = True
        s = first_vertex_slot + u
        mask[s >> 6] |= one << np.uint64(s & 63)
        e = step[v, d]
        entered[depth] = e
        mask[e >> 6] |= one << np.uint64(e & 63)
    return found


def _walk_grid(grid: Grid, limit: int, out: np.ndarray) -> int:
    """Run `_walk` on the grid's tables: the lines found (up to limit + 1), the first
    out.shape[0] of them written into `out`."""
    nbr, step = vertex_tables(grid)
    cols = grid.width + 1
    start = grid.start[1] * cols + grid.start[0]
    goal = grid.goal[1] * cols + grid.goal[0]
    return int(_walk(nbr, step, grid.edges, start, goal, grid.words, limit, out))


def count_lines(grid: Grid, limit: int | None = None) -> int:
    """The number of candidate lines, or limit + 1 if there are more than `limit`
    (default MAX_LINES)."""
    limit = MAX_LINES if limit is None else limit
    return _walk_grid(grid, limit, np.zeros((0, grid.words), np.uint64))


def cache_path(grid: Grid) -> Path:
    (sx, sy), (gx, gy) = grid.start, grid.goal
    name = f"lines-v{CACHE_VERSION}-{grid.width}x{grid.height}-s{sx}.{sy}-g{gx}.{gy}.npy"
    return cache_dir() / LINES / name


def _store(grid: Grid) -> tuple[LayerStore, str]:
    """The store of cached lines (checksummed, locked; see search/layer_store.py) and the
    name of this shape's file in it."""
    path = cache_path(grid)
    return LayerStore(path.parent), path.name


def cached_count(grid: Grid) -> int | None:
    """The number of lines if they are already cached (cheap), else None."""
    store, name = _store(grid)
    record = store.record(name)
    return None if record is None else record["count"]


def line_count(grid: Grid) -> int:
    """The number of candidate lines, from the cache or counted (MAX_LINES + 1: more)."""
    known = cached_count(grid)
    return known if known is not None else _walked(grid)


@lru_cache(maxsize=64)
def _walked(grid: Grid) -> int:
    """count_lines(grid) once a process: explain's row and the build's estimate both ask,
    and a 6x6 panel's walk takes about 2 s."""
    return count_lines(grid)


def enumerate_lines(grid: Grid) -> np.ndarray:
    """Every candidate line as a row of slot bits (uint64[n, words]), from the disk cache
    when it is there and sound; a panel with more than MAX_LINES lines is refused."""
    store, name = _store(grid)
    cached = store.find_array(name)
    if cached is not None:
        return np.array(cached)
    n = count_lines(grid)
    if n > MAX_LINES:
        raise BuildError(
            f"a {grid.width}x{grid.height} panel from {grid.start} to {grid.goal} has more than "
            f"{MAX_LINES:,} candidate lines, more than this engine enumerates; use a smaller "
            f"panel (5x5 has 1,262,816)",
            at=(("panel",),),
        )
    with store.lock(name, f"the lines of a {grid.width}x{grid.height} panel"):
        cached = store.find_array(name)
        if cached is not None:
            return np.array(cached)
        out = np.zeros((n, grid.words), np.uint64)
        _walk_grid(grid, n, out)
        store.publish_array(name, out, {"count": n})
    return out


def line_path(grid: Grid, bits: np.ndarray) -> list[tuple[int, int]]:
    """The vertices of a line in order from the start, read back from its slot bits."""
    used = {s for s in range(grid.edges) if int(bits[s // 64]) >> (s % 64) & 1}
    path = [grid.start]
    while path[-1] != grid.goal:
        x, y = path[-1]
        for dx, dy in zip(DX.tolist(), DY.tolist(), strict=True):
            nxt = (x + dx, y + dy)
            slot = grid.edge((x, y), nxt)
            if slot in used and (len(path) < 2 or nxt != path[-2]):
                path.append(nxt)
                break
        else:
            raise ValueError("the slot bits do not hold a line from the start to the goal")
    return path


@dataclass
class LineSet:
    """Every candidate line of a panel shape with the regions it cuts the panel into."""

    grid: Grid
    bits: np.ndarray  # uint64[n, words]: the slots of line i
    labels: np.ndarray  # int8[n, cells]: the region of each cell
    reg_start: np.ndarray  # int64[n + 1]: line i's regions are reg_mask[reg_start[i]:...]
    reg_mask: np.ndarray  # uint64[regions of all lines]: the cells of each region

    @property
    def count(self) -> int:
        return int(self.bits.shape[0])

    def kernel_args(self) -> tuple:
        """L of the rule kernels: (bits, labels, reg_start, reg_mask)."""
        return self.bits, self.labels, self.reg_start, self.reg_mask


def line_set(grid: Grid) -> LineSet:
    """The lines of `grid` (cached on disk) and their regions (computed here)."""
    bits = enumerate_lines(grid)
    nbr, side = grid_tables(grid)
    labels = np.empty((bits.shape[0], grid.cells), np.int8)
    counts = np.empty(bits.shape[0], np.int64)
    each_run(lambda lo, hi: region_labels(lo, hi, bits, nbr, side, labels, counts), len(bits))
    reg_start = np.zeros(bits.shape[0] + 1, np.int64)
    np.cumsum(counts, out=reg_start[1:])
    reg_mask = np.zeros(int(reg_start[-1]), np.uint64)
    each_run(lambda lo, hi: region_masks(lo, hi, labels, reg_start, reg_mask), len(bits))
    return LineSet(grid, bits, labels, reg_start, reg_mask)
