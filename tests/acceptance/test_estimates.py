"""Estimate before allocating (issue 15, hole 5): oversize builds are refused with the numbers,
exit 1, unless --force; the machine's memory and disk are pinned so the tests do not depend
on the machine that runs them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from epcg_spec.compile import budget
from epcg_spec.core.cache import LAYERS
from tests.checkout import checkout_env

SPECS = Path(__file__).resolve().parents[2] / "specs"
GiB = 2.0**30


@pytest.fixture(autouse=True)
def machine(monkeypatch):
    monkeypatch.setattr(budget, "available_memory", lambda: 16 * GiB)
    monkeypatch.setattr(budget, "free_disk", lambda path: 100 * GiB)


def _refused(capsys, argv: list[str], *needs: str) -> str:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: this build would need ") and "--force" in err
    for text in needs:
        assert text in err, err
    return err


def _spec(tmp_path: Path, source: str, old: str, new: str) -> str:
    text = (SPECS / source).read_text()
    assert old in text
    path = tmp_path / source
    path.write_text(text.replace(old, new, 1))
    (tmp_path / "wfc-samples").symlink_to(SPECS / "wfc-samples")  # paths relative to the spec
    return str(path)


def test_queens_20_without_pruning_is_refused_for_its_time(tmp_path, capsys):
    spec = str(SPECS / "n-queens.yaml")
    out = ["--out", str(tmp_path / "out"), "-q"]
    # 20! = 2.4e18 states at 1e8 states/s
    _refused(capsys, ["build", spec, "--param", "n=20", "--no-prune", *out], "771 years")
    assert not (tmp_path / "out").exists()


def test_force_starts_a_refused_build(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(budget, "MAX_SECONDS", 1e-9)
    argv = ["build", str(SPECS / "n-queens.yaml"), "--param", "n=6", "--no-prune", "-q"]
    argv += ["--out", str(tmp_path / "out")]
    _refused(capsys, argv, "more than the 0 s limit")
    assert main([*argv, "--force"]) == 0
    assert (tmp_path / "out" / "result.json").exists()
    capsys.readouterr()


def test_explain_shows_the_estimates_build_checks(capsys):
    assert main(["explain", str(SPECS / "n-queens.yaml"), "--param", "n=20"]) == 0
    out = capsys.readouterr().out
    assert "at most 24,329,020,081.8 s at 100 million states/s; pruning usually cuts" in out


def test_wfc_4000_by_4000_is_refused_for_its_memory(tmp_path, capsys):
    spec = _spec(tmp_path, "wfc-maze.yaml", "size: 48", "size: 4000")
    # 4000 x 4000 cells x 104 patterns x 25 bytes, and its picture's 70 bytes a pixel
    _refused(capsys, ["build", spec, "--out", str(tmp_path / "out")], "39.8 GiB of memory")


def test_fling_8x8_with_30_pieces_is_refused_for_its_disk(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("EPCG_CACHE_DIR", str(tmp_path / "cache"))
    spec = _spec(tmp_path, "fling.yaml", "width: 7, height: 8", "width: 8, height: 8")
    argv = ["build", spec, "--param", "pieces=30", "--out", str(tmp_path / "out")]
    _refused(capsys, argv, "PiB of disk (100.0 GiB free)", "PiB of memory", "years")
    # estimating wrote no layer (the cache may hold the index of parsed imports, which a
    # first kernel load in this process writes)
    assert not (tmp_path / "cache" / LAYERS).exists()


def test_tracery_count_of_10_to_the_12_is_refused(tmp_path, capsys):
    spec = _spec(tmp_path, "tracery-heroes.yaml", "count: 12", "count: 1000000000000")
    argv = ["build", spec, "--out", str(tmp_path / "out")]
    _refused(capsys, argv, "181.9 TiB of memory", "36.4 TiB of disk", "3.17 years")


def test_nested_depth_32_of_a_branching_type_is_refused(tmp_path, capsys):
    spec = tmp_path / "caves.yaml"
    spec.write_text(
        "kind: nested\nname: caves\nroot: cave\ndepth: 32\n"
        'types:\n  cave:\n    name: ["a cave"]\n    children: ["cave,2-3"]\n'
    )
    argv = ["build", str(spec), "--out", str(tmp_path / "out")]
    _refused(capsys, argv, "PiB of memory")
    assert main([*argv, "--depth", "4", "-q"]) == 0  # 1 + 2.5 + ... + 2.5^4 = 65 expected
    capsys.readouterr()


def test_sizes_and_times_read_as_people_write_them():
    assert budget.size_text(512) == "512.0 bytes"
    assert budget.size_text(1.5 * GiB) == "1.5 GiB"
    assert budget.time_text(45) == "45 s"
    assert budget.time_text(3 * 3600) == "3.0 hours"
    assert budget.time_text(2.4e18 / 1e8) == "761 years"


def test_ppg_generate_with_thousands_of_nodes_is_refused_for_its_memory(tmp_path, capsys):
    """Mode generate made no estimate: 300 templates of 64 levers each (19,200 nodes, past
    the 4,096 a puzzle may have now) failed with a MemoryError (exit 3) allocating the order
    network's cells and transitivity; 60 of them (3,840 nodes) are refused by the estimate."""
    lever = (
        "states: [{name: down, default: true}, up], events: [pull], "
        "transitions: [{event: pull, from: down, to: up}]"
    )
    objects = "".join(
        f"  - {{name: L{i}, is_template: true, exact_number: 64, {lever}}}\n" for i in range(60)
    )
    spec = tmp_path / "levers.yaml"
    spec.write_text(f"kind: ppg\nname: levers\nobjects:\n{objects}")
    # 3,840 x 3,839 x 3,838 ordered triples x 48 bytes
    _refused(capsys, ["build", str(spec), "--out", str(tmp_path / "out")], "2.5 TiB of memory")
    assert not (tmp_path / "out").exists()


