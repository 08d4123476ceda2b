"""Exhaustive layouts: the ranked space of symbol placements, and its enumeration in blocks.

The space is a product of ranked spaces: for each placement a combination C(domain, k) of
positions, then for each placement the values of its k symbols (radix T^k). A block is one
rank of the positions' product; it covers every value assignment (a contiguous rank range).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...core.context import RunContext
from ...core.errors import BuildError
from ...search import driver, resumed
from ...search.blocks import each_claimed, each_run, use_threads
from ...search.driver import Report, checkpoint_key
from ...spaces import CombinationSpace, ProductSpace, RadixSpace
from ...spaces.binomial import binomial_table
from .kernels import base_filter
from .layout_kernels import crossing_blocks, layout_blocks, layout_scratch, tilings
from .lines import LineSet
from .model import (
    COLOUR_FAMILY,
    COLOUR_NAMES,
    FAMILY,
    KIND_CODE,
    PIECE,
    SLOT_KINDS,
    SQUARE,
    STAR,
    Panel,
    Symbol,
    WitnessSpec,
)
from .pieces import placement_table
from .rules import filter_args, rule_tables

CHUNK_ENTRIES = 1 << 21  # counts (and recorded line bits) held per chunk of blocks
TILING_CAPACITY = 1 << 12  # distinct piece multisets tiling one region
LIBRARY_BYTES = 1 << 30  # solution bitsets kept for a joint search


@dataclass
class LayoutPlan:
    """The ranked space of a spec's layouts and the arrays the block kernel reads."""

    spec: WitnessSpec
    positions: ProductSpace
    space: ProductSpace
    per_block: int
    arrays: tuple  # P of layout_blocks: per position, then per placement

    @property
    def blocks(self) -> int:
        return self.positions.max_rank

    def panel(self, rank: int) -> Panel | None:
        """The panel of a layout rank (base symbols plus the placed ones); None where two
        symbols would share a cell or a slot."""
        spec = self.spec
        state = self.space.unrank(rank).tolist()
        npos = self.positions.length
        symbols = list(spec.panel.symbols)
        taken = {(s.kind in SLOT_KINDS, s.at) for s in symbols}
        q = 0
        for placement in spec.placements:
            first, _ = spec.grid.domain(placement.domain)
            for _ in range(placement.count):
                at = first + state[q]
                value = placement.values[state[npos + q]]
                key = (placement.kind in SLOT_KINDS, at)
                if key in taken:
                    return None
                taken.add(key)
                symbols.append(Symbol(placement.kind, at, value))
                q += 1
        return Panel(spec.grid, tuple(symbols))


def layout_plan(spec: WitnessSpec) -> LayoutPlan:
    grid = spec.grid
    combos, radices = [], []
    for j, placement in enumerate(spec.placements):
        _, size = grid.domain(placement.domain)
        combos.append((f"at{j}", CombinationSpace(size, placement.count)))
        radices.append((f"value{j}", RadixSpace([len(placement.values)] * placement.count)))
    positions = ProductSpace(combos)
    space = ProductSpace(combos + radices)
    per_block = space.max_rank // positions.max_rank
    offset, slot, place, kind, family, weight = [], [], [], [], [], []
    after = per_block
    for j, placement in enumerate(spec.placements):
        first, _ = grid.domain(placement.domain)
        radix = len(placement.values)
        for _ in range(placement.count):
            after //= radix
            offset.append(first)
            slot.append(placement.kind in SLOT_KINDS)
            place.append(j)
            kind.append(KIND_CODE[placement.kind])
            family.append(FAMILY[placement.kind])
            weight.append(after)
    width = max(len(p.values) for p in spec.placements)
    span = max(len(spec.pieces), len(COLOUR_NAMES), 4)
    values = np.zeros((len(spec.placements), width), np.int64)
    n_values = np.array([len(p.values) for p in spec.placements], np.int64)
    digit_of = np.full((len(spec.placements), span), -1, np.int64)
    for j, placement in enumerate(spec.placements):
        for t, value in enumerate(placement.values):
            values[j, t] = value
            digit_of[j, value] = t
    arrays = (
        np.array(offset, np.int64),
        np.array(slot, np.bool_),
        np.array(place, np.int64),
        np.array(kind, np.int64),
        np.array(family, np.int64),
        np.array(weight, np.int64),
        values,
        n_values,
        digit_of,
    )
    return LayoutPlan(spec, positions, space, per_block, arrays)


