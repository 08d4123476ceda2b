"""`kind: sudoku`: generate puzzles with exactly one solution; solve and count given ones."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...spec.document import Document
from .load import load_sudoku_spec
from .model import SudokuSpec

if TYPE_CHECKING:  # the kernels are imported only when a spec is compiled
    from .problem import SudokuProblem


class SudokuDomain:
    kind = "sudoku"
    schema = "sudoku.schema.json"
    summary = "Sudoku puzzles (4x4, 9x9, 16x16) with exactly one solution; solve and count"
    formats = ()
    supports: ClassVar[dict[str, frozenset[str]]] = {
        "build": frozenset(
            {"--seed", "--shard", "--resume", "--fresh", "--time-limit", "--scheduler", "--force"}
        ),
        "count": frozenset({"--limit", "--time-limit"}),
    }
    options = ()
    # the build that gives its content, where `sample` is refused (see `epcg-spec kinds`)
    sample_instead = ("--seed N", "generates its puzzles afresh for each seed N")

    def load(self, doc: Document, params: dict[str, Any]) -> SudokuSpec:
        return load_sudoku_spec(doc, params)

    def compile(self, spec: SudokuSpec, options: dict[str, Any] | None = None) -> SudokuProblem:
        from .problem import SudokuProblem

        return SudokuProblem(spec)


DOMAIN = SudokuDomain()
