"""The fuzz run's figures: python -m tests.fuzz.run_spec_fuzz [--seed S] [--count N]
[--command explain]."""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from .spec_mutator import run_fuzz


def main() -> int:
    """Run the fuzz and print inputs tried, exits by code, slowest input, peak memory."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--command", choices=("validate", "explain"), default="validate")
    args = parser.parse_args()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        command = ("validate", "-q") if args.command == "validate" else ("explain",)
        figures = run_fuzz(args.seed, args.count, Path(folder), args.time_limit, command)
    slowest = figures.slowest
    print(f"inputs tried:  {figures.tried} (seed {args.seed})")
    print(f"exits by code: {dict(sorted(figures.exits.items(), key=str))}")
    print(
        f"slowest input: {slowest.seconds:.3f} s (a mutant of {slowest.spec}, exit {slowest.code})"
    )
    print(f"peak memory:   {figures.peak_rss_mib:.0f} MiB (worker max RSS, getrusage)")
    print(f"wall time:     {time.perf_counter() - began:.0f} s")
    for outcome in figures.failures:
        print(f"FAILED: mutant of {outcome.spec}: exit {outcome.code}: {outcome.output[:200]!r}")
    return 1 if figures.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
