"""The layer store: a published file is read back only if it matches its manifest; a damaged
one (changed bytes, cut short, a missing or stale manifest) is reported once and, under the
retrograde back end, computed again to the same bytes and counts."""

import json
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from filelock import FileLock

from epcg_spec.core.context import RunContext
from epcg_spec.domains.fling.problem import layered_space
from epcg_spec.search import layer_store
from epcg_spec.search.layer_store import MANIFEST, Damaged, LayerStore
from epcg_spec.search.retrograde import Plan, Retrograde
from tests.deadline import deadline

PLAN = Plan(solvable=4, unique=5, rules=("moves", "boards"), unique_by="predecessors")


def flip(path, at=-3):
    data = bytearray(path.read_bytes())
    data[at] ^= 0x5A
    path.write_bytes(bytes(data))


def cut(path):
    path.write_bytes(path.read_bytes()[:-8])


def drop_manifest(path):
    (path.parent / (path.name + MANIFEST)).unlink()


def stale_manifest(path):
    """The manifest of another layer's file put in this one's place."""
    twin = next(p for p in sorted(path.parent.glob(f"*{path.suffix}")) if p != path)
    (path.parent / (path.name + MANIFEST)).write_bytes(
        (path.parent / (twin.name + MANIFEST)).read_bytes()
    )


def edit_count(path):
    sums = path.parent / (path.name + MANIFEST)
    manifest = json.loads(sums.read_text())
    manifest["record"]["count"] += 1
    sums.write_text(json.dumps(manifest))


def manifest_as_a_list(path):
    """A manifest that is JSON but no object: an AttributeError, exit 3."""
    (path.parent / (path.name + MANIFEST)).write_text("[1, 2]")


@pytest.fixture
def store(tmp_path):
    lines: list[str] = []
    store = LayerStore(tmp_path, lines.append)
    store.lines = lines
    return store


def test_a_published_array_reads_back_with_its_record(store):
    ranks = np.array([3, 5, 8, 13], np.int64)
    store.publish_array("unique-moves-4.npy", ranks, {"count": 4})
    store.publish_array("solvable-4.bits", np.array([7, 1 << 63], np.uint64), {"count": 4})
    assert store.record("unique-moves-4.npy") == {"count": 4}
    assert store.read_array("unique-moves-4.npy").tolist() == [3, 5, 8, 13]
    assert store.read_bits("solvable-4.bits").tolist() == [7, 1 << 63]
    assert store.record("unique-moves-5.npy") is None and store.lines == []


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (flip, "SHA-256 differs"),
        (cut, "1,016 bytes, its manifest says 1,024"),
        (drop_manifest, "it has no manifest"),
        (edit_count, "manifest is damaged"),
        (manifest_as_a_list, "manifest is damaged"),
    ],
)
def test_a_damaged_file_is_reported_once_and_never_read(store, damage, says):
    store.publish_array("solvable-3.bits", np.arange(128, dtype=np.uint64), {"count": 9})
    damage(store.path("solvable-3.bits"))
    assert store.record("solvable-3.bits") is None
    with pytest.raises(Damaged):
        store.read_bits("solvable-3.bits")
    assert len(store.lines) == 1 and says in store.lines[0]
    assert "solvable-3.bits" in store.lines[0] and "computed again" in store.lines[0]
    store.publish_array("solvable-3.bits", np.arange(128, dtype=np.uint64), {"count": 9})
    assert store.read_bits("solvable-3.bits").tolist() == list(range(128))


def test_a_manifest_that_is_a_pipe_is_damaged_not_read(store):
    """A store shared by others with a pipe in a manifest's place: every run waited forever."""
    store.publish_array("solvable-3.bits", np.arange(128, dtype=np.uint64), {"count": 9})
    manifest = store.path("solvable-3.bits" + MANIFEST)
    manifest.unlink()
    os.mkfifo(manifest)
    with deadline(10):
        assert store.record("solvable-3.bits") is None
    assert len(store.lines) == 1 and "manifest is damaged" in store.lines[0]
    store.publish_array("solvable-3.bits", np.arange(128, dtype=np.uint64), {"count": 9})
    assert store.read_bits("solvable-3.bits").tolist() == list(range(128))


def test_a_manifest_without_its_file_is_a_publication_under_way(store):
    store.publish_array("unique-boards-2.npy", np.arange(4), {"count": 4})
    store.path("unique-boards-2.npy").unlink()
    assert store.record("unique-boards-2.npy") is None and store.lines == []


