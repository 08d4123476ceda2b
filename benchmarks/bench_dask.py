"""A build on 1 thread, on N threads and on a Dask LocalCluster of N processes, in one run.

Prints the wall time of each (kernels compiled or loaded before any timing: the cluster's
workers warm up in their own task, which is not timed as work), the speedups against one
thread, and Dask's own cost per task measured here on no-op tasks, as a share of the time
the driver gives each cluster task. Every run must give the same result.

Run: python benchmarks/bench_dask.py [--workers N] [--smoke]

Default: 12-queens with pruning off (479 million permutations) and N = all cores.
`--smoke`: 9-queens on 2 workers, to check that it runs (no figures worth quoting).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from distributed import Client, LocalCluster  # noqa: E402

import epcg_spec  # noqa: E402
from epcg_spec.core.result import without_timings  # noqa: E402
from epcg_spec.search.cluster import TASK_SECONDS  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
N_QUEENS = 9 if SMOKE else 12
SOLUTIONS = {9: 352, 12: 14_200}[N_QUEENS]  # OEIS A000170
NOOP_TASKS = 200 if SMOKE else 2000


def workers() -> int:
    args = sys.argv[1:]
    if "--workers" in args:
        return int(args[args.index("--workers") + 1])
    return 2 if SMOKE else os.cpu_count() or 1


def timed(build) -> tuple[float, epcg_spec.Result]:
    start = time.perf_counter()
    result = build()
    return time.perf_counter() - start, result


def noop(i: int) -> int:
    return i


def per_task_seconds(client: Client) -> float:
    """Dask's cost per task here: submit and gather no-op tasks, in waves as the driver."""
    start = time.perf_counter()
    client.gather(client.map(noop, range(NOOP_TASKS), pure=False))
    return (time.perf_counter() - start) / NOOP_TASKS


def main() -> None:
    n = workers()
    spec = epcg_spec.load(ROOT / "specs" / "n-queens.yaml", params={"n": N_QUEENS})
    spec.build(threads=1, no_prune=True)  # compile (or load) the kernels here
    print(f"{N_QUEENS}-queens, pruning off ({spec.space_size():,} ranks); {n} workers")
    one, base = timed(lambda: spec.build(threads=1, no_prune=True))
    many, threaded = timed(lambda: spec.build(threads=n, no_prune=True))
    with (
        LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster) as client,
    ):
        spec.build(threads=1, no_prune=True, scheduler=client)  # every worker warms up
        spread, remote = timed(lambda: spec.build(threads=1, no_prune=True, scheduler=client))
        overhead = per_task_seconds(client)
    for result in (base, threaded, remote):
        assert result.count == SOLUTIONS, result.count
        assert without_timings(result.data) == without_timings(base.data)
    for label, seconds in (
        ("1 thread", one),
        (f"{n} threads", many),
        (f"LocalCluster of {n}", spread),
    ):
        print(f"  {label:<20} {seconds:8.2f} s   {one / seconds:5.2f}x")
    print(
        f"  Dask per task: {overhead * 1e3:.2f} ms = {overhead / TASK_SECONDS:.2%} of a "
        f"{TASK_SECONDS:g} s task"
    )


if __name__ == "__main__":
    main()
