"""The most any code can scale on this machine: one-thread builds alone, then N at once.

    python benchmarks/bench_ceiling.py [--processes N] [--smoke]   (default: one a core)

Each setting of bench_scaling.py's n-queens rows (14-queens with pruning, 12-queens without)
is built on one thread in this process, alone (best of 3), then in PROCESSES processes started
together, each building it BUILDS times back to back, sharing nothing, then alone again.
Where the processes at once are slower than alone, the machine itself slows a thread when
every core is busy (its clocks, other tenants of its host, caches), and the threads of one
build cannot do better. The ceiling is the work all the processes did while every one of
them still ran (up to the first to finish its builds; a build under way then counts by its
share), in builds of the time one takes alone: the most speedup bench_scaling.py can show at
that thread count. (Each process's best build would overstate it: a process's last builds
run on a machine that the first to finish have left idle.)
--smoke: 8-queens both ways, 2 processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SETTINGS = ((14, True), (12, False))  # (n, prune), as bench_scaling.py's default rows
SMOKE = ((8, True), (8, False))
BUILDS = 4  # by each process at once: the first to finish ends the window after 3 or more


def timed_builds(n: int, prune: bool, count: int, start=None, results=None) -> list:
    """The (start, end) of `count` one-thread builds of n-queens run back to back (clock
    seconds, which every process shares), after one untimed build that compiles or loads the
    kernels and, given `start` (a barrier), after every process has done so."""
    import epcg_spec

    spec = epcg_spec.load(ROOT / "specs" / "n-queens.yaml", params={"n": n})
    spec.build(threads=1, no_prune=not prune, time_limit=1e-9)
    if start is not None:
        start.wait()
    spans = []
    for _ in range(count):
        began = time.monotonic()
        spec.build(threads=1, no_prune=not prune)
        spans.append((began, time.monotonic()))
    if results is not None:
        results.put(spans)
    return spans


def done_by(spans: list, until: float) -> float:
    """How many of these builds were done at `until`, the one under way by its share."""
    done = 0.0
    for began, ended in spans:
        if ended <= until:
            done += 1
        elif began < until:
            done += (until - began) / (ended - began)
    return done


def best_alone(n: int, prune: bool) -> float:
    return min(ended - began for began, ended in timed_builds(n, prune, 3))


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
        alone = best_alone(n, prune)
        start, results = multiprocessing.Barrier(processes), multiprocessing.Queue()
        workers = [
            multiprocessing.Process(target=timed_builds, args=(n, prune, BUILDS, start, results))
            for _ in range(processes)
        ]
        for worker in workers:
            worker.start()
        together = [results.get() for _ in workers]
        for worker in workers:
            worker.join()
        alone = min(alone, best_alone(n, prune))
        until = min(spans[-1][1] for spans in together)  # the first process to finish
        rates = [done_by(spans, until) / (until - spans[0][0]) for spans in together]
        builds = [ended - began for spans in together for began, ended in spans if ended <= until]
        median = statistics.median(builds)
        print(
            f"{n}-queens {'with pruning' if prune else 'without pruning'}: alone {alone:.3f} s; "
            f"{processes} at once, while all ran: {len(builds)} whole builds, median "
            f"{median:.3f} s, slowest {max(builds):.3f} s ({median / alone:.2f}x and "
            f"{max(builds) / alone:.2f}x alone); ceiling {alone * sum(rates):.1f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
