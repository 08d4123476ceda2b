from functools import cache

from tests.oracles.fling_oracle import Oracle, cells_of, judged_boards

_LAYERS: dict[tuple[int, int], dict[int, dict[str, list[int]]]] = {}


@cache
def oracle(width: int, height: int) -> Oracle:
    return Oracle(width, height)


def oracle_layer(width: int, height: int, pieces: int) -> dict[str, list[int]]:
    """The oracle's solvable and unique boards of one layer, as sorted lexicographic ranks
    (CombinationSpace's); every layer below is computed (and kept) with it."""
    from epcg_spec.spaces import CombinationSpace

    known = _LAYERS.setdefault((width, height), {})
    if pieces not in known:
        spaces = {m: CombinationSpace(width * height, m) for m in range(1, pieces + 1)}
        for m in spaces:
            known[m] = {"solvable": [], "moves": [], "boards": []}
        for m, board, *flags in judged_boards(width, height, pieces):
            rank = spaces[m].rank(cells_of(board, width))
            for key, flag in zip(("solvable", "moves", "boards"), flags, strict=True):
                if flag:
                    known[m][key].append(rank)
    return known[pieces]
