"""The generated-module cache: a file whose text no longer matches its name is written again."""

import sys

from epcg_spec.compile.connector import generated_module

PART = "def answer():\n    return 42"


def test_a_damaged_generated_module_is_written_again(tmp_path, monkeypatch):
    monkeypatch.setenv("EPCG_CACHE_DIR", str(tmp_path))
    module = generated_module("cache test", [], [PART])
    path = tmp_path / "kernels" / f"{module.__name__}.py"
    assert module.answer() == 42 and path.exists()
    path.write_text(path.read_text().replace("42", "41"))
    del sys.modules[module.__name__]
    assert generated_module("cache test", [], [PART]).answer() == 42
    assert "return 42" in path.read_text()
