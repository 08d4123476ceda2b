"""Rooms: restart-from-scratch against the guess-and-test stack, on the same spec and seeds.

Both run the same network (rooms as variables, placements as values, the same tests); the
restart strategy starts again from nothing after a failed room (backtrack policy with no
undos), the stack undoes to the most recent room with untried placements. Printed per seed:
restart attempts and guesses, stack guesses and undos, the ratio of guesses, and the stack
capped at 50 undos per attempt (`search.undos: 50`), the cure for an early bad guess.

    python benchmarks/bench_rooms.py [spec] [seeds]
    python benchmarks/bench_rooms.py --smoke    # seed 0 of specs/rooms-house.yaml only
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from epcg_spec.search import backtrack
from epcg_spec.spec.load import load_spec

SPEC = Path(__file__).parents[1] / "specs" / "rooms-caves.yaml"
MAX_ATTEMPTS = 1_000_000
CAPPED_UNDOS = 50


def main(spec_path: Path, seeds: int) -> None:
    loaded = load_spec(spec_path)
    problem = loaded.domain.compile(loaded.spec)
    model, _ = problem.network()
    base = backtrack.prepare(model)
    order = "mrv" if loaded.spec.search.order == "fewest" else "scanline"
    restart_policy = backtrack.Policy(heuristic=order, max_backtracks=0, attempts=MAX_ATTEMPTS)
    capped_policy = backtrack.Policy(
        heuristic=order, max_backtracks=CAPPED_UNDOS, attempts=MAX_ATTEMPTS
    )
    backtrack.solve(model, 0, restart_policy, base)  # compile before timing
    print(f"{spec_path.name}: {len(loaded.spec.rooms)} rooms, seeds 0..{seeds - 1}")
    print(
        f"{'seed':>4} {'restart attempts':>16} {'guesses':>9} {'s':>7} | "
        f"{'stack guesses':>13} {'undos':>7} {'s':>7} | guesses ratio | "
        f"capped: attempts, guesses"
    )
    ratios, attempts, stack_guesses, capped_guesses, times = [], [], [], [], [0.0, 0.0]
    for seed in range(seeds):
        began = time.perf_counter()
        restart = backtrack.solve(model, seed, restart_policy, base)
        middle = time.perf_counter()
        run = backtrack.Search(model, base, backtrack.attempt_seed(seed, 0), order)
        status = run.run()
        ended = time.perf_counter()
        capped = backtrack.solve(model, seed, capped_policy, base)
        stats = run.stats()
        assert restart.status == capped.status == "solved" and status == backtrack.SOLVED
        capped_guesses.append(capped.decisions)
        ratio = restart.decisions / stats["decisions"]
        ratios.append(ratio)
        attempts.append(restart.attempts)
        stack_guesses.append(stats["decisions"])
        times[0] += middle - began
        times[1] += ended - middle
        print(
            f"{seed:>4} {restart.attempts:>16,} {restart.decisions:>9,} {middle - began:>7.2f} | "
            f"{stats['decisions']:>13,} {stats['backtracks']:>7,} {ended - middle:>7.2f} | "
            f"{ratio:>8.1f}x      | {capped.attempts:>4,} {capped.decisions:>7,}"
        )
    print(
        f"median: restart {statistics.median(attempts):,.0f} attempts; stack "
        f"{statistics.median(stack_guesses):,.0f} guesses; guesses ratio (restart / stack) "
        f"median {statistics.median(ratios):.1f}x; time ratio (total) {times[0] / times[1]:.1f}x"
    )
    print(
        f"worst: restart {max(attempts):,} attempts; stack {max(stack_guesses):,} guesses; "
        f"stack capped at {CAPPED_UNDOS} undos {max(capped_guesses):,} guesses "
        f"(median {statistics.median(capped_guesses):,.0f})"
    )


if __name__ == "__main__":
    if sys.argv[1:] == ["--smoke"]:
        main(SPEC.with_name("rooms-house.yaml"), 1)
    else:
        main(
            Path(sys.argv[1]) if len(sys.argv) > 1 else SPEC,
            int(sys.argv[2]) if len(sys.argv) > 2 else 10,
        )
