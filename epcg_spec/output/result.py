"""result.json: the fields every kind shares, and writing it checked against its schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import __version__
from ..compile.protocols import RunContext, RunOutput
from ..errors import EpcgError
from ..spec.expr.check import ArraySymbol
from ..spec.schema import validate_data
from .files import write_set
from .jsontext import dumps

RESULT_SCHEMA = "result.schema.json"
TIMING_FIELDS = frozenset({"seconds", "compile_seconds", "cpu_seconds"})


def base_result(name: str, kind: str, backend: str, ctx: RunContext) -> dict[str, Any]:
    """The fields that open every result.json."""
    return {
        "spec": name,
        "kind": kind,
        "backend": backend,
        "version": __version__,
        "seed": ctx.seed,
    }


def without_timings(value: Any) -> Any:
    """`value` (a result or part of one) with every timing field left out, at any depth:
    what must be identical between runs of the same spec and seed."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMING_FIELDS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def format_state(arrays: list[ArraySymbol], state: list[int]) -> dict[str, list[int]]:
    """A flat state as {array name: values}, with each array's start offset applied."""
    return {a.name: [v + a.start for v in state[a.offset : a.offset + a.length]] for a in arrays}


def result_json(result: dict[str, Any]) -> str:
    """result.json's text: checked against the schema, keys in a fixed order."""
    problems = validate_data(result, RESULT_SCHEMA)
    if problems:
        raise EpcgError("internal error: result.json does not match its schema: " + problems[0])
    return dumps(result) + "\n"


def write_outputs(folder: Path, output: RunOutput) -> list[Path]:
    """Replace the output set in `folder` by result.json and every artifact of a run, in one
    step (see files.write_set)."""
    files = {"result.json": result_json(output.result), **output.artifacts}
    return write_set(folder, files)
