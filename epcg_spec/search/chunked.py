"""Long work in chunks: progress with an ETA, checkpoints, and a clean stop on Ctrl-C.

Back ends run their numba kernels over units of work (rank blocks, first items) a chunk
at a time, so that between two chunks the driver can show progress, save a checkpoint and
notice Ctrl-C. The kernels' results are folded in by the caller's `work`, in unit order,
so chunking never changes what a run computes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..compile.protocols import RunContext
from ..errors import Interrupted
from .checkpoint import Checkpoint

CHUNK_SECONDS = 0.5
CHECKPOINT_SECONDS = 5.0
MAX_ADAPTIVE_CHUNK = 1 << 14


@dataclass
class Chunks:
    """How a run is cut: `units` of work, each worth `weight(lo, hi)` units of progress."""

    units: int
    label: str
    noun: str
    fixed: int | None = None
    weight: Callable[[int, int], int] | None = None

    def progress_of(self, lo: int, hi: int) -> int:
        return self.weight(lo, hi) if self.weight else hi - lo


def run_in_chunks(
    chunks: Chunks,
    work: Callable[[int, int], None],
    ctx: RunContext,
    key: str | None,
    snapshot: Callable[[], dict],
    restore: Callable[[dict], None],
    initial: int = 1,
) -> float:
    """Run `work(lo, hi)` over units [0, chunks.units); return the seconds it took.

    With a `key` and a work folder, a checkpoint (`snapshot()` and the next unit) is saved
    every few seconds and on Ctrl-C, and `--resume` continues from it (`restore`). A fixed
    chunk size is used where the caller's results depend on it; otherwise chunks grow or
    shrink to last about CHUNK_SECONDS.
    """
    checkpoint = (
        Checkpoint(ctx.work_dir / ".checkpoint.json", key) if ctx.work_dir and key else None
    )
    following = 0
    if checkpoint and ctx.resume:
        saved = checkpoint.load()
        if saved:
            following = saved["next"]
            restore(saved["state"])
    progress = ctx.progress
    if progress:
        # a resumed run announces only the work left, so that its rate (and ETA) is true
        progress.start(chunks.label, chunks.progress_of(following, chunks.units))
    size = chunks.fixed or initial
    began = last_save = time.perf_counter()
    try:
        while following < chunks.units:
            stop = min(following + size, chunks.units)
            t0 = time.perf_counter()
            work(following, stop)
            if progress:
                progress.advance(chunks.progress_of(following, stop))
            following = stop
            if chunks.fixed is None:
                size = resize_chunk(size, time.perf_counter() - t0)
            if checkpoint and time.perf_counter() - last_save > CHECKPOINT_SECONDS:
                checkpoint.save({"next": following, "state": snapshot()})
                last_save = time.perf_counter()
    except KeyboardInterrupt:
        if checkpoint:
            checkpoint.save({"next": following, "state": snapshot()})
            raise Interrupted(
                f"interrupted after {following:,} of {chunks.units:,} {chunks.noun}; checkpoint "
                f"saved to {checkpoint.path}; run again with --resume to continue"
            ) from None
        raise Interrupted("interrupted; no checkpoint (give --out to save one)") from None
    finally:
        if progress:
            progress.finish()
    if checkpoint:
        checkpoint.clear()
    return time.perf_counter() - began


def resize_chunk(
    size: int, elapsed: float, seconds: float = CHUNK_SECONDS, most: int = MAX_ADAPTIVE_CHUNK
) -> int:
    """The next chunk's size: doubled (up to `most`) after a chunk that took under half of
    `seconds`, halved after one that took over twice as long."""
    if elapsed < seconds / 2:
        return min(size * 2, most)
    if elapsed > seconds * 2 and size > 1:
        return size // 2
    return size
