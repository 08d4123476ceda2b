"""Thread scaling of the back ends: time and speedup at 1, 2, 4, ... threads, in one run.

    python benchmarks/bench_scaling.py [--threads-max N | --threads LIST] [--quick | --smoke]
                                       [--only NAMES] [--scan-n N]

Four settings, each run once warm (kernels compiled or loaded, untimed) and then at every
thread count from 1 up to all cores (os.cpu_count(), or --threads-max), doubling, with the
largest always included, or at the counts --threads lists (e.g. 2,16: the Fling row of issue
19 without its one-thread run, the longest); every run must give the same result as the
first:

    queens-pruned     n-queens with prefix pruning (exhaustive back end)
    queens-scan       n-queens with --no-prune: every permutation (exhaustive back end)
    fling-layer       one Fling! layer of the 7 x 8 board, computed afresh: its solvable bits
                      (two scans) and its unique boards among predecessors (retrograde back
                      end); the layers below are computed once beforehand and copied
    sudoku-items      seeded minimal Sudoku puzzles through the item job (propagate back
                      end), on a Dask LocalCluster of that many single-threaded workers:
                      items have no threads of their own

              default (16 cores)   --quick (2 cores)   --smoke
    pruned    14-queens            14-queens           8-queens
    scan      12-queens            12-queens           8-queens   (or --scan-n)
    fling     8-piece layer        7-piece layer       4-piece layer
    sudoku    20,000 puzzles       2,000 puzzles       2 puzzles

After the runs (but with --smoke), a load-proof view of the pruned walk's balance: every
block's CPU time alone on one thread, and the share of T threads' time those blocks keep
busy, chunk by chunk, when each thread takes a fixed contiguous share of a chunk (numba's
default schedule) and when each takes the next block as it is free (what the exhaustive back
end asks for), for T up to 16 whatever this machine has.

The Fling rows are each preceded by a line of that run's passes: the wall and CPU seconds
(all threads) of judging, filling in and the predecessor pass ("unique"), and the seconds
outside them (publishing, sorting, reading the layer below): where a thread count loses.

Times are the driver's work seconds (compile and the cluster's warm-up apart; of n-queens,
the best of --repeats runs, the thread counts taking turns run by run: a machine whose speed
drifts slows every count alike); CPU is user + sys of this process over that run (the
cluster's workers are other processes: no CPU figure there). A speedup is against the fewest
threads measured; "per thread" divides it by the thread ratio. On a shared machine the load
average is printed: read ratios, not seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import itertools
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numba

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import epcg_spec  # noqa: E402
from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.core.result import without_timings  # noqa: E402
from epcg_spec.domains.fling.problem import layered_space  # noqa: E402
from epcg_spec.search import exhaustive  # noqa: E402
from epcg_spec.search.retrograde import Plan, Retrograde  # noqa: E402
from epcg_spec.spec.load import load_spec  # noqa: E402

SPECS = ROOT / "specs"
SIZES = {  # setting -> (pruned n, scan n, fling pieces, sudoku puzzles)
    "default": (14, 12, 8, 20000),
    "quick": (14, 12, 7, 2000),
    "smoke": (8, 8, 4, 2),
}
SETTINGS = ("queens-pruned", "queens-scan", "fling-layer", "sudoku-items")


@dataclass
class Run:
    threads: int
    seconds: float
    cpu: float | None
    outcome: object  # what every thread count must reproduce


def thread_counts(most: int) -> list[int]:
    """1, 2, 4, ... below `most`, then `most`."""
    counts, t = [], 1
    while t < most:
        counts.append(t)
        t *= 2
    return [*counts, most]


def measured(
    series: list[int], run: Callable[[int], tuple[float, object]], cpu: bool, repeats: int
) -> Iterator[Run]:
    """Each thread count's fastest of `repeats` runs (CPU: of that run), the counts taking
    turns run by run, so that a machine whose speed drifts (other tenants, its clocks) slows
    every count alike; each count's row is given once its last run is made."""
    best: dict[int, Run] = {}
    for round_ in range(repeats):
        for threads in series:
            began = time.process_time()
            seconds, outcome = run(threads)
            spent = time.process_time() - began if cpu else None
            if threads not in best or seconds < best[threads].seconds:
                best[threads] = Run(threads, seconds, spent, outcome)
            assert outcome == best[threads].outcome
            if round_ == repeats - 1:
                yield best[threads]


def queens(n: int, prune: bool) -> Callable[[int], tuple[float, object]]:
    """A build of n-queens (warmed up here) at a given thread count: (work s, result)."""
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": n})
    spec.build(threads=1, no_prune=not prune, time_limit=1e-9)  # kernels ready, one chunk

    def run(threads: int) -> tuple[float, object]:
        result = spec.build(threads=threads, no_prune=not prune)
        return result.seconds, without_timings(result.data)

    return run


