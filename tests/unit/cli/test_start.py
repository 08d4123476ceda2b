"""Ctrl-C while the command line loads (numpy and numba: a second or more) stops it as later."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.checkout import checkout_env

CTRL_C_WHILE_NUMPY_LOADS = textwrap.dedent(
    """
    import runpy, sys

    class CtrlC:
        def find_spec(self, name, path=None, target=None):
            if name == "numpy":
                raise KeyboardInterrupt

    sys.meta_path.insert(0, CtrlC())
    sys.argv = ["epcg-spec", "build", "specs/n-queens.yaml"]
    runpy.run_module("epcg_spec", run_name="__main__")
    """
)


def test_ctrl_c_while_the_modules_load_is_one_line_exit_130(tmp_path):
    """It printed Python's traceback of the import under way (20 lines and more)."""
    env = checkout_env()
    run = subprocess.run(
        [sys.executable, "-c", CTRL_C_WHILE_NUMPY_LOADS],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (run.returncode, run.stderr) == (130, "interrupted\n")