def test_large_files_are_checked_by_size_until_they_are_read(store, monkeypatch):
    monkeypatch.setattr(layer_store, "FULL_CHECK_BYTES", 100)
    store.publish_array("solvable-5.bits", np.arange(64, dtype=np.uint64), {"count": 3})
    flip(store.path("solvable-5.bits"))
    assert store.record("solvable-5.bits") == {"count": 3}  # 512 bytes: size only
    assert store.record("solvable-5.bits", full=True) is None
    with pytest.raises(Damaged):
        store.read_bits("solvable-5.bits")


def test_a_second_holder_of_a_lock_says_that_it_waits_then_gets_it(store):
    held = FileLock(store.folder / "locks" / "layer-3.lock")
    (store.folder / "locks").mkdir(parents=True)
    held.acquire()
    order: list[str] = []

    def second():
        with store.lock("layer-3", "layer 3"):
            order.append("second has it")

    thread = threading.Thread(target=second)
    thread.start()
    deadline = time.monotonic() + 10
    while not store.lines and time.monotonic() < deadline:
        time.sleep(0.01)
    order.append("first lets go")
    held.release()
    thread.join(10)
    assert store.lines == ["waiting for another run that is computing layer 3"]
    assert order == ["first lets go", "second has it"]


def test_the_lock_of_a_killed_run_is_free(store):
    (store.folder / "locks").mkdir(parents=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(store.folder / "locks" / "layer-2.lock")],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline() == "held\n"
    holder.kill()
    holder.wait()
    got = []

    def take():
        with store.lock("layer-2", "layer 2"):
            got.append(True)

    thread = threading.Thread(target=take, daemon=True)
    thread.start()
    thread.join(10)
    assert got == [True] and store.lines == []


HOLD = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
time.sleep(60)
"""


# ---- the retrograde back end over a damaged store ----


def retro(folder) -> Retrograde:
    return Retrograde(layered_space(4, 4), folder, RunContext())


def files(folder) -> dict:
    """Every file but the locks; of a manifest, what it says but the timings."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.parent.name != "locks":
            found[path.name] = path.read_bytes()
            if path.name.endswith(MANIFEST):
                manifest = json.loads(found[path.name])
                found[path.name] = (manifest["sha256"], manifest["record"]["count"])
    return found


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fresh")
    reports = retro(folder).run(PLAN)
    return folder, [(r.solvable, r.unique) for r in reports]


def counts(reports):
    return [(r.solvable, r.unique) for r in reports]


@pytest.mark.parametrize("damage", [flip, cut, drop_manifest, stale_manifest, edit_count])
@pytest.mark.parametrize("name", ["solvable-3.bits", "unique-moves-4.npy", "unique-boards-5.npy"])
def test_a_damaged_layer_is_computed_again(fresh, tmp_path, capsys, damage, name):
    folder, expected = fresh
    store = tmp_path / "store"
    retro(store).run(PLAN)
    (path,) = store.rglob(name)
    damage(path)
    again = retro(store).run(PLAN)
    assert counts(again) == expected
    layer = int(name.split("-")[-1].split(".")[0])
    assert [r.pieces for r in again if r.evaluated] == [layer]
    assert files(store) == files(folder)
    assert capsys.readouterr().err.count(name) == 1


def test_a_damaged_input_found_while_computing_is_computed_first(fresh, tmp_path, monkeypatch):
    """Layer 3's bits pass the size check, then fail as layer 4 reads them."""
    monkeypatch.setattr(layer_store, "FULL_CHECK_BYTES", 0)
    folder, expected = fresh
    store = tmp_path / "store"
    retro(store).run(Plan(3, 3, PLAN.rules, PLAN.unique_by))
    (path,) = store.rglob("solvable-3.bits")
    flip(path, at=0)
    again = retro(store).run(PLAN)
    assert counts(again) == expected
    assert [r.pieces for r in again if r.evaluated] == [3, 4, 5]
    assert path.read_bytes() == next(folder.rglob("solvable-3.bits")).read_bytes()


def test_damaged_unique_ranks_are_computed_again_when_read(fresh, tmp_path, monkeypatch):
    monkeypatch.setattr(layer_store, "FULL_CHECK_BYTES", 0)
    folder, _ = fresh
    store = tmp_path / "store"
    retro(store).run(PLAN)
    (path,) = store.rglob("unique-boards-5.npy")
    flip(path)
    reader = retro(store)
    reader.run(PLAN)  # size only: the damage is not seen yet
    good = np.load(next(folder.rglob("unique-boards-5.npy")))
    assert reader.unique_ranks("boards", 5).tolist() == good.tolist()
