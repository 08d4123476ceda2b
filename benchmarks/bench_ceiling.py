"""The most any code can scale on this machine: one-thread builds alone, then N at once.

    python benchmarks/bench_ceiling.py [--processes N] [--smoke]   (default: one a core)

Each setting of bench_scaling.py's n-queens rows (14-queens with pruning, 12-queens without)
is built on one thread in this process, alone (best of 3), then in PROCESSES processes started
together, each its own best of 3, sharing nothing, then alone again. Where the processes at
once are slower than alone, the machine itself slows a thread when every core is busy (its
clocks, other tenants of its host, caches), and the threads of one build cannot do better:
their blocks are handed out as each thread is free, so the sum over the processes of
alone / at once is the most speedup bench_scaling.py can show at that thread count.
--smoke: 8-queens both ways, 2 processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SETTINGS = ((14, True), (12, False))  # (n, prune), as bench_scaling.py's default rows
SMOKE = ((8, True), (8, False))


def best_of_three(n: int, prune: bool, start=None, results=None) -> tuple[float, float]:
    """(work seconds, CPU seconds) of the fastest of three one-thread builds of n-queens,
    after one untimed build that compiles or loads the kernels and, given `start` (a
    barrier), after every process has done so."""
    import epcg_spec

    spec = epcg_spec.load(ROOT / "specs" / "n-queens.yaml", params={"n": n})
    spec.build(threads=1, no_prune=not prune, time_limit=1e-9)
    if start is not None:
        start.wait()
    best = (float("inf"), 0.0)
    for _ in range(3):
        began = time.process_time()
        seconds = max(spec.build(threads=1, no_prune=not prune).seconds, 1e-3)  # (to 1 ms)
        best = min(best, (seconds, time.process_time() - began))
    if results is not None:
        results.put(best)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--smoke", action="store_true", help="8-queens, 2 processes")
    args = parser.parse_args()
    processes = 2 if args.smoke else args.processes
    if processes < 1:
        parser.error("--processes is at least 1")
    multiprocessing.set_start_method("spawn")
    print(f"{os.cpu_count()} logical CPUs; {processes} processes at once", flush=True)
    for n, prune in SMOKE if args.smoke else SETTINGS:
        alone = best_of_three(n, prune)[0]
        start, results = multiprocessing.Barrier(processes), multiprocessing.Queue()
        workers = [
            multiprocessing.Process(target=best_of_three, args=(n, prune, start, results))
            for _ in range(processes)
        ]
        for worker in workers:
            worker.start()
        together = sorted(results.get()[0] for _ in workers)
        for worker in workers:
            worker.join()
        alone = min(alone, best_of_three(n, prune)[0])
        median, slowest = together[len(together) // 2], together[-1]
        print(
            f"{n}-queens {'with pruning' if prune else 'without pruning'}: alone {alone:.3f} s; "
            f"{processes} at once: fastest {together[0]:.3f}, median {median:.3f}, slowest "
            f"{slowest:.3f} s ({median / alone:.2f}x and {slowest / alone:.2f}x alone); "
            f"ceiling {sum(alone / seconds for seconds in together):.1f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
