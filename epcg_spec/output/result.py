"""result.json: the fields every kind shares, and writing it checked against its schema."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.context import Progress, RunOutput
from ..core.errors import BuildError, EpcgError
from ..core.files import read_bounded, write_set
from ..spec.schema import validate_data
from .jsontext import dumps

if TYPE_CHECKING:
    from ..spec.expr.check import ArraySymbol

RESULT_SCHEMA = "result.schema.json"
GALLERY_SCHEMA = "gallery.schema.json"  # what `epcg-spec gallery` reads: page and booklet
# result.json grows with a build's items (a minimal Sudoku puzzle about 900 bytes): far
# above MAX_INPUT_BYTES for a large build, still bounded for a file that is not one
MAX_RESULT_BYTES = 2 << 30
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # \ud800-\udfff, half of a pair
SELF_CHECKED = 100  # a long list's first and last elements the check of our own result reads


def format_state(arrays: list[ArraySymbol], state: list[int]) -> dict[str, list[int]]:
    """A flat state as {array name: values}, with each array's start offset applied."""
    return {a.name: [v + a.start for v in state[a.offset : a.offset + a.length]] for a in arrays}


def result_json(result: dict[str, Any]) -> str:
    """result.json's text: checked against the schema, keys in a fixed order. A list of
    over 2 x SELF_CHECKED elements (a build's items, made by one piece of code each) is
    checked on its first and last SELF_CHECKED, as checking every item of a large build
    took seconds (docs/benchmarks.md, "Writing a large build")."""
    problems = validate_data(_sampled(result), RESULT_SCHEMA)
    if problems:  # the whole, so that the message names the element by its own index
        problems = validate_data(result, RESULT_SCHEMA)
        raise EpcgError("internal error: result.json does not match its schema: " + problems[0])
    return dumps(result) + "\n"


def write_outputs(folder: Path, output: RunOutput, progress: Progress | None = None) -> list[Path]:
    """Replace the output set in `folder` by result.json and every artifact of a run, in one
    step (see files.write_set), shown to `progress` as it goes (a large set takes a while)."""
    files = {"result.json": result_json(output.result), **output.artifacts}
    if progress is None:
        return write_set(folder, files)
    progress.start(f"writing {len(files):,} files to {folder}", len(files))
    try:
        return write_set(folder, files, progress.advance)
    finally:
        progress.finish()


def _sampled(value: Any) -> Any:
    """`value` with each list of over 2 x SELF_CHECKED elements cut to its first and last
    SELF_CHECKED, at any depth."""
    if isinstance(value, dict):
        return {key: _sampled(inner) for key, inner in value.items()}
    if isinstance(value, list):
        if len(value) > 2 * SELF_CHECKED:
            value = value[:SELF_CHECKED] + value[-SELF_CHECKED:]
        return [_sampled(inner) for inner in value]
    return value


def read_result(folder: Path, checked: bool = True) -> dict[str, Any]:
    """`folder`/result.json as `epcg-spec gallery` reads it (page and booklet): checked,
    unless this process has just written it (checking a large build's costs seconds)."""
    path = folder / "result.json"
    if not path.exists():
        raise BuildError(f"{path}: no result.json here; build a spec into {folder} first")
    if not checked:
        return json.loads(read_bounded(path, MAX_RESULT_BYTES))
    return read_checked(path, (GALLERY_SCHEMA,), "a result.json written by epcg-spec")


def read_checked(path: Path, schemas: tuple[str, ...], what: str) -> dict[str, Any]:
    """The result.json at `path`, read bounded and checked against result.schema.json and
    `schemas` (the fields its readers read beside them); a BuildError saying it is not
    `what` if not."""
    try:
        data = read_bounded(path, MAX_RESULT_BYTES)
        result = json.loads(data, parse_constant=_not_json)
        if _SURROGATE_ESCAPE.search(data):  # a lone half, which UTF-8 cannot hold, maybe
            json.dumps(result, ensure_ascii=False).encode("utf-8")  # a UnicodeEncodeError if so
        problems = validate_data(result, RESULT_SCHEMA)
        for schema in schemas:
            problems = problems or validate_data(result, schema)
    except (OSError, ValueError, RecursionError) as exc:  # deep nesting: RecursionError
        problems = [str(exc)]
    if problems:
        raise BuildError(f"{path}: not {what} ({problems[0]})")
    return result


def _not_json(constant: str) -> None:
    """Python's json reads NaN and Infinity, which JSON has not and epcg-spec never writes."""
    raise ValueError(f"{constant} is not a JSON number")
