"""The handler from exceptions to exit codes (cli/errors.py)."""

from __future__ import annotations

import errno

import pytest

from epcg_spec.cli.errors import INTERNAL, INVALID, run_guarded

OUT_OF_MEMORY = "error: out of memory: the run needed more than this machine, or a limit on "


def _raise(exc: BaseException):
    def action() -> int:
        raise exc

    return action


@pytest.mark.parametrize(
    "exc",
    [MemoryError(), OSError(errno.ENOMEM, "Cannot allocate memory")],
    ids=["MemoryError", "a memory map refused"],
)
def test_running_out_of_memory_is_one_line(exc, capsys):
    """A Fling layer's memory map refused under `ulimit -v` (ENOMEM) was exit 3."""
    assert run_guarded(_raise(exc)) == INVALID
    err = capsys.readouterr().err
    assert err.startswith(OUT_OF_MEMORY) and len(err.splitlines()) == 1


def test_another_system_error_is_ours(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("EPCG_CACHE_DIR", str(tmp_path))
    assert run_guarded(_raise(OSError(errno.EBADF, "Bad file descriptor"))) == INTERNAL
    assert "this is a bug in epcg-spec" in capsys.readouterr().err
