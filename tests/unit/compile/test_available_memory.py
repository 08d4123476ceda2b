"""The memory a build may take: the least of the machine's, its address-space limit's and its
cgroup's (a container's, a batch job's)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from epcg_spec.compile import budget
from tests.checkout import ROOT, checkout_env

GiB = 2**30


@pytest.mark.parametrize(
    "limit,usage,room",
    [("max\n", "123", None), (str(2**63 - 4096), "123", None), ("4294967296\n", "1073741824", 3.5)],
    ids=["v2-unlimited", "v1-unlimited", "limited"],
)
def test_a_cgroup_limit_leaves_its_room(limit, usage, room, tmp_path, monkeypatch):
    """The limit less the usage, and the page cache the cgroup gives back (0.5 GiB here)."""
    (tmp_path / "limit").write_text(limit)
    (tmp_path / "usage").write_text(usage)
    (tmp_path / "memory.stat").write_text(f"active_file 7\ninactive_file {GiB // 2}\n")
    files = (
        ("/no/such/memory.max", "/no/such/memory.current", "inactive_file"),
        (str(tmp_path / "limit"), str(tmp_path / "usage"), "inactive_file"),
    )
    monkeypatch.setattr(budget, "CGROUP_FILES", files)
    assert budget._cgroup_room() == (room and room * GiB)
    monkeypatch.setattr(budget, "_machine_room", lambda: 16.0 * GiB)
    assert budget.available_memory() == (room or 16.0) * GiB


def test_an_address_space_limit_leaves_its_room():
    """Under `ulimit -v` the machine's free memory was the figure: a build the limit could
    not hold was started, and stopped at a MemoryError (exit 3)."""
    code = textwrap.dedent(
        """
        import resource
        from epcg_spec.compile import budget
        with open("/proc/self/statm") as handle:
            mapped = int(handle.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (mapped + 2**30, resource.RLIM_INFINITY))
        print(round(budget.available_memory() / 2**20))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=checkout_env(), cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert 1000 <= int(done.stdout) <= 1024
