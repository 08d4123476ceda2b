"""Line and column of an offset: one lookup, and many in one text through its line starts."""

import random

from epcg_spec.spec.document import LineIndex, line_col


def _counted(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def test_every_offset_of_random_texts_matches_counting_from_the_start():
    rng = random.Random(1)
    for _ in range(200):
        text = "".join(rng.choice("ab\n") for _ in range(rng.randrange(40)))
        index = LineIndex(text)
        for offset in range(len(text) + 1):
            assert index(offset) == line_col(text, offset) == _counted(text, offset)


def test_lines_and_columns_count_from_one():
    index = LineIndex("ab\n\ncd")
    assert [index(i) for i in range(7)] == [(1, 1), (1, 2), (1, 3), (2, 1), (3, 1), (3, 2), (3, 3)]
