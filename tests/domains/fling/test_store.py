"""The layers store shared by runs: two builds of one spec at once both get the right counts,
and a damaged layer is reported, computed again and never read as truth."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from tests.domains.fling.conftest import oracle_layer

ROOT = Path(__file__).parents[3]
SPEC = """\
kind: fling
name: shared
params: {pieces: 5}
board: {width: 4, height: 4}
layers: {solvable: pieces - 1, unique: pieces}
unique: [moves, boards]
select: {top: 1, candidates: 10}
seed: 2
"""


@pytest.fixture
def spec(tmp_path) -> Path:
    path = tmp_path / "shared.yaml"
    path.write_text(SPEC)
    return path


def expected() -> list[tuple]:
    """(solvable, unique by moves, unique by boards) of layers 1..5, by the oracle."""
    rows = []
    for m in range(1, 6):
        layer = oracle_layer(4, 4, m)
        rows.append((len(layer["solvable"]) if m < 5 else None, len(layer["moves"]),
                     len(layer["boards"])))  # fmt: skip
    return rows


def counts(result: dict) -> list[tuple]:
    return [(r["solvable"], r["unique"]["moves"], r["unique"]["boards"]) for r in result["layers"]]


# the command line in a fresh process that says "ready" once imported, and starts once `go`
# exists: the two builds of a trial start together, so they meet on the first layers
AT_GO = """
import sys, time
from pathlib import Path
from epcg_spec.cli.main import entry_point
go = Path(sys.argv.pop(1))
print("ready", flush=True)
while not go.exists():
    time.sleep(0.002)
entry_point()
"""


def build(go: Path, spec: Path, out: Path, store: Path) -> subprocess.Popen:
    """`epcg-spec build` in a fresh process, from the moment `go` exists."""
    argv = ["build", str(spec), "-q", "--out", str(out), "--layers-dir", str(store)]
    return subprocess.Popen(
        [sys.executable, "-c", AT_GO, str(go), *argv],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize(
    "soak", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["until-met", "soak"]
)
def test_two_builds_at_once_on_one_store_both_get_the_right_counts(spec, tmp_path, soak):
    """Pairs of builds until a pair has met on a layer (at most 10), or all 10 when soaking."""
    right = expected()
    waited = 0
    for trial in range(10):
        if waited and not soak:
            break
        store = tmp_path / f"store-{trial}"
        go = tmp_path / f"go-{trial}"
        runs = [build(go, spec, tmp_path / f"out-{trial}-{i}", store) for i in range(2)]
        assert [run.stdout.readline() for run in runs] == ["ready\n"] * 2
        go.touch()
        for i, run in enumerate(runs):
            _, err = run.communicate(timeout=300)
            assert run.returncode == 0, f"trial {trial}, build {i}: {err}"
            said = err.splitlines()
            assert all(
                line.startswith("waiting for another run that is computing layer ") for line in said
            )
            waited += bool(said)
            result = json.loads((tmp_path / f"out-{trial}-{i}" / "result.json").read_text())
            assert counts(result) == right
            assert result["count"] == right[-1][1]
    assert waited > 0  # the two builds did meet on a layer


def flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def cut(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-8])


def no_manifest(path: Path) -> None:
    path.with_name(path.name + ".manifest").unlink()


def stale_manifest(path: Path) -> None:
    """Layer 3's manifest in place of layer 4's."""
    other = path.with_name(path.name.replace("4", "3") + ".manifest")
    path.with_name(path.name + ".manifest").write_bytes(other.read_bytes())


@pytest.mark.parametrize("damage", [flip, cut, no_manifest, stale_manifest])
def test_a_damaged_layer_is_reported_and_computed_again(spec, tmp_path, capsys, damage):
    build = ["build", str(spec), "-q", "--layers-dir", str(tmp_path / "store")]
    assert main([*build, "--out", str(tmp_path / "one")]) == 0
    (bits,) = (tmp_path / "store").rglob("solvable-4.bits")
    damage(bits)
    capsys.readouterr()
    assert main([*build, "--out", str(tmp_path / "two")]) == 0
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"damaged: {bits}: ") and line.endswith("it will be computed again")
    result = json.loads((tmp_path / "two" / "result.json").read_text())
    assert counts(result) == expected()
    assert [layer["computed"] for layer in result["layers"]] == [False] * 3 + [True, False]
