"""The schema check of a large valid spec: jsonschema-rs's fast yes against jsonschema alone.

    python benchmarks/bench_schema.py [--rounds N] [--smoke]

Two documents, made here: a Tracery JSON grammar of 10,000 rules of 25 options each (1.9 MB)
and a space spec of 20,000 constraints, half of them `{name, expr}` mappings. For each, in
alternating rounds (default 3), the least time of `schema.validate` (the fast check, then
nothing more, as the document is valid) and of jsonschema's own check (what `validate` ran
before, and still runs to explain a refused document), and their ratio.

`--smoke`: a tenth of each document and one round, to check that it runs.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from epcg_spec.spec import schema  # noqa: E402
from epcg_spec.spec.load import domain_of, parse_document  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
ROUNDS = (
    1 if SMOKE else int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
)
SCALE = 10 if SMOKE else 1


def grammar_text(rules: int, options: int) -> str:
    """A Tracery grammar whose every rule names the next one in its first option."""
    grammar = {"origin": ["#r0#"]}
    for i in range(rules):
        grammar[f"r{i}"] = [f"word0 #r{(i + 1) % rules}#"] + [f"w{j}" for j in range(1, options)]
    return json.dumps(grammar)


def space_text(constraints: int) -> str:
    """A permutation space with `constraints` constraints, plain and named in turn."""
    lines = ["kind: space", "name: many", "space: {type: permutation, n: 8, name: q}"]
    lines.append("constraints:")
    for i in range(constraints):
        expr = f"q[{i % 8}] != {8 + i % 5}"
        lines.append(f"  - {{name: c{i}, expr: '{expr}'}}" if i % 2 else f"  - {expr}")
    return "\n".join(lines) + "\n"


def _seconds(function, *args) -> float:
    began = time.perf_counter()
    function(*args)
    return time.perf_counter() - began


def main() -> None:
    cases = {
        f"tracery grammar, {10_000 // SCALE:,} rules x 25": (
            grammar_text(10_000 // SCALE, 25),
            Path("grammar.json"),
        ),
        f"space, {20_000 // SCALE:,} constraints": (space_text(20_000 // SCALE), Path("s.yaml")),
    }
    print(f"{'document':36} {'jsonschema':>11} {'fast path':>10} {'ratio':>7}")
    for label, (text, path) in cases.items():
        doc = parse_document(text, path)
        name = domain_of(doc).schema
        assert schema.validate(doc, name) == []  # valid: the fast check is all it takes
        reference = fast = float("inf")
        for _ in range(ROUNDS):  # alternating, so a shared machine's load falls on both
            reference = min(reference, _seconds(_reference, doc.data, name))
            fast = min(fast, _seconds(schema.validate, doc, name))
        print(f"{label:36} {reference:10.3f}s {fast:9.3f}s {reference / fast:6.0f}x")


def _reference(data, name: str) -> list:
    """jsonschema's errors, as `validate` found them before the fast check."""
    return list(schema._validator(name).iter_errors(data))


if __name__ == "__main__":
    main()
