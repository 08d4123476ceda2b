"""A plain-Python Sudoku solver: bit masks of candidates, fewest-candidates choice.

It is the independent reference of the tests (uniqueness, counts) and the baseline of
benchmarks/bench_sudoku.py; it shares no code with the back ends.
"""

from __future__ import annotations

# well-known hard 9 x 9 puzzles, each with exactly one solution (row by row, '.' blank)
HARD = {
    "ai-escargot": "1....7.9..3..2...8..96..5....53..9...1..8...2"
    "6....4...3......1..4......7..7...3..",
    "easter-monster": "1.......2.9.4...5...6...7...5.9.3.......7......"
    ".85..4.7.....6...3...9.8...2.....1",
    "golden-nugget": ".......39.....1..5..3.5.8....8.9...6.7...2...1"
    "..4.......9.8..5..2....6..4..7.....",
    "inkala-2012": "8..........36......7..9.2...5...7.......457...."
    ".1...3...1....68..85...1..9....4..",
}


def peers_of(box: int) -> list[list[int]]:
    """For each cell, the other cells of its row, column and box."""
    side = box * box
    out = []
    for cell in range(side * side):
        r, c = divmod(cell, side)
        br, bc = r // box * box, c // box * box
        group = {r * side + k for k in range(side)} | {k * side + c for k in range(side)}
        group |= {(br + i) * side + bc + j for i in range(box) for j in range(box)}
        group.discard(cell)
        out.append(sorted(group))
    return out


def count_solutions(grid: list[int], box: int, limit: int = 0) -> int:
    """Solutions of `grid` (values 0..side-1, -1 blank), counting at most `limit` (0: all)."""
    side = box * box
    full = (1 << side) - 1
    rows, cols, boxes = [0] * side, [0] * side, [0] * side
    unit = [
        (c // side, c % side, c // side // box * box + c % side // box) for c in range(side * side)
    ]
    blanks = []
    for cell, v in enumerate(grid):
        if v < 0:
            blanks.append(cell)
            continue
        r, c, b = unit[cell]
        bit = 1 << v
        if (rows[r] | cols[c] | boxes[b]) & bit:
            return 0
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
    found = 0

    def solve(open_cells: list[int]) -> bool:
        nonlocal found
        if not open_cells:
            found += 1
            return limit > 0 and found >= limit
        best, best_mask, best_count = 0, 0, side + 1
        for i, cell in enumerate(open_cells):
            r, c, b = unit[cell]
            mask = full & ~(rows[r] | cols[c] | boxes[b])
            count = bin(mask).count("1")
            if count < best_count:
                best, best_mask, best_count = i, mask, count
                if count <= 1:
                    break
        cell = open_cells[best]
        rest = open_cells[:best] + open_cells[best + 1 :]
        r, c, b = unit[cell]
        while best_mask:
            bit = best_mask & -best_mask
            best_mask ^= bit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            stop = solve(rest)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
            if stop:
                return True
        return False

    solve(blanks)
    return found


def is_valid_solution(grid: list[int], solution: list[int], box: int) -> bool:
    """Every unit holds every digit once, and the solution keeps the grid's clues."""
    side = box * box
    if any(g >= 0 and g != s for g, s in zip(grid, solution, strict=True)):
        return False
    peers = peers_of(box)
    return all(
        0 <= solution[c] < side and all(solution[p] != solution[c] for p in peers[c])
        for c in range(side * side)
    )


def parse(text: str) -> list[int]:
    """A 9x9 puzzle string ('.' or '0' blank) as values 0..8 and -1."""
    return [-1 if ch in ".0" else int(ch) - 1 for ch in text if not ch.isspace()]


def solved_by_singles(grid: list[int], box: int, hidden: bool) -> bool:
    """True if naked singles (and hidden singles, if asked) alone fill the grid."""
    side = box * box
    values = list(grid)
    units = [[r * side + c for c in range(side)] for r in range(side)]
    units += [[r * side + c for r in range(side)] for c in range(side)]
    units += [
        [(br * box + i) * side + bc * box + j for i in range(box) for j in range(box)]
        for br in range(box)
        for bc in range(box)
    ]
    peers = peers_of(box)

    def candidates(cell: int) -> set[int]:
        return set(range(side)) - {values[p] for p in peers[cell] if values[p] >= 0}

    progress = True
    while progress:
        progress = False
        for cell in range(side * side):
            if values[cell] < 0 and len(options := candidates(cell)) == 1:
                values[cell] = options.pop()
                progress = True
        if hidden and not progress:
            for unit in units:
                for digit in range(side):
                    places = [c for c in unit if values[c] < 0 and digit in candidates(c)]
                    if len(places) == 1 and digit not in {values[c] for c in unit}:
                        values[places[0]] = digit
                        progress = True
    return all(v >= 0 for v in values)
