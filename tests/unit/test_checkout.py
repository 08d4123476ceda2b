"""The environment the tests' subprocesses run in."""

from __future__ import annotations

import subprocess
import sys

from tests.checkout import ROOT, checkout_env


def test_a_subprocess_imports_the_checkout_and_what_pythonpath_held(tmp_path, monkeypatch):
    """Each test set PYTHONPATH to the checkout alone: where the dependencies were on
    PYTHONPATH (the device machine's), its subprocesses could not import them."""
    held = tmp_path / "held"
    held.mkdir()
    (held / "held_module.py").write_text("VALUE = 7\n")
    monkeypatch.setenv("PYTHONPATH", str(held))
    code = "import epcg_spec, held_module; print(epcg_spec.__file__, held_module.VALUE)"
    argv = [sys.executable, "-c", code]
    done = subprocess.run(argv, env=checkout_env(), cwd=tmp_path, capture_output=True, text=True)
    assert done.stdout.split() == [str(ROOT / "epcg_spec" / "__init__.py"), "7"], done.stderr
