"""Expansions per second on Tracery 2's test grammar (`#origin#`), against tracery-grammar.

The reference is the npm package tracery-grammar (Tracery 2's own code) under node,
run by bench_tracery.js in the same run. It is not a dependency of epcg-spec; install
it into any folder and name that folder: `npm install --prefix DIR tracery-grammar@2.8.4`,
then `TRACERY_GRAMMAR_DIR=DIR python benchmarks/bench_tracery.py` (without node or the
package the table gives ratios to pytracery, the `tracery` package on PyPI, if that is
installed, and to our own Python walks otherwise).

Rows: our compiled walks (kernels choose, Python joins the text once; draws are made
BLOCK at a time, as `build` makes them) in both sampling modes, and the Python walks of
`search.expand` that they stand in for (the figures before the kernels), each with the
rank of every output as `build` reports it (and the uniform sampler without ranks, as
`sample -n` draws). The methods take turns, ROUNDS rounds; each row gives its median.
Run: `python benchmarks/bench_tracery.py [--smoke]` (smoke: 0.05 s per method, 1 round).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from epcg_spec.core.rng import SplitMix64  # noqa: E402
from epcg_spec.domains.tracery.compile import Rule  # noqa: E402
from epcg_spec.domains.tracery.expansion import BLOCK, Expansion  # noqa: E402

GRAMMAR = ROOT / "tests/domains/tracery/data/test-page-grammar.json"
ORIGIN = "#origin#"
SMOKE = "--smoke" in sys.argv[1:]
SECONDS = 0.05 if SMOKE else 1.0
ROUNDS = 1 if SMOKE else 5


def rate(expand, per_call: int = 1) -> float:
    """Expansions per second over about SECONDS of wall time (after one warm-up call)."""
    expand(0)
    done, began = 0, time.perf_counter()
    while time.perf_counter() - began < SECONDS:
        expand(done)
        done += per_call
    return done / (time.perf_counter() - began)


def javascript() -> tuple[str, float] | None:
    """(label, rate) of tracery-grammar under node, or None if either is missing."""
    node, folder = shutil.which("node"), os.environ.get("TRACERY_GRAMMAR_DIR")
    if node is None or folder is None:
        print("no JS reference: set TRACERY_GRAMMAR_DIR (see the docstring)", file=sys.stderr)
        return None
    env = {**os.environ, "NODE_PATH": str(Path(folder) / "node_modules")}
    script = Path(__file__).with_name("bench_tracery.js")
    done = subprocess.run(
        [node, str(script), str(GRAMMAR), ORIGIN, str(SECONDS)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout)
    return f"tracery-grammar {found['version']} (JS, node)", found["rate"]


def pytracery():
    """pytracery's expansion of ORIGIN, or None if it is not installed."""
    try:
        import tracery
        from tracery.modifiers import base_english
    except ImportError:
        return None
    grammar = tracery.Grammar(json.loads(GRAMMAR.read_text("utf-8")))
    grammar.add_modifiers(base_english)
    return lambda i: grammar.flatten(ORIGIN)


def methods(expansion: Expansion) -> dict[str, tuple]:
    """Name -> (expand(i), expansions per call) for each of our methods."""
    engine, sampler = expansion.engine, expansion.sampler

    def python_uniform(i: int) -> tuple[int, str]:
        derivation = sampler.draw(1, i)
        return engine.rank(derivation.choices), expansion.text(derivation)

    def python_tracery(i: int) -> tuple[int, str]:
        derivation = engine.sample_local(SplitMix64(2, i))
        return engine.rank(derivation.choices), expansion.text(derivation)

    def python_unranked(i: int) -> str:
        return expansion.text(sampler.draw(1, i))

    return {
        "epcg uniform, compiled": (lambda i: expansion.draws(1, range(i, i + BLOCK)), BLOCK),
        "epcg uniform, compiled, no rank": (
            lambda i: expansion.draws(1, range(i, i + BLOCK), ranked=False),
            BLOCK,
        ),
        "epcg tracery 2 mode, compiled": (
            lambda i: expansion.locals(2, range(i, i + BLOCK)),
            BLOCK,
        ),
        "epcg uniform, Python walk (before)": (python_uniform, 1),
        "epcg uniform, Python walk, no rank (before)": (python_unranked, 1),
        "epcg tracery 2 mode, Python walk (before)": (python_tracery, 1),
    }


def main() -> int:
    rules = json.loads(GRAMMAR.read_text("utf-8"))
    expansion = Expansion({k: tuple(Rule(r) for r in v) for k, v in rules.items()}, ORIGIN)
    ours = methods(expansion)
    others = {"pytracery (PyPI tracery)": (pytracery(), 1)}
    timed = {name: (f, n) for name, (f, n) in {**ours, **others}.items() if f is not None}
    rates: dict[str, list[float]] = {}
    for _ in range(ROUNDS):
        found = javascript()
        if found is not None:
            rates.setdefault(found[0], []).append(found[1])
        for name, (expand, per_call) in timed.items():
            rates.setdefault(name, []).append(rate(expand, per_call))
    median = {name: statistics.median(values) for name, values in rates.items()}
    reference = next((n for n in median if n.startswith("tracery-grammar")), None)
    reference = reference or next((n for n in median if n.startswith("pytracery")), None)
    reference = reference or "epcg uniform, Python walk (before)"
    print(f"{ROUNDS} rounds of {SECONDS} s per method; medians; reference: {reference}")
    print(f"{'method':<44} {'expansions/s':>13} {'vs reference':>13}")
    for name, value in sorted(median.items(), key=lambda item: -item[1]):
        print(f"{name:<44} {value:>13,.0f} {value / median[reference]:>12.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
