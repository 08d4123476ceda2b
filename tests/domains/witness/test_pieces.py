"""The default piece library and pieces drawn as rows of text."""

import pytest

from epcg_spec.domains.witness.pieces import (
    default_library,
    parse_rows,
    placement_table,
)


def fixed_polyominoes(size: int) -> set[frozenset]:
    """Every fixed (translation-only) polyomino of `size` cells, grown cell by cell."""
    shapes = {frozenset({(0, 0)})}
    for _ in range(size - 1):
        grown = set()
        for shape in shapes:
            for x, y in shape:
                for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if cell not in shape:
                        new = shape | {cell}
                        lx = min(a for a, _ in new)
                        ly = min(b for _, b in new)
                        grown.add(frozenset((a - lx, b - ly) for a, b in new))
        shapes = grown
    return shapes


def test_the_default_library_is_every_small_fixed_polyomino_but_s_and_z():
    library = {frozenset(p.cells) for p in default_library()}
    every = set().union(*(fixed_polyominoes(n) for n in range(1, 5)))
    s_and_z = {
        frozenset({(0, 0), (1, 0), (1, 1), (2, 1)}),
        frozenset({(1, 0), (2, 0), (0, 1), (1, 1)}),
        frozenset({(0, 1), (0, 2), (1, 0), (1, 1)}),
        frozenset({(0, 0), (0, 1), (1, 1), (1, 2)}),
    }
    assert len(default_library()) == 24
    assert [len(fixed_polyominoes(n)) for n in range(1, 5)] == [1, 2, 6, 19]
    assert library == every - s_and_z


def test_rows_read_back_as_drawn():
    for piece in default_library():
        assert parse_rows(list(piece.rows)) == piece.cells


@pytest.mark.parametrize(
    ("rows", "message"),
    [([], "at least one row"), (["..", ".."], "no cell"), (["#o"], "holds 'o'")],
)
def test_bad_drawings_say_why(rows, message):
    assert message in parse_rows(rows)


def test_placements_anchor_the_first_cell_and_stay_on_the_panel():
    pieces = default_library()
    names = [p.name for p in pieces]
    table = placement_table(pieces, 3, 2)
    tee = names.index("T4-n")  # .#. over ###: first cell is the bottom left
    assert int(table[tee, 0]) == 0b111 | 0b010 << 3
    assert int(table[tee, 1]) == 0  # would leave the panel on the right
    assert int(table[tee, 3]) == 0  # and at the top
    corner = names.index("L3-se")  # .# over ##: cells 0, 1 and 4 from cell 0
    assert int(table[corner, 0]) == (1 << 0) | (1 << 1) | (1 << 4)