def fling_layer(pieces: int, scratch: Path) -> Callable[[int], tuple[float, object]]:
    """Layer `pieces` of the 7 x 8 board computed afresh, on layers 1..pieces - 1 computed
    once here (which also compiles the kernels): (its seconds, its counts and checksums)."""
    space = layered_space(7, 8)
    base = scratch / "below"
    Retrograde(space, base, RunContext()).run(
        Plan(pieces - 1, pieces - 1, ("moves",), "predecessors")
    )

    def run(threads: int) -> tuple[float, object]:
        folder = scratch / f"threads-{threads}"
        shutil.copytree(base, folder)
        retro = Retrograde(space, folder, RunContext(threads=threads))
        with passes_timed() as passes:
            report = retro.run(Plan(pieces, pieces, ("moves",), "predecessors"))[-1]
        outside = report.seconds - sum(wall for wall, _ in passes.values())
        print(
            f"    {threads} threads: "
            + ", ".join(
                f"{name} {wall:.2f} s ({cpu:.1f} s CPU)" for name, (wall, cpu) in passes.items()
            )
            + f", outside the passes {outside:.2f} s"
        )
        bits = retro.solvable_bits(pieces)
        unique = retro.unique_ranks("moves", pieces)
        digest = hashlib.sha256(bits.tobytes() + unique.tobytes()).hexdigest()
        outcome = (report.size, report.solvable, report.unique, digest)
        shutil.rmtree(folder)
        return report.seconds, outcome

    return run


@contextmanager
def passes_timed() -> Iterator[dict[str, tuple[float, float]]]:
    """Wall and CPU seconds (all threads) of each pass of the retrograde layers computed
    inside the block, by the first word of its progress label after the layer: judging,
    filling, unique (the predecessor pass)."""
    passes: dict[str, tuple[float, float]] = {}
    chunks = Retrograde._chunks

    def timed(self, label, *args, **kwargs):
        began = (time.perf_counter(), time.process_time())
        try:
            return chunks(self, label, *args, **kwargs)
        finally:
            name = label.split(": ", 1)[1].split()[0]
            wall, cpu = passes.get(name, (0.0, 0.0))
            passes[name] = (
                wall + time.perf_counter() - began[0],
                cpu + time.process_time() - began[1],
            )

    Retrograde._chunks = timed
    try:
        yield passes
    finally:
        Retrograde._chunks = chunks


def sudoku_items(puzzles: int) -> Callable[[int], tuple[float, object]]:
    """Minimal Sudoku puzzles made on a LocalCluster of `threads` workers: (work s, result)."""
    from distributed import Client

    from epcg_spec.search.cluster import local_cluster

    text = (SPECS / "sudoku-minimal.yaml").read_text("utf-8")
    spec = epcg_spec.loads(text.replace("puzzles: 5,", f"puzzles: {puzzles},"))
    spec.build()  # compile or load the kernels here (the workers load them from the cache)

    def run(threads: int) -> tuple[float, object]:
        with local_cluster(threads) as cluster, Client(cluster) as client:
            result = spec.build(scheduler=client)
        return result.seconds, without_timings(result.data)

    return run


def block_costs(n: int) -> tuple[list[float], int]:
    """CPU seconds of each block of n-queens with pruning, each worked alone on one thread
    (less the cost of a call on the cheapest block: what the call itself costs), and the
    most blocks a chunk of the spec's build holds; CPU time, so that other work on the
    machine does not count."""
    loaded = load_spec(SPECS / "n-queens.yaml", {"n": n})
    problem = loaded.domain.compile(loaded.spec)
    job = exhaustive.job(problem.kernels(), problem.space_size(), True, loaded.spec.top)
    numba.set_num_threads(1)
    job.prepare(0)
    costs = []
    for b in range(job.units):  # CPU time of this thread, which runs the one-thread loop
        began = time.thread_time()
        job.work(b, b + 1)
        costs.append(time.thread_time() - began)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    floor = min(costs)
    return [c - floor for c in costs], job.most


