"""Every spec key a kind's page lists in a `| key | ... |` table is a key its schema takes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEY_TABLE = re.compile(r"^\| key \|[^\n]*\n\|[-| ]+\|\n((?:\|[^\n]*\n)+)", re.M)
PAGES = [
    p for p in sorted((ROOT / "docs" / "kinds").glob("*.md")) if KEY_TABLE.search(p.read_text())
]


def listed_keys(page: Path) -> list[str]:
    """The top-level keys named in the first column of the page's key tables."""
    rows = [
        row for table in KEY_TABLE.findall(page.read_text("utf-8")) for row in table.splitlines()
    ]
    return [
        name.split(".")[0] for row in rows for name in re.findall(r"`([^`]+)`", row.split("|")[1])
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_key_a_kind_page_lists_is_in_its_schema(page):
    schema = json.loads((ROOT / "schemas" / f"{page.stem}.schema.json").read_text("utf-8"))
    keys = listed_keys(page)
    assert [k for k in keys if k not in schema["properties"]] == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_kind_page_lists_every_key_its_schema_takes(page):
    """A first spec can be written from the page alone: no key is left for the schema to tell."""
    schema = json.loads((ROOT / "schemas" / f"{page.stem}.schema.json").read_text("utf-8"))
    keys = set(listed_keys(page))
    assert [k for k in schema["properties"] if k != "kind" and k not in keys] == []


def test_every_kind_has_a_page_with_a_key_table():
    assert {page.stem for page in PAGES} == {
        "space", "fling", "witness", "wfc", "sudoku", "ppg", "rooms", "tracery", "nested"
    }  # fmt: skip


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_a_range_a_key_table_gives_is_the_schemas(page):
    """`a..b` in a key's row means a and b are allowed, as the schema's minimum and maximum."""
    properties = json.loads((ROOT / "schemas" / f"{page.stem}.schema.json").read_text("utf-8"))[
        "properties"
    ]
    for table in KEY_TABLE.findall(page.read_text("utf-8")):
        for row in table.splitlines():
            cells = row.split("|")
            keys = re.findall(r"`([^`]+)`", cells[1])
            ranges = re.findall(r"(?<![\w.])(\d+)\.\.(\d+)", "|".join(cells[2:]))
            if len(keys) == 1 and keys[0] in properties and ranges:
                bounds = properties[keys[0]].get("minimum"), properties[keys[0]].get("maximum")
                assert ranges[0] == tuple(str(b) for b in bounds), row
