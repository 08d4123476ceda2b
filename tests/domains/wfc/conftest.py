"""Writing wfc specs into a test's folder."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml


@pytest.fixture
def write_spec(tmp_path):
    def write(name: str = "spec", **fields) -> Path:
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump({"kind": "wfc", "name": name, **fields}, sort_keys=False))
        return path

    return write
