"""CSV maps of tile ids: one line per row of cells, comma-separated whole numbers; the layers
of a cube grid follow one another (z = 0 first), a blank line between. We write each cell's
variant index (-1 undecided, -2 out of the map); read back, a negative id is "no tile"."""

from __future__ import annotations

import numpy as np

from ...core.errors import Diagnostic, Pos, SpecError


def write_csv(values: np.ndarray, shape: tuple[int, int, int]) -> str:
    """The grid's values as CSV text."""
    columns, rows, layers = shape
    grid = np.asarray(values).reshape(layers, rows, columns)
    blocks = ["".join(",".join(map(str, row)) + "\n" for row in layer) for layer in grid]
    return "\n".join(blocks)


def read_csv(text: str, source: str) -> np.ndarray:
    """(layers, rows, columns) of ids; a ragged or non-numeric map is one located error."""
    layers: list[list[list[int]]] = [[]]
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            if layers[-1]:
                layers.append([])
            continue
        row = []
        column = 1
        fields = line.split(",")
        if len(fields) > 1 and not fields[-1].strip():
            fields.pop()  # a trailing comma, as Tiled writes
        for field in fields:
            stripped = field.strip()
            try:
                row.append(int(stripped))
            except ValueError:
                raise SpecError(
                    Diagnostic(
                        Pos(source, number, column),
                        f"{stripped!r} is not a tile id",
                        "a CSV map holds whole numbers (negative: no tile)",
                    )
                ) from None
            column += len(field) + 1
        if layers[-1] and len(row) != len(layers[-1][0]):
            raise SpecError(
                Diagnostic(
                    Pos(source, number, 1),
                    f"this row has {len(row)} cells, the rows above {len(layers[-1][0])}",
                )
            )
        layers[-1].append(row)
    layers = [layer for layer in layers if layer]
    if not layers:
        raise SpecError(Diagnostic(Pos(source, 1, 1), "the CSV map is empty"))
    shapes = {(len(layer), len(layer[0])) for layer in layers}
    if len(shapes) > 1:
        raise SpecError(
            Diagnostic(Pos(source, 1, 1), f"the layers differ in size: {sorted(shapes)}")
        )
    return np.array(layers, dtype=np.int64)
