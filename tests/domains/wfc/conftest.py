"""The wfc tests write wfc specs (`write_spec`, from tests/domains/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def spec_kind() -> str:
    return "wfc"
