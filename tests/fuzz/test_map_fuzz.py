"""Mutated copies of the Tiled maps and tileset that Tiled saved (the wfc fixtures in
tests/domains/wfc/data/tool-made/tiled), each learnt from by a spec through `validate` in the
guarded worker of spec_mutator.py: exit 0, or exit 1 with located lines; never exit 3 (a
traceback, from our reader or from PyTMX), never a hang, never past the worker's memory."""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

from .spec_mutator import Runner, mutate_once

TILED = Path(__file__).resolve().parents[1] / "domains" / "wfc" / "data" / "tool-made" / "tiled"
SEED = 7
COUNT = 240  # about 10 s on a busy 2-core machine
TIME_LIMIT_S = 10.0
SPEC = "kind: wfc\nname: map-fuzz\nmodel: tiled\nexample: maps/{map}\nsize: 4\n"


def test_mutated_tiled_maps_exit_0_or_1_with_located_lines(tmp_path):
    maps = tmp_path / "maps"
    shutil.copytree(TILED, maps)
    files = sorted(p.name for p in TILED.iterdir() if p.suffix in (".tmx", ".tsx"))
    rng = random.Random(SEED)
    runner = Runner(tmp_path, TIME_LIMIT_S)
    failures, exits = [], Counter()
    try:
        for i in range(COUNT):
            name = files[i % len(files)]
            text = (TILED / name).read_text()
            for _ in range(rng.choice((1, 1, 2, 3))):
                text = mutate_once(text, ".tmx", rng)
            (maps / name).write_text(text)
            example = name if name.endswith(".tmx") else "square-csv.tmx"  # it uses the .tsx
            outcome, _ = runner.run(Path("map-fuzz.yaml"), SPEC.format(map=example))
            exits[outcome.code] += 1
            if not outcome.ok:
                failures.append(f"--- {name}: exit {outcome.code}: {outcome.output[:300]}\n"
                                f"{text[:600]!r}")  # fmt: skip
            shutil.copy(TILED / name, maps / name)
    finally:
        runner.close()
    assert not failures, "\n".join(failures[:5])
    assert set(exits) <= {0, 1} and exits[0] > 0  # some mutants still read (a digit changed)
    assert exits[1] > COUNT // 3  # the mutations do break maps
