"""Boards per second of the retrograde pass over Fling! layers, against the plain-Python oracle.

    python benchmarks/bench_fling.py [--pieces 8] [--threads N] [--layers-dir DIR] [--smoke]

Both judge the solvability of every board of 2..`reference` pieces on the 7 x 8 board (the
oracle's memo starts empty, as the layers do); the retrograde back end then goes on alone up
to --pieces, in a fresh layers folder, and every layer's time and rate is printed. Wall time
depends on what else the machine runs; CPU time (all threads) is printed beside it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from epcg_spec.core.context import RunContext
from epcg_spec.domains.fling.problem import layered_space
from epcg_spec.search.retrograde import Plan, Retrograde
from tests.oracles.fling_oracle import Oracle

WIDTH, HEIGHT = 7, 8


def oracle_rate(top: int) -> tuple[float, int]:
    """Boards per second of the oracle judging every board of 2..top pieces."""
    oracle = Oracle(WIDTH, HEIGHT)
    began = time.process_time()
    boards = solvable = 0
    for pieces in range(2, top + 1):
        for board in oracle.all_boards(pieces):
            boards += 1
            solvable += oracle.solvable(board)
    return boards / (time.process_time() - began), solvable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=8, help="judge layers 2..pieces")
    parser.add_argument("--unique", type=int, help="count unique boards up to (pieces + 1)")
    parser.add_argument("--reference", type=int, default=4, help="oracle layers 2..reference")
    parser.add_argument("--threads", type=int)
    parser.add_argument("--layers-dir", type=Path, help="default: a fresh temporary folder")
    parser.add_argument(
        "--smoke", action="store_true", help="the smallest setting: --pieces 3 --reference 2"
    )
    args = parser.parse_args()
    if args.smoke:
        args.pieces, args.reference = 3, 2
    unique = args.unique or args.pieces

    reference, solvable = oracle_rate(args.reference)
    print(f"oracle (plain Python, 1 thread): {reference:,.0f} boards/s over 2..{args.reference}"
          f" pieces ({solvable:,} solvable)")  # fmt: skip

    folder = args.layers_dir or Path(tempfile.mkdtemp(prefix="bench-fling-"))
    space = layered_space(WIDTH, HEIGHT)
    warm = Retrograde(space, Path(tempfile.mkdtemp(prefix="bench-fling-warm-")), RunContext())
    warm.run(Plan(3, 3, ("moves",), "predecessors"))  # compile (or load) the kernels first
    retro = Retrograde(space, folder, RunContext(threads=args.threads))
    began = time.perf_counter()
    reports = retro.run(Plan(args.pieces, unique, ("moves",), "predecessors"))
    total = time.perf_counter() - began
    print(f"retrograde ({args.threads or 'all'} threads), layers in {retro.folder}:")
    print(f"  {'pieces':>6} {'boards':>16} {'solvable':>16} {'unique':>12} {'wall s':>8} "
          f"{'cpu s':>8} {'boards/s':>14} {'x oracle':>9}")  # fmt: skip
    for r in reports[1:]:
        rate = r.size / r.seconds if r.seconds and r.pieces <= args.pieces else 0.0
        solvable = f"{r.solvable:,}" if r.solvable is not None else "-"
        ratio = f"{rate / reference:9,.0f}" if rate else " " * 9
        print(f"  {r.pieces:>6} {r.size:>16,} {solvable:>16} {r.unique['moves']:>12,} "
              f"{r.seconds:8.1f} {r.cpu_seconds:8.1f} {rate:14,.0f} {ratio}")  # fmt: skip
    judged = sum(comb(WIDTH * HEIGHT, m) for m in range(2, args.pieces + 1))
    print(
        f"  total: {total:.1f} s wall for {judged:,} boards judged "
        f"({judged / total:,.0f} boards/s, {judged / total / reference:,.0f} x the oracle)"
    )


if __name__ == "__main__":
    main()
