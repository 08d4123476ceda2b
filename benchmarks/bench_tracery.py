"""Expansions per second on Tracery 2's test grammar (`#origin#`), against pytracery.

pytracery is the `tracery` package on PyPI (not a dependency of epcg-spec); install it
for this benchmark with `pip install tracery`.
Run: `python benchmarks/bench_tracery.py [--smoke]` (smoke: 0.05 s per method).
Prints each method's rate and its ratio to pytracery measured in the same run.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from epcg_spec.core.rng import SplitMix64
from epcg_spec.domains.tracery.compile import Rule
from epcg_spec.domains.tracery.expansion import Expansion

GRAMMAR = Path(__file__).parents[1] / "tests/domains/tracery/data/test-page-grammar.json"
SECONDS = 0.05 if "--smoke" in sys.argv[1:] else 3.0


def rate(expand) -> float:
    """Expansions per second, over about SECONDS of wall time."""
    expand(0)
    done, began = 0, time.perf_counter()
    while time.perf_counter() - began < SECONDS:
        for _ in range(100):
            expand(done)
            done += 1
    return done / (time.perf_counter() - began)


def main() -> int:
    rules = json.loads(GRAMMAR.read_text("utf-8"))
    symbols = {k: tuple(Rule(r) for r in v) for k, v in rules.items()}
    expansion = Expansion(symbols, "#origin#")
    rows = []
    try:
        import tracery
        from tracery.modifiers import base_english
    except ImportError:
        print("pytracery is not installed: pip install tracery", file=sys.stderr)
        reference = None
    else:
        grammar = tracery.Grammar(rules)
        grammar.add_modifiers(base_english)
        reference = rate(lambda i: grammar.flatten("#origin#"))
        rows.append(("pytracery (reference)", reference))
    rows.append(("epcg uniform, sampler", rate(lambda i: expansion.draw(1, i, ranked=False))))
    rows.append(("epcg uniform, sampler + rank", rate(lambda i: expansion.draw(1, i))))
    rows.append(("epcg uniform, exact unrank", rate(lambda i: expansion.uniform(SplitMix64(1, i)))))
    rows.append(("epcg tracery-style", rate(lambda i: expansion.local(SplitMix64(2, i)))))
    print(f"{'method':<34} {'expansions/s':>14} {'vs pytracery':>13}")
    for name, value in rows:
        ratio = f"{value / reference:.2f}x" if reference else "n/a"
        print(f"{name:<34} {value:>14,.0f} {ratio:>13}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
