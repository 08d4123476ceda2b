"""PPG on the propagate + backtrack back ends, against references measured in the same run.

Prints, in one run:
- counting every valid order of n free one-goal objects (OEIS A001035: 219, 4231, 130023)
  with the order network, against plain-Python brute force over every relation (the test
  oracle) where that is feasible (n = 4);
- 200 seeded puzzles of specs/ppg-escape-room.yaml (PPG's shipped generator made cyclic
  graphs in 23 of 200 seeded runs of one of its universes): how many fail the simulation
  check, and the time per puzzle;
- puzzles of 20 and 60 nodes (objects of three states, a goal and two rules): time per puzzle;
- the canonical forms of `symmetry: templates` for the 4,231 orders of 5 copies of a template
  (120 relabellings): all images at once against one image per relabelling (the loop it
  replaced), the same classes counted (63, OEIS A000112).
Kernels are compiled (or loaded from the cache) before any timing.

Run: python benchmarks/bench_ppg.py [--smoke]   (smoke: n = 4, 5; 5 seeds; 20 nodes)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from epcg_spec.core.context import RunContext  # noqa: E402
from epcg_spec.domains.ppg.enumerate import canonical, enumerate_orders, relabellings  # noqa: E402
from epcg_spec.domains.ppg.network import order_network, resolve_rules  # noqa: E402
from epcg_spec.domains.ppg.problem import PpgProblem  # noqa: E402
from epcg_spec.domains.ppg.simulate import simulate  # noqa: E402
from epcg_spec.domains.ppg.universe import draw_universe, largest_universe  # noqa: E402
from epcg_spec.search import backtrack  # noqa: E402
from epcg_spec.spec.load import load_spec  # noqa: E402
from tests.domains.ppg.helpers import chain_object, spec_of  # noqa: E402
from tests.oracles.ppg_oracle import valid_orders  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
SEEDS = 5 if SMOKE else 200
ORDERS = (5,) if SMOKE else (5, 6)  # n free one-goal objects
LARGE = (20,) if SMOKE else (20, 60)  # nodes of the large puzzles
COPIES = 5  # copies of one template, for the canonical forms


def network_count(n: int) -> tuple[int, float]:
    spec = spec_of({"objects": [chain_object(f"O{k}", 2) for k in range(n)]})
    universe = largest_universe(spec)
    began = time.perf_counter()
    model = order_network(universe, resolve_rules(universe), spec.density).net.compile()
    found = backtrack.count(model)[0]
    return found, time.perf_counter() - began


def large_universe(n: int) -> dict:
    """n / 2 objects of three states (every other one one-way), a goal and two rules."""
    return {
        "objects": [chain_object(f"O{k}", 3, k % 2 == 0) for k in range(n // 2)],
        "rules": [
            {"type": "STRICT_BEFORE", "lh": {"name": "O0", "state": "s2"}, "rh": {"name": "O1"}},
            {"type": "BEFORE", "lh": {"name": "O2", "state": "s2"}, "rh": {"name": "O3"}},
        ],
        "goal": {"name": f"O{n // 2 - 1}", "state": "s2"},
    }


def one_image_per_relabelling(order: np.ndarray, perms: np.ndarray) -> bytes:
    """The reference: the smallest image, made one relabelling at a time."""
    images = []
    for perm in perms:
        image = np.zeros_like(order)
        image[np.ix_(perm, perm)] = order
        images.append(np.packbits(image).tobytes())
    return min(images)


def canonical_forms(copies: int) -> None:
    spec = spec_of({"objects": [chain_object("Lever", 2, copies=copies)]})
    universe = largest_universe(spec)
    network = order_network(universe, resolve_rules(universe), spec.density)
    found, _ = enumerate_orders(network, universe, 10**6, False, RunContext())
    perms = relabellings(universe)
    inverses = np.argsort(perms, axis=1)
    began = time.perf_counter()
    ours = {canonical(order, inverses) for order in found.orders}
    at_once = time.perf_counter() - began
    began = time.perf_counter()
    reference = {one_image_per_relabelling(order, perms) for order in found.orders}
    one_by_one = time.perf_counter() - began
    print(
        f"{copies} copies: {len(ours)} classes of {found.count} orders (reference "
        f"{len(reference)}); all images at once {at_once:.2f} s, one per relabelling "
        f"{one_by_one:.2f} s, ratio {one_by_one / at_once:.1f}x"
    )


def main() -> None:
    network_count(3)  # compile or load the kernels
    spec4 = spec_of({"objects": [chain_object(f"O{k}", 2) for k in range(4)]})
    began = time.perf_counter()
    reference = len(valid_orders(largest_universe(spec4), []))
    brute = time.perf_counter() - began
    found, ours = network_count(4)
    print(
        f"n=4: {found} orders (brute force {reference}); network {ours * 1e3:.1f} ms, "
        f"brute force {brute * 1e3:.0f} ms, ratio {brute / ours:.0f}x"
    )
    for n in ORDERS:
        found, ours = network_count(n)
        print(f"n={n}: {found} orders in {ours:.2f} s ({found / ours:,.0f} orders/s)")
    spec = load_spec(ROOT / "specs" / "ppg-escape-room.yaml").spec
    problem = PpgProblem(spec)
    failed, began = 0, time.perf_counter()
    for seed in range(SEEDS):
        universe = draw_universe(spec, seed)
        network = order_network(universe, resolve_rules(universe), spec.density)
        policy = backtrack.Policy(heuristic=spec.heuristic, attempts=spec.attempts)
        outcome = backtrack.solve(network.net.compile(), seed, policy)
        failed += (
            outcome.values is None or not simulate(universe, network.relation(outcome.values)).ok
        )
    per = (time.perf_counter() - began) / SEEDS
    for n in LARGE:
        large = PpgProblem(spec_of(large_universe(n)))
        began = time.perf_counter()
        for seed in range(5):
            large._one_puzzle(seed)
        print(f"{n} nodes: {(time.perf_counter() - began) / 5:.3f} s per puzzle")
    print(
        f"{SEEDS} seeded puzzles of {problem.name}: {failed} failed simulation "
        f"(PPG: 23 of 200 cyclic); {per * 1e3:.1f} ms per puzzle"
    )
    canonical_forms(COPIES)


if __name__ == "__main__":
    main()
