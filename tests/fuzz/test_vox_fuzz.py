"""Mutated copies of the MagicaVoxel files that MagicaVoxel saved (tests/domains/wfc/data/
tool-made/magicavoxel) and of the shipped terrain sample, each read as a cube grid's sample
through `validate` in the guarded worker of spec_mutator.py: exit 0, or exit 1 with located
lines; never exit 3, never a hang (a chunk claiming negative children once looped forever)."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest

from .spec_mutator import exits_of_mutated_inputs

ROOT = Path(__file__).resolve().parents[2]
FILES = [
    *sorted((ROOT / "tests" / "domains" / "wfc" / "data" / "tool-made" / "magicavoxel").iterdir()),
    ROOT / "specs" / "wfc-worlds" / "terrain-sample.vox",
]
SEED = 11
COUNT = 40  # about 3 s on a 2-core machine
LARGE_COUNT = 400  # the slow run's
TIME_LIMIT_S = 10.0
SPEC = "kind: wfc\nname: vox-fuzz\nmodel: overlapping\ngrid: cube\nsample: vox/{name}\nN: 2\n"
SPEC += "width: 4\nheight: 4\ndepth: 2\n"
ODD = [-(2**31), -12, -1, 0, 1, 3, 12, 255, 256, 2**20, 2**31 - 1]


def _headers(data: bytes) -> list[int]:
    """Offsets of the chunks' size fields (content, children) as a reader walks them."""
    fields, at = [12, 16], 20
    while at + 12 <= len(data):
        fields += [at + 4, at + 8]
        content, children = struct.unpack_from("<ii", data, at + 4)
        if content < 0 or children < 0:
            break
        at += 12 + content + children
    return fields


def _mutate(data: bytes, rng: random.Random) -> bytes:
    """One of: a size field, or any aligned int32, set to an odd value; a cut; a byte flipped."""
    out = bytearray(data)
    how = rng.randrange(4)
    if how == 0:
        struct.pack_into("<i", out, rng.choice(_headers(data)), rng.choice(ODD))
    elif how == 1:
        struct.pack_into("<i", out, 4 * rng.randrange(len(out) // 4), rng.choice(ODD))
    elif how == 2:
        del out[rng.randrange(len(out)) :]
    else:
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def _fuzz(folder, count: int) -> None:
    """`count` mutants, each exit 0 or exit 1 with located lines; some of each."""
    (folder / "vox").mkdir()
    rng = random.Random(SEED)

    def mutant(i: int) -> tuple[str, str, str]:
        source = FILES[i % len(FILES)]
        data = source.read_bytes()
        for _ in range(rng.choice((1, 1, 2))):
            data = _mutate(data, rng)
        (folder / "vox" / source.name).write_bytes(data)
        return source.name, "vox-fuzz.yaml", SPEC.format(name=source.name)

    exits, failures = exits_of_mutated_inputs(folder, TIME_LIMIT_S, count, mutant)
    assert not failures, "\n".join(failures[:5])
    assert set(exits) <= {0, 1} and exits[0] > 0  # some mutants still read (a colour changed)
    assert exits[1] > count // 4  # the mutations do break files


def test_mutated_vox_samples_exit_0_or_1_with_located_lines(tmp_path):
    _fuzz(tmp_path, COUNT)


@pytest.mark.slow
def test_a_large_vox_fuzz_run(tmp_path):
    _fuzz(tmp_path, LARGE_COUNT)
