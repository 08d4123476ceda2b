"""Mutated copies of the Tiled maps and tileset that Tiled saved (the wfc fixtures in
tests/domains/wfc/data/tool-made/tiled), each learnt from by a spec through `validate` in the
guarded worker of spec_mutator.py: exit 0, or exit 1 with located lines; never exit 3 (a
traceback, from our reader or from PyTMX), never a hang, never past the worker's memory."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from .spec_mutator import exits_of_mutated_inputs, mutate_once

TILED = Path(__file__).resolve().parents[1] / "domains" / "wfc" / "data" / "tool-made" / "tiled"
SEED = 7
COUNT = 240  # about 10 s on a busy 2-core machine
TIME_LIMIT_S = 10.0
SPEC = "kind: wfc\nname: map-fuzz\nmodel: tiled\nexample: maps/{map}\nsize: 4\n"


def test_mutated_tiled_maps_exit_0_or_1_with_located_lines(tmp_path):
    maps = tmp_path / "maps"
    files = sorted(p.name for p in TILED.iterdir() if p.suffix in (".tmx", ".tsx"))
    rng = random.Random(SEED)

    def mutant(i: int) -> tuple[str, str, str]:
        shutil.copytree(TILED, maps, dirs_exist_ok=True)  # the last mutant's file mended
        name = files[i % len(files)]
        text = (TILED / name).read_text()
        for _ in range(rng.choice((1, 1, 2, 3))):
            text = mutate_once(text, ".tmx", rng)
        (maps / name).write_text(text)
        example = name if name.endswith(".tmx") else "square-csv.tmx"  # it uses the .tsx
        return f"{name}\n{text[:600]!r}", "map-fuzz.yaml", SPEC.format(map=example)

    exits, failures = exits_of_mutated_inputs(tmp_path, TIME_LIMIT_S, COUNT, mutant)
    assert not failures, "\n".join(failures[:5])
    assert set(exits) <= {0, 1} and exits[0] > 0  # some mutants still read (a digit changed)
    assert exits[1] > COUNT // 3  # the mutations do break maps