@dataclass
class Tally:
    """What the enumeration found, merged over blocks in rank order."""

    evaluated: int = 0
    invalid: int = 0
    solvable: int = 0
    unique: int = 0
    histogram: list[int] = field(default_factory=list)  # panels by number of solutions
    best: list[tuple[int, int]] = field(default_factory=list)  # (solutions, rank)
    library: list[np.ndarray] = field(default_factory=list)  # ranks kept for joint sets
    library_bits: list[np.ndarray] = field(default_factory=list)

    def as_state(self) -> dict:
        return {
            "evaluated": self.evaluated,
            "invalid": self.invalid,
            "solvable": self.solvable,
            "unique": self.unique,
            "histogram": self.histogram,
            "best": self.best,
        }

    @classmethod
    def from_state(cls, state: dict) -> Tally:
        best = [(resumed.count(c), resumed.count(r)) for c, r in resumed.rows(state["best"], 2)]
        counts = (resumed.count(state[k]) for k in ("evaluated", "invalid", "solvable", "unique"))
        histogram = [resumed.count(n) for n in resumed.integers(state["histogram"])]
        return cls(*counts, histogram, best)


@dataclass
class Outcome:
    tally: Tally
    report: Report
    lines: int


def _position_arrays(plan: LayoutPlan) -> tuple:
    """Q of positions_unrank (layout_kernels.py): per placement, the size of its domain,
    its number of positions, where they start in a block's positions, and C(size, number);
    then a binomial table that covers them."""
    plan.positions.check_fits()
    spaces = [space for _, space in plan.positions.factors]
    domain = np.array([space.n for space in spaces], np.int64)
    count = np.array([space.k for space in spaces], np.int64)
    start = np.array(plan.positions.offsets, np.int64)
    choices = np.array([space.max_rank for space in spaces], np.int64)
    return domain, count, start, choices, binomial_table(int(domain.max()), int(count.max()))


def _base_arrays(spec: WitnessSpec) -> tuple:
    """B of layout_blocks: the base panel's cell kinds and values, its slots, its piece cells,
    and the sides of every cell."""
    arrays = spec.panel.arrays()
    kind = arrays.cell_kind
    piece_cells = np.flatnonzero(kind == PIECE).astype(np.int64)
    side = rule_tables(spec.grid, spec.pieces)[0]
    return (kind, arrays.cell_param, arrays.must | arrays.cannot, piece_cells, side)


def _colour_cells(spec: WitnessSpec) -> np.ndarray | None:
    """C of layout_blocks: the cells of the base panel's squares and stars; None if the layout
    places neither."""
    if not any(FAMILY[p.kind] == COLOUR_FAMILY for p in spec.placements):
        return None
    kind = spec.panel.arrays().cell_kind
    return np.flatnonzero((kind == SQUARE) | (kind == STAR)).astype(np.int64)


def _line_arrays(spec: WitnessSpec, lines: LineSet) -> tuple:
    """L of layout_blocks: the lines that meet the base panel's line-local symbols, with the
    regions where its colour or piece symbols alone break the rules; and as bit sets of
    those lines: the lines through each slot, every line, and the lines the base panel
    alone never fails."""
    n = lines.count
    ok = np.ones(n, np.bool_)  # a base panel without symbols fails no line: no kernel
    fail_colour = np.zeros(n, np.uint64)
    fail_piece = np.zeros(n, np.uint64)
    if spec.panel.symbols:
        args = filter_args(spec.panel, spec.pieces, lines)
        each_run(lambda lo, hi: base_filter(lo, hi, *args, ok, fail_colour, fail_piece), n)
    keep = np.flatnonzero(ok).astype(np.int64)
    bits = np.ascontiguousarray(lines.bits[keep])
    on = np.unpackbits(bits.view(np.uint8), axis=1, bitorder="little").astype(np.bool_)
    clean = (fail_colour[keep] == 0) & (fail_piece[keep] == 0)
    return (
        bits,
        keep,
        np.ascontiguousarray(lines.labels[keep]),
        lines.reg_start[keep].copy(),
        fail_colour[keep],
        fail_piece[keep],
        _line_sets(on.T),
        _line_sets(np.ones((1, len(keep)), np.bool_))[0],
        _line_sets(clean[None, :])[0],
    )


