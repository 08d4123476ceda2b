"""A build on 1 thread, on N threads and on a Dask LocalCluster of N processes, in one run.

Prints the wall time of each (kernels compiled or loaded before any timing: the cluster's
workers warm up in their own task, which is not timed as work), the speedups against one
thread, and Dask's own cost per task measured here on no-op tasks, as a share of the time
the driver gives each cluster task. Every run must give the same result.

Run: python benchmarks/bench_dask.py [--workers N] [--fling PIECES] [--smoke]

Default: 12-queens with pruning off (479 million permutations), then the Fling table to
8 pieces (every layer computed afresh in a new layers folder for each setting), and N =
all cores. `--smoke`: 9-queens and Fling to 4 pieces on 2 workers, to check that it runs
(no figures worth quoting).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from distributed import Client  # noqa: E402

import epcg_spec  # noqa: E402
from epcg_spec.core.result import without_timings  # noqa: E402
from epcg_spec.search.cluster import TASK_SECONDS, local_cluster  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
N_QUEENS = 9 if SMOKE else 12
NOOP_TASKS = 200 if SMOKE else 2000


def option(name: str, default: int) -> int:
    args = sys.argv[1:]
    return int(args[args.index(name) + 1]) if name in args else default


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
    n = option("--workers", 2 if SMOKE else os.cpu_count() or 1)
    pieces = option("--fling", 4 if SMOKE else 8)
    queens = epcg_spec.load(ROOT / "specs" / "n-queens.yaml", params={"n": N_QUEENS})
    queens.build(threads=1, no_prune=True)  # compile (or load) the kernels here
    with tempfile.TemporaryDirectory() as scratch:

        def fling(name: str) -> epcg_spec.Spec:
            """The Fling table with a new, empty layers folder: every layer computed."""
            layers = {"layers_dir": str(Path(scratch) / name)}
            return epcg_spec.load(ROOT / "specs" / "fling.yaml", {"pieces": pieces}, layers)

        fling("warm-up").build(threads=1)
        with local_cluster(n) as cluster, Client(cluster) as client:
            queens.build(threads=1, no_prune=True, scheduler=client)  # workers warm up
            fling("warm-up-workers").build(threads=1, scheduler=client)
            overhead = per_task_seconds(client)
            print(f"{N_QUEENS}-queens, pruning off ({queens.space_size():,} ranks), {n} workers")
            compare(
                lambda: queens.build(threads=1, no_prune=True),
                lambda: queens.build(threads=n, no_prune=True),
                lambda: queens.build(threads=1, no_prune=True, scheduler=client),
                n,
            )
            print(f"Fling table to {pieces} pieces (7 x 8 board, layers computed afresh)")
            compare(
                lambda: fling("one").build(threads=1),
                lambda: fling("threads").build(threads=n),
                lambda: fling("cluster").build(threads=1, scheduler=client),
                n,
            )
    print(
        f"Dask per task: {overhead * 1e3:.2f} ms = {overhead / TASK_SECONDS:.2%} of a "
        f"{TASK_SECONDS:g} s task"
    )


def compare(one_thread, threads, cluster, n: int) -> None:
    """Time one build three ways; all three must give the same result."""
    one, base = timed(one_thread)
    rows = [("1 thread", one, base)]
    for label, build in ((f"{n} threads", threads), (f"LocalCluster of {n}", cluster)):
        seconds, result = timed(build)
        assert without_timings(result.data) == without_timings(base.data), label
        rows.append((label, seconds, result))
    for label, seconds, _ in rows:
        print(f"  {label:<20} {seconds:8.2f} s   {one / seconds:5.2f}x")


if __name__ == "__main__":
    main()
