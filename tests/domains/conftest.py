"""Fixtures shared by the kinds' tests: a package sets `spec_kind`, and `write_spec` writes
specs of that kind into the test's folder."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml


@pytest.fixture
def write_spec(tmp_path, spec_kind):
    def write(name: str = "spec", **fields) -> Path:
        path = tmp_path / f"{name}.yaml"
        data = {"kind": spec_kind, "name": name, **fields}
        path.write_text(yaml.safe_dump(data, sort_keys=False))
        return path

    return write