def busy_share(costs: list[float], threads: int, chunk: int, dynamic: bool) -> float:
    """The share of `threads` threads' time kept busy by chunks of `chunk` blocks of these
    costs, each chunk ending when its last block does: each thread takes one contiguous
    share of a chunk (numba's default), or the next block whenever it is free (dynamic)."""
    span = 0.0
    for lo in range(0, len(costs), chunk):
        part = costs[lo : lo + chunk]
        if dynamic:
            free = [0.0] * threads
            for cost in part:
                heapq.heappush(free, heapq.heappop(free) + cost)
            span += max(free)
        else:
            cuts = [len(part) * t // threads for t in range(threads + 1)]
            span += max(sum(part[a:b]) for a, b in itertools.pairwise(cuts))
    return sum(costs) / (threads * span) if span else 1.0


def balance(n: int, most: int) -> None:
    """How evenly n-queens' pruned blocks spread over threads, from their measured costs."""
    costs, chunk_most = block_costs(n)
    counts = [t for t in thread_counts(max(most, 16)) if t > 1]
    mean = sum(costs) / len(costs)
    print(f"block balance: {n}-queens with pruning, {len(costs):,} blocks, costs measured one")
    print(f"  by one on 1 thread (max {max(costs) * 1e3:.2f} ms, mean {mean * 1e3:.3f} ms);")
    print("  the share of T threads' time busy, chunk by chunk:")
    print(f"  {'blocks/chunk':>12} {'schedule':>9} " + " ".join(f"{f'T={t}':>6}" for t in counts))
    for chunk in (chunk_most, 1024):
        for dynamic in (False, True):
            shares = " ".join(f"{busy_share(costs, t, chunk, dynamic):6.0%}" for t in counts)
            print(f"  {chunk:>12,} {'dynamic' if dynamic else 'static':>9} {shares}")
    sys.stdout.flush()


def report_head(name: str, what: str) -> None:
    print(f"{name}: {what}")
    print(f"  {'threads':>7} {'seconds':>9} {'speedup':>8} {'per thread':>10} {'CPU s':>8}")
    sys.stdout.flush()


def report_row(base: Run, r: Run) -> None:
    """One thread count's row, printed as soon as it is measured (a long run shows progress)."""
    cpu = f"{r.cpu:8.2f}" if r.cpu is not None else f"{'-':>8}"
    if base.seconds > 0 and r.seconds > 0:  # (a result's seconds are rounded to 1 ms)
        speedup = base.seconds / r.seconds
        ratios = f"{speedup:7.2f}x {speedup / (r.threads / base.threads):9.0%}"
    else:
        ratios = f"{'-':>8} {'-':>10}"
    print(f"  {r.threads:>7} {r.seconds:9.3f} {ratios} {cpu}")
    sys.stdout.flush()


def physical_cores() -> int | None:
    """Cores as the kernel lists them (hyperthreads of one core counted once)."""
    siblings = set()
    for path in Path("/sys/devices/system/cpu").glob("cpu[0-9]*/topology/thread_siblings_list"):
        siblings.add(path.read_text().strip())
    return len(siblings) or None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    counts = parser.add_mutually_exclusive_group()
    counts.add_argument("--threads-max", type=int, default=os.cpu_count() or 1)
    counts.add_argument("--threads", help="comma-separated thread counts, e.g. 1,2,16")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="sizes for a 2-core machine")
    size.add_argument("--smoke", action="store_true", help="the smallest setting, 1..2 threads")
    parser.add_argument("--repeats", type=int, default=3, help="of each n-queens run (best)")
    parser.add_argument("--only", help=f"comma-separated, from: {', '.join(SETTINGS)}")
    parser.add_argument(
        "--scan-n",
        type=int,
        help="n of queens-scan (13: a compute-bound control 13 times as long as 12, to see "
        "whether a long run's CPU seconds grow with the threads on a machine)",
    )
    args = parser.parse_args()
    only = args.only.split(",") if args.only else list(SETTINGS)
    setting = "smoke" if args.smoke else "quick" if args.quick else "default"
    most = min(args.threads_max, 2) if args.smoke else args.threads_max
    try:
        series = sorted({int(t) for t in args.threads.split(",")}) if args.threads else []
    except ValueError:
        series = [0]
    series = series or thread_counts(most)
    if not series or min(series) < 1 or set(only) - set(SETTINGS) or (args.scan_n or 4) < 4:
        parser.error(
            f"--threads-max and --threads are at least 1, --threads a list such as 2,16; "
            f"--only takes {', '.join(SETTINGS)}; --scan-n is at least 4"
        )
    pruned, scan, pieces, puzzles = SIZES[setting]
    scan = args.scan_n or scan
    print(
        f"{os.cpu_count()} logical CPUs, {physical_cores() or '?'} physical cores; threads "
        f"{series}; load average {os.getloadavg()[0]:.2f} at the start"
    )
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as scratch:
        cases = {
            "queens-pruned": (
                f"{pruned}-queens, prefix pruning",
                lambda: queens(pruned, True),
                True,
            ),
            "queens-scan": (f"{scan}-queens, every permutation", lambda: queens(scan, False), True),
            "fling-layer": (
                f"Fling 7 x 8, the {pieces}-piece layer afresh",
                lambda: fling_layer(pieces, Path(scratch)),
                True,
            ),
            "sudoku-items": (
                f"{puzzles} minimal Sudoku puzzles, a LocalCluster of N workers",
                lambda: sudoku_items(puzzles),
                False,
            ),
        }
        for name in only:
            what, make, cpu = cases[name]
            run = make()
            repeats = args.repeats if name.startswith("queens") else 1
            report_head(name, what)
            runs: list[Run] = []
            for best in measured(series, run, cpu, repeats):
                runs.append(best)
                assert best.outcome == runs[0].outcome, f"{name}: {best.threads} threads differ"
                report_row(runs[0], best)
        if "queens-pruned" in only and not args.smoke:
            balance(pruned, max(series))
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
