"""docs/api.md lists every argument each method of a Spec takes, and no other."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import epcg_spec

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text("utf-8")


def _documented(method: str) -> set[str]:
    """The arguments the Running table gives `spec.METHOD(...)`: in its call, then listed."""
    row = re.search(rf"^\| `spec\.{method}\((.*?)\)` \|[^|]*\|(.*)\|$", PAGE, re.M)
    assert row, method
    called = {word.split("=")[0] for word in re.findall(r"\w+=?\w*", row.group(1))}
    listed = set(re.findall(r"(?:^ |, )`(\w+)", row.group(2)))
    return (called | listed) - {"None"}


@pytest.mark.parametrize("method", ["build", "count", "sample"])
def test_the_running_table_lists_each_argument(method):
    # sample's `scheduler` was taken (and refused by every kind) but not listed
    taken = set(inspect.signature(getattr(epcg_spec.Spec, method)).parameters) - {"self"}
    assert _documented(method) == taken
