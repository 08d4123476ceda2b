"""The folder fuzz run's figures: python -m tests.fuzz.run_folder_fuzz [--seed S] [--count N]
(builds its folders first: a minute or two on a cold kernel cache)."""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from .folder_mutator import SHARDED, SINGLE, build_folders, run_folder_fuzz


def main() -> int:
    """Build the folders, run the fuzz; print inputs tried, exits by command and code."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--count", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        built, work = Path(folder) / "built", Path(folder) / "work"
        built.mkdir()
        work.mkdir()
        build_folders(built, SHARDED, SINGLE)
        began = time.perf_counter()
        figures = run_folder_fuzz(args.seed, args.count, built, work)
    print(f"inputs tried:  {figures.tried} (seed {args.seed})")
    for (command, code), n in sorted(figures.exits.items(), key=str):
        print(f"  {command}: exit {code}: {n}")
    print(f"wall time:     {time.perf_counter() - began:.0f} s (the builds before not counted)")
    for outcome in figures.failures:
        print(f"FAILED: {' '.join(outcome.argv)}: exit {outcome.code}: {outcome.output[-300:]!r}")
        if outcome.markup_in:
            print(f"  hostile markup on {', '.join(outcome.markup_in)}")
    return 1 if figures.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
