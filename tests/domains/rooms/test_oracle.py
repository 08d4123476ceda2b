"""The oracle itself: it flags each kind of broken map, so the map tests can fail."""

from __future__ import annotations

from tests.oracles.rooms_oracle import map_problems

# two 2 x 2 rooms, the child right of its parent across one wall cell, door at row 1
GOOD = [(0, 0, 2, 2, -1), (3, 0, 2, 2, 0)]


def test_a_good_map_passes():
    assert map_problems(6, 4, 1, 0, GOOD) == []


def test_each_broken_rule_is_flagged():
    assert "leaves the map" in map_problems(4, 4, 1, 0, GOOD)[0]
    assert "lies on rock" in map_problems(6, 4, 1, 0, GOOD, rock=[(1, 1)])[0]
    far = [GOOD[0], (4, 0, 2, 2, 0)]
    assert "not next to its parent" in map_problems(6, 4, 1, 0, far)[0]
    touching = [GOOD[0], (2, 0, 2, 2, 0)]
    assert any("closer than 1" in p for p in map_problems(6, 4, 1, 0, touching))
    third = [*GOOD, (1, 2, 2, 2, 0)]
    assert any("rooms 0 and 2" in p for p in map_problems(6, 4, 1, 0, third))


def test_corridors_are_checked():
    with_corridor = [(0, 0, 2, 3, -1), (5, 0, 2, 3, 0)]  # gap 3 = wall + 2 corridor cells
    assert map_problems(8, 4, 1, 2, with_corridor) == []
    blocked = [*with_corridor, (3, 1, 1, 1, 0)]
    problems = map_problems(8, 4, 1, 2, blocked)
    assert any("corridor of room 1 runs through room 2" in p for p in problems)
    assert any("runs through rock" in p for p in map_problems(8, 4, 1, 2, with_corridor, [(3, 1)]))
