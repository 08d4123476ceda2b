"""Rooms specs (`write_spec`, from tests/domains/conftest.py), built through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from epcg_spec.cli.main import main


@pytest.fixture
def spec_kind() -> str:
    return "rooms"


@pytest.fixture
def build(tmp_path):
    """Build a spec into a folder and return (exit code, result.json or None)."""

    def run(spec: Path, *args: str, out: str = "out") -> tuple[int, dict | None]:
        folder = tmp_path / out
        code = main(["build", str(spec), "--out", str(folder), "-q", *args])
        result = folder / "result.json"
        return code, json.loads(result.read_text()) if result.exists() else None

    return run


def chain(n: int, size=3, parent_of=lambda i: i - 1) -> list[dict]:
    """n rooms, each the child of the one before (or of parent_of(i))."""
    return [
        {"name": f"r{i}", "size": size, **({"parent": f"r{parent_of(i)}"} if i else {})}
        for i in range(n)
    ]
