"""A kind's options given to `load` hold for every method of the Spec, explain included."""

from __future__ import annotations

from pathlib import Path

import epcg_spec

SPECS = Path(__file__).resolve().parents[2] / "specs"


def test_explain_and_space_size_expand_the_origin_given():
    # both described the spec's own origin (48 derivations) while count, sample and build
    # expanded the one given (3)
    spec = epcg_spec.load(SPECS / "tracery-tavern.json", options={"origin": "#greeting#"})
    rows = dict(spec.explain())
    assert rows["origin"] == "#greeting#" and rows["derivations"] == "3 derivations (exact)"
    assert spec.space_size() == spec.count().count == 3
    assert epcg_spec.load(SPECS / "tracery-tavern.json").space_size() == 48


def test_explain_names_the_layers_dir_given(tmp_path):
    # it named the cache's store, where build and count do not look
    spec = epcg_spec.load(SPECS / "fling-5x5.yaml", options={"layers_dir": str(tmp_path)})
    store = dict(spec.explain())["layers store"]
    assert store.startswith(f"{tmp_path.resolve()}/fling-5x5-"), store