def _line_sets(member: np.ndarray) -> np.ndarray:
    """Row k of `member` (one bool per kept line) as a bit set of lines, in uint64 words."""
    words = max(1, (member.shape[1] + 63) // 64)
    packed = np.zeros((member.shape[0], words * 8), np.uint8)
    packed[:, : (member.shape[1] + 7) // 8] = np.packbits(member, axis=1, bitorder="little")
    return np.ascontiguousarray(packed.view(np.uint64))


def _tiling_arrays(spec: WitnessSpec, lines: LineSet) -> tuple | None:
    """T of layout_blocks: for each region of every line, the piece multisets that tile it;
    None if the layout places no piece."""
    most = sum(p.count for p in spec.placements if p.kind == "piece")
    if most == 0:
        return None
    most += sum(1 for s in spec.panel.symbols if s.kind == "piece")
    reg_unique = np.full(lines.reg_mask.shape[0], -1, np.int64)
    largest = max(p.size for p in spec.pieces)
    area = np.bitwise_count(lines.reg_mask).astype(np.int64)
    eligible = np.flatnonzero(area <= most * largest)
    masks, inverse = np.unique(lines.reg_mask[eligible], return_inverse=True)
    reg_unique[eligible] = inverse.reshape(-1)
    place = placement_table(spec.pieces, spec.grid.width, spec.grid.height)
    counts = np.zeros(masks.shape[0], np.int64)
    start = np.zeros(masks.shape[0] + 1, np.int64)
    tiling = (masks, most, place, largest, TILING_CAPACITY, counts, start)
    none = np.zeros(0, np.int64)
    each_run(lambda lo, hi: tilings(lo, hi, *tiling, none), len(masks))
    if (counts < 0).any():
        raise BuildError(
            f"a region can be tiled by more than {TILING_CAPACITY:,} different sets of at "
            f"most {most} pieces; place fewer pieces or use a smaller library",
            at=(("layout",), ("pieces",)),
        )
    np.cumsum(counts, out=start[1:])
    keys = np.zeros(int(start[-1]), np.int64)
    each_run(lambda lo, hi: tilings(lo, hi, *tiling, keys), len(masks))
    return reg_unique, start, keys


@dataclass
class Library:
    """Which panels a joint search may choose: solution counts in [low, high]."""

    low: int
    high: int | None


@dataclass
class LayoutJob:
    """The driver's job: units are layout blocks (one rank of the positions each)."""

    args: tuple
    spec: WitnessSpec
    units: int
    per_block: int
    words: int
    most: int
    library: Library | None
    loop: str  # the block loop: layout_blocks, or crossing_blocks (layout_kernels.py)
    label: str = "enumerating layouts"
    noun: str = "blocks"
    fixed: int = 0
    finished: bool = False
    remote: tuple[str, dict] | None = None
    tally: Tally = field(default_factory=Tally)

    def prepare(self, first: int) -> None:
        self.work(0, 0)

    def work(self, lo: int, hi: int) -> tuple[int, np.ndarray, np.ndarray]:
        counts = np.zeros((hi - lo, self.per_block), np.int32)
        rows = self.per_block if self.words else 0
        bits = np.zeros((hi - lo, rows, max(self.words, 1)), np.uint64)
        Q, L, P, B = self.args[:4]
        if self.loop == "crossing_blocks":
            loop, args = crossing_blocks, (lo, counts, Q, L, P, B)
        else:
            loop, args = layout_blocks, (lo, counts, bits, *self.args)
        values, n = counts.shape[1], P[0].shape[0]
        each_claimed(
            lambda following, size: loop(following, size, *args, layout_scratch(values, n, L, B)),
            hi - lo,
        )
        return lo, counts, bits

    def fold(self, partial: tuple[int, np.ndarray, np.ndarray]) -> None:
        lo, counts, bits = partial
        _add(self.tally, counts, bits, lo * self.per_block, self.spec, self.library)

    def snapshot(self) -> dict:
        return self.tally.as_state()

    def restore(self, state: dict) -> None:
        self.tally = Tally.from_state(state)

    def weight(self, lo: int, hi: int) -> int:
        return (hi - lo) * self.per_block


def layout_job(plan: LayoutPlan, lines: LineSet, library: Library | None = None) -> LayoutJob:
    """The job enumerating every layout; with `library`, it also keeps the ranks (and
    solution bits) of the panels whose number of solutions lies in its range."""
    spec = plan.spec
    args = (
        _position_arrays(plan),
        _line_arrays(spec, lines),
        plan.arrays,
        _base_arrays(spec),
        _tiling_arrays(spec, lines),
        _colour_cells(spec),
    )
    words = (lines.count + 63) // 64 if library else 0
    per_block = plan.per_block
    most = max(1, min(plan.blocks, CHUNK_ENTRIES // (per_block * (1 + words))))
    loop = "crossing_blocks" if library is None and only_crossings(spec) else "layout_blocks"
    job = (args, spec, plan.blocks, per_block, words, most, library, loop)
    return LayoutJob(*job)


def only_crossings(spec: WitnessSpec) -> bool:
    """True if every placed symbol is a must-cross or cannot-cross symbol of one value: a
    block is then one panel, whose solutions are a count of lines (crossing_blocks)."""
    crossing = ("must_cross", "cannot_cross")
    return all(p.kind in crossing and len(p.values) == 1 for p in spec.placements)


def run_layouts(job: LayoutJob, ctx: RunContext) -> Outcome:
    """Run a layout job through the driver."""
    use_threads(ctx.threads)
    # the library (solution bits kept for a joint search) is not checkpointed
    key = checkpoint_key(job.spec.document.data, ctx.shard) if job.library is None else None
    report = driver.run(job, ctx, key)
    return Outcome(job.tally, report, int(job.args[1][0].shape[0]))


def _add(tally: Tally, counts, bits, first_rank: int, spec: WitnessSpec, library) -> None:
    flat = counts.reshape(-1)
    per_count = np.bincount(flat + 1, minlength=2)  # panels with -1 (invalid), 0, 1... lines
    tally.evaluated += flat.size
    tally.invalid += int(per_count[0])
    found = [0, *per_count[2:].tolist()]  # panels by number of solutions, from 0
    tally.solvable += sum(found)
    tally.unique += found[1] if len(found) > 1 else 0
    if len(found) > len(tally.histogram):
        tally.histogram += [0] * (len(found) - len(tally.histogram))
    for c, n in enumerate(found):
        tally.histogram[c] += n
    sign = 1 if spec.objective == "fewest" else -1
    # only the panels that can be among the top: solution counts up to (or, for the most,
    # down to) the first count at which the panels so far reach `top`
    solutions = range(1, len(found)) if sign == 1 else range(len(found) - 1, 0, -1)
    held, cut = 0, None
    for c in solutions:
        held += found[c]
        cut = c
        if held >= spec.top:
            break
    if cut is None:
        solved = np.zeros(0, np.int64)
    else:
        solved = np.flatnonzero((flat > 0) & ((flat <= cut) if sign == 1 else (flat >= cut)))
    values = flat[solved].astype(np.int64)
    order = np.lexsort((solved, sign * values))[: spec.top]
    merged = tally.best + [(int(values[k]), first_rank + int(solved[k])) for k in order]
    tally.best = sorted(merged, key=lambda item: (sign * item[0], item[1]))[: spec.top]
    if library is not None:
        high = library.high if library.high is not None else np.iinfo(np.int32).max
        keep = np.flatnonzero((flat >= library.low) & (flat <= high))
        tally.library.append(first_rank + keep.astype(np.int64))
        tally.library_bits.append(bits.reshape(flat.size, -1)[keep])
        held = sum(b.nbytes for b in tally.library_bits)
        if held > LIBRARY_BYTES:
            raise BuildError(
                f"the candidate panels' solution sets pass {LIBRARY_BYTES >> 20:,} MiB "
                f"({sum(len(r) for r in tally.library):,} panels so far); narrow them with "
                "joint.min_solutions and joint.max_solutions, or a smaller layout",
                at=(("joint", "min_solutions"), ("joint", "max_solutions"), ("layout",)),
            )
