"""Running space specs through the Python API (the CLI is tested in tests/acceptance)."""

from pathlib import Path

from epcg_spec.core.context import RunContext
from epcg_spec.spec.load import load_spec

SPECS = Path(__file__).resolve().parents[3] / "specs"


def problem_of(name: str, **params):
    """The compiled problem of specs/<name>.* with params overridden."""
    (path,) = SPECS.glob(f"{name}.*")
    loaded = load_spec(path, params)
    return loaded.domain.compile(loaded.spec)


def run(name: str, ctx: RunContext | None = None, **params) -> dict:
    """result.json's content for specs/<name>.* with params overridden."""
    return problem_of(name, **params).run(ctx or RunContext()).result
