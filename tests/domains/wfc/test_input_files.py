"""A WFC spec's sample image is part of its run: result.json names it with its sha256, a
resume after it changed is refused, and shards made from other versions of it do not merge."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from PIL import Image, ImageOps

from epcg_spec.cli.main import main
from epcg_spec.search import driver
from epcg_spec.search.merge import OWN
from tests.domains.wfc.paths import DATA


def _spec(folder: Path, write_spec) -> Path:
    """A small overlapping spec in `folder`, its sample (a copy of the maze) beside it."""
    (folder / "samples").mkdir(parents=True)
    shutil.copy(DATA / "maze.png", folder / "samples" / "maze.png")
    spec = write_spec(
        model="overlapping", sample="samples/maze.png", N=3, symmetry=8, periodic=True,
        size=12, outputs=3, seed=4,
    )  # fmt: skip
    return Path(shutil.move(spec, folder / spec.name))


def _invert(image: Path) -> None:
    """The sample drawn again with its two colours swapped: the same patterns, so a result
    made from it differs from the original's only in its pictures and the digest."""
    with Image.open(image) as opened:
        ImageOps.invert(opened.convert("RGB")).save(image)


def _build(spec: Path, out: Path, *flags: str) -> int:
    return main(["build", str(spec), "--out", str(out), "-q", *flags])


def _digest(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def test_result_json_names_the_sample_with_its_sha256(write_spec, tmp_path):
    spec = _spec(tmp_path / "spec", write_spec)
    assert _build(spec, tmp_path / "out") == 0
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    assert result["inputs"] == {"samples/maze.png": _digest(tmp_path / "spec/samples/maze.png")}
    assert list(result)[:6] == ["spec", "kind", "backend", "version", "seed", "inputs"]


def test_a_resume_after_the_sample_changed_is_refused(write_spec, tmp_path, capsys):
    spec, out = _spec(tmp_path / "spec", write_spec), tmp_path / "out"
    assert _build(spec, out, "--time-limit", "1e-9") == 0
    assert json.loads((out / "result.json").read_text())["partial"]["units_done"] < 3
    _invert(tmp_path / "spec/samples/maze.png")
    capsys.readouterr()
    assert _build(spec, out, "--resume") == 2
    assert capsys.readouterr().err == (
        f"usage error: {out / driver.CHECKPOINT_NAME} belongs to a run whose input file "
        "samples/maze.png differs from the one there now; run with --fresh to discard it, or "
        "use another --out\n"
    )
    assert _build(spec, out, "--fresh") == 0  # as after a change of the spec itself
    assert _build(spec, tmp_path / "clean") == 0
    made, clean = ((tmp_path / n / "result.json").read_text() for n in ("out", "clean"))
    assert json.loads(made)["best"] == json.loads(clean)["best"]


def test_shards_made_from_other_samples_are_not_merged(write_spec, tmp_path, capsys):
    """The two shards agree on every field a merge compares but the digest: the merge
    joined the outputs of two samples into one run."""
    for i in range(2):
        spec = _spec(tmp_path / f"spec{i}", write_spec)
        if i:
            _invert(spec.parent / "samples/maze.png")
        assert _build(spec, tmp_path / f"s{i}", "--shard", f"{i}/2") == 0
    capsys.readouterr()
    merged = tmp_path / "merged"
    assert main(["merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(merged)]) == 2
    assert capsys.readouterr().err == (
        "usage error: cannot merge: the results differ in 'inputs': the shards read different "
        "versions of samples/maze.png\n"
    )
    assert not merged.exists()
    shards = [json.loads((tmp_path / f"s{i}/result.json").read_text()) for i in range(2)]
    compared = [{k: v for k, v in s.items() if k not in OWN} for s in shards]
    assert compared[0].pop("inputs") != compared[1].pop("inputs")
    assert compared[0] == compared[1]
