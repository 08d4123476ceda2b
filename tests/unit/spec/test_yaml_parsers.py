"""libyaml's parser (the fast path) and PyYAML's own give the same document, with the same
positions, or the same located errors: for every YAML file of the repository and for
mutated copies of the example specs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from epcg_spec.core.errors import SpecError
from epcg_spec.spec import yaml_loader
from tests.fuzz.spec_mutator import mutate_once

ROOT = Path(__file__).resolve().parents[3]
FILES = sorted(p for p in (*ROOT.glob("specs/**/*.yaml"), *ROOT.glob("tests/**/*.yaml")))
MUTANTS = 150  # 6,000 agreed too (5 min); a stray tab takes PyYAML's parser


def _read(text: str, source: str):
    try:
        doc = yaml_loader.load_yaml(text, source)
    except SpecError as error:
        return [str(d) for d in error.diagnostics]
    return doc.data, doc.positions, doc.key_positions, doc.text_anchors


def _both(text: str, source: str, monkeypatch) -> tuple:
    fast = _read(text, source)
    with monkeypatch.context() as patch:
        patch.setattr(yaml_loader, "_FastLoader", None)
        own = _read(text, source)
    return fast, own


def test_libyaml_is_present():
    """PyYAML's wheels carry libyaml; without it every spec is read 40 times slower."""
    assert yaml_loader._FastLoader is not None


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_yaml_file_reads_the_same_through_both_parsers(path, monkeypatch):
    fast, own = _both(path.read_text(errors="replace"), str(path), monkeypatch)
    assert fast == own


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("CRLF", lambda t: t.replace("\n", "\r\n")),
        ("CR", lambda t: t.replace("\n", "\r")),
        ("NEL", lambda t: t.replace("\n", "\x85")),
        ("LS", lambda t: t.replace("\n", "\u2028")),
        ("BOM", lambda t: "\ufeff" + t),
        ("astral", lambda t: t.replace("n-queens", "n-qu\u00e9ens-\U0001f600")),
    ],
)
def test_line_breaks_marks_and_wide_characters_read_the_same(name, change, monkeypatch):
    """A byte order mark shifted libyaml's indices by one, so strings lost their anchors."""
    fast, own = _both(change((ROOT / "specs" / "n-queens.yaml").read_text()), "q.yaml", monkeypatch)
    assert fast == own


def test_mutated_specs_read_the_same_through_both_parsers(monkeypatch):
    rng = random.Random(3)
    specs = sorted(ROOT.glob("specs/*.yaml"))
    differ = []
    for i in range(MUTANTS):
        text = specs[i % len(specs)].read_text()
        for _ in range(rng.choice((1, 2, 3))):
            text = mutate_once(text, ".yaml", rng)
        fast, own = _both(text, "m.yaml", monkeypatch)
        if fast != own:
            differ.append(f"{specs[i % len(specs)].name} #{i}: {str(fast)[:200]} | {own}")
    assert not differ, "\n".join(differ[:5])
