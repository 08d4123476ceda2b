"""Every name of the package the documentation quotes exists where it says."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
QUOTED = re.compile(r"`(epcg_spec(?:\.\w+)+)`")


def _quoted() -> list[tuple[str, str]]:
    return sorted(
        {
            (str(page.relative_to(ROOT)), name)
            for page in PAGES
            for name in QUOTED.findall(page.read_text("utf-8"))
        }
    )


def _resolves(name: str) -> bool:
    """Whether `name` is a module, or an attribute of the longest module it begins with."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            if not hasattr(found, part):
                return False
            found = getattr(found, part)
        return True
    return False


def test_the_docs_quote_names():
    assert ("docs/api.md", "epcg_spec.core.context.Progress") in _quoted()


@pytest.mark.parametrize(("page", "name"), _quoted())
def test_a_quoted_name_exists(page, name):
    # docs/run-contract.md sent readers to epcg_spec.output.result.without_timings, which
    # lives in epcg_spec.core.result
    assert _resolves(name), f"{page} quotes {name}, which does not exist"