LIMITED_BUILD = """
import resource, sys
from epcg_spec.cli.main import main
small, big, out = sys.argv[1:4]
assert main(["build", small, "--out", out + "-small", "-q"]) == 0  # kernels before the limit
with open("/proc/self/statm") as handle:
    mapped = int(handle.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (mapped + 100 * 2**20, resource.RLIM_INFINITY))
print(main(["build", big, "--out", out, "-q"]), main(["build", big, "--out", out, "-q", "--force"]))
"""


def test_a_wfc_picture_past_an_address_space_limit_is_refused(tmp_path):
    """A 600 x 600 map of 10-pixel tiles: its picture was not in the estimate (103 MiB), the
    limit was the machine's free memory, and drawing it held 16 bytes a pixel besides the
    picture (a 400 x 400 map peaked at 1.4 GB): under `ulimit -v`, exit 3 (MemoryError). Now
    the estimate holds the picture, the limit is the process's, and a forced build that runs
    out of memory says so in one line."""
    specs = []
    for name, size in (("small", 10), ("big", 600)):
        path = tmp_path / f"{name}.yaml"
        path.write_text(
            f"kind: wfc\nname: {name}\nmodel: tiled\ntileset: wfc-samples/samples/pipes/"
            f"data.xml\nsize: {size}\nseed: 4\n"
        )
        specs.append(str(path))
    (tmp_path / "wfc-samples").symlink_to(SPECS / "wfc-samples")
    out = tmp_path / "out"
    argv = [sys.executable, "-c", LIMITED_BUILD, *specs, str(out)]
    done = subprocess.run(argv, env=checkout_env(), capture_output=True, text=True, timeout=300)
    assert done.stdout.split()[-2:] == ["1", "1"], done.stdout + done.stderr
    refused, forced = done.stderr.splitlines()
    # the room left under the limit: 100 MiB, less what the process maps after setting it
    need = r"error: this build would need about 586.7 MiB of memory \((9\d|100)\.\d MiB available\)"
    assert re.match(need, refused), refused
    assert forced.startswith("error: out of memory: ") and not out.exists()
