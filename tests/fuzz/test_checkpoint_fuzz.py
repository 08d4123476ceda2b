"""Forged checkpoints, resumed: each edited at random and sealed again, as anyone can (the
seal catches edits, not forgeries). A run exits 0, or 2 with one line naming --fresh:
never an internal error, nor a crash (a forged search state made the kernels read and write
outside their arrays), nor a hang."""

from __future__ import annotations

import base64
import io
import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from epcg_spec.cli.main import main
from epcg_spec.core.seal import sealed, unsealed
from epcg_spec.search import driver
from tests.deadline import deadline

SPECS = Path(__file__).parents[2] / "specs"
ODD_VALUES = ["x", -1, 10**30, [], {}, None, 1.5, True, [1, 2], {"a": 1}]


def _places(node, path=()):
    """Every place in a JSON value (the first three elements of a list)."""
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _places(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node[:3]):
            yield from _places(value, (*path, i))


def _edit_json(body: dict, rng: random.Random) -> None:
    """One value of `next` or of the state replaced by an odd one, or a key taken out."""
    path = rng.choice([("next",), *(("state", *p) for p in _places(body["state"]))])
    node = body
    for key in path[:-1]:
        node = node[key]
    if isinstance(node, dict) and rng.random() < 0.2:
        del node[path[-1]]
    else:
        node[path[-1]] = rng.choice(ODD_VALUES)


def _edit_search(body: dict, rng: random.Random) -> None:
    """One to three entries of a paused search's arrays set to a value near their range."""
    arrays = dict(np.load(io.BytesIO(base64.b64decode(body["state"]["search"]))))
    for _ in range(rng.randint(1, 3)):
        a = arrays[rng.choice(sorted(arrays))].reshape(-1)
        if a.size:
            most = int(np.iinfo(a.dtype).max) if a.dtype.kind in "iu" else 1e300
            values = [0, 1, 2, 7, 63, 64, 1 << 20, most, *([-1] * (a.dtype.kind == "i"))]
            a[rng.randrange(a.size)] = rng.choice([x for x in values if x <= most])
    forged = io.BytesIO()
    np.savez(forged, **arrays)
    body["state"]["search"] = base64.b64encode(forged.getvalue()).decode()


BUILDS = {  # spec -> (its paused build's flags, the edits taken by turns, how many)
    "rooms-caves": (["--steps", "25"], (_edit_json, _edit_search), 10),
    "n-queens": (["--param", "n=10", "--time-limit", "1e-9"], (_edit_json,), 16),
}


@pytest.mark.parametrize("spec", BUILDS)
def test_forged_checkpoints_resume_or_are_refused_in_one_line(spec, tmp_path, capsys):
    args, edits, count = BUILDS[spec]
    run = ["build", str(SPECS / f"{spec}.yaml"), "-q", *args]
    paused = tmp_path / "paused"
    assert main([*run, "--out", str(paused)]) == 0
    record = unsealed(json.loads((paused / driver.CHECKPOINT_NAME).read_text()))
    rng = random.Random(2701)
    exits = []
    for i in range(count):
        body = json.loads(json.dumps(record))
        edits[i % len(edits)](body, rng)
        folder = tmp_path / f"forged-{i}"
        shutil.copytree(paused, folder)
        (folder / driver.CHECKPOINT_NAME).write_text(json.dumps(sealed(body)))
        capsys.readouterr()
        with deadline(120):
            code = main([*run, "--out", str(folder), "--resume"])
        lines = capsys.readouterr().err.strip().splitlines()
        exits.append(code)
        assert code == 0 or (code == 2 and len(lines) == 1 and "--fresh" in lines[0]), lines
        shutil.rmtree(folder)
    assert exits.count(2) >= count // 2  # most forgeries are refused; the rest resume
