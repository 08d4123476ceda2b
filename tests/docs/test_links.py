"""Every relative link in the README and docs/ leads to a file, and every #anchor to a heading."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "CREDITS.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCED = re.compile(r"^\s*```.*?^\s*```", re.M | re.S)
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.M)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(h) for h in HEADING.findall(FENCED.sub("", page.read_text("utf-8")))}


def links(page: Path) -> list[str]:
    """The page's relative links, code blocks left out."""
    text = FENCED.sub("", page.read_text("utf-8"))
    return [link for link in LINK.findall(text) if not re.match(r"[a-z]+:", link)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for link in links(page):
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists() or (
            anchor and target.suffix == ".md" and anchor not in anchors(target)
        ):
            broken.append(link)
    assert broken == []


def test_the_slug_is_githubs():
    assert slug("On a GPU (`--device gpu`)") == "on-a-gpu---device-gpu"
    assert slug("The retrograde back end (`search/retrograde.py`)") == (
        "the-retrograde-back-end-searchretrogradepy"
    )
