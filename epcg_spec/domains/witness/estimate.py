"""What a layout search will take, judged from the spec before it runs: the layouts it visits
(an exact count), floors on its time at the fastest rates measured, and on its memory."""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from ...compile.budget import Estimate, bounded, estimate_rows
from ...core.context import RunContext
from ...core.sizes import count_text, counted
from ...search.blocks import threads_for
from ...search.driver import shard_units
from .layouts import LayoutPlan, only_crossings
from .lines import MAX_LINES, line_count
from .model import FAMILY, LOCAL_FAMILY, SLOT_KINDS, WitnessSpec

# The fastest rates of the layout kernels, per thread, a few times those measured on the
# shared 2-core machine by benchmarks/bench_estimates.py (docs/benchmarks.md, "Estimate
# rates"): layouts of witness-pieces-3x3.yaml 1.2-1.6e8 a second; words of the candidate
# lines' bit sets, which every layout of a must-cross search (and every block of the others)
# reads whole, on 4x4 and 5x5 panels 0.9-1.5e9 and 2.6-3.3e9 a second.
LAYOUTS_PER_SECOND_PER_THREAD = 5.0e8
WORDS_PER_SECOND_PER_THREAD = 1.0e10


@dataclass(frozen=True)
class LayoutCount:
    """The layouts a run visits, those of them with every symbol in a place of its own (the
    others are marked invalid at once, costing next to nothing), and the words of line bit
    sets it reads at least (0 where the lines are not known from the spec)."""

    visited: int
    free: int
    words: int
    threads: int


def layout_count(plan: LayoutPlan, ctx: RunContext) -> LayoutCount:
    """The layouts of this run's shard of blocks: all of them exactly, and at least how many
    are free (exact with no shard)."""
    spec = plan.spec
    lo, hi = shard_units(plan.blocks, ctx.shard)
    free = max(0, free_blocks(spec) - (plan.blocks - (hi - lo)))
    crossing = spec.joint is None and only_crossings(spec)
    words = line_words(spec) * (free * plan.per_block if crossing else free)
    threads = max(1, min(threads_for(ctx.threads), hi - lo))
    return LayoutCount((hi - lo) * plan.per_block, free * plan.per_block, words, threads)


def line_words(spec: WitnessSpec) -> int:
    """Words of the bit set of the candidate lines every layout is checked against: all of
    the panel's lines (counted, or read from the cache) when its fixed symbols filter none;
    else 0 (unknown before a run)."""
    if any(FAMILY[s.kind] == LOCAL_FAMILY for s in spec.panel.symbols):
        return 0
    lines = line_count(spec.grid)
    return 0 if lines > MAX_LINES else (lines + 63) // 64


def free_blocks(spec: WitnessSpec) -> int:
    """Blocks (choices of every placement's positions) in which no two symbols, nor a symbol
    and one of the base panel, share a cell or a slot: placement after placement, the
    combinations of the places its domain still has free (a slot placement takes some of its
    symbols on edges and the rest on vertices)."""
    grid = spec.grid
    base_slots = [s.at for s in spec.panel.symbols if s.kind in SLOT_KINDS]
    free_cells = grid.cells - sum(1 for s in spec.panel.symbols if s.kind not in SLOT_KINDS)
    free_edges = grid.edges - sum(1 for at in base_slots if at < grid.edges)
    free_vertices = grid.vertices - sum(1 for at in base_slots if at >= grid.edges)
    ways = {(0, 0, 0): 1}  # (cells, edges, vertices) taken -> ways
    for placement in spec.placements:
        k = placement.count
        following: dict[tuple[int, int, int], int] = {}
        for (cells, edges, vertices), n in ways.items():
            if placement.kind not in SLOT_KINDS:
                splits = [((cells + k, edges, vertices), comb(free_cells - cells, k))]
            else:
                on_edges = {"edges": [k], "vertices": [0]}.get(placement.domain, range(k + 1))
                splits = [
                    (
                        (cells, edges + a, vertices + k - a),
                        comb(free_edges - edges, a) * comb(free_vertices - vertices, k - a),
                    )
                    for a in on_edges
                ]
            for taken, m in splits:
                if m:
                    following[taken] = following.get(taken, 0) + n * m
        ways = following
    return sum(ways.values())


def layout_estimate(plan: LayoutPlan, ctx: RunContext) -> Estimate:
    """Floors: the free layouts, or the words of line bit sets read, at the fastest rates on
    this run's threads; the memory of one block's counts (int32 each), one thread's work row
    (int64 each, layout_scratch) and, for a joint search, one line word of each panel's
    solution bits."""
    count = layout_count(plan, ctx)
    per_block, positions = plan.per_block, plan.positions.length
    joint = plan.spec.joint is not None
    memory = per_block * (4 + 8 + (8 if joint else 0)) + (positions + 1) * 8
    seconds = max(
        bounded(count.free) / LAYOUTS_PER_SECOND_PER_THREAD,
        bounded(count.words) / WORDS_PER_SECOND_PER_THREAD,
    )
    return Estimate(memory=float(memory), seconds=seconds / count.threads, lower_bound=True)


def explain_rows(plan: LayoutPlan) -> list[tuple[str, str]]:
    """`explain`'s rows for the estimate of a build on every thread."""
    ctx = RunContext()
    count = layout_count(plan, ctx)
    time = f"{count_text(count.visited)} layouts"
    if count.free != count.visited:
        invalid = count_text(count.visited - count.free)
        time += f" ({invalid} of them invalid at once: two symbols in one place)"
    if count.words:
        time += f", {count_text(count.words)} words of line bit sets read"
    layouts, words = LAYOUTS_PER_SECOND_PER_THREAD / 1e6, WORDS_PER_SECOND_PER_THREAD / 1e9
    time += (
        f": at most {layouts:,.0f} million layouts or {words:,.0f} billion words a second on "
        f"each of {counted(count.threads, 'thread')}"
    )
    if plan.spec.joint is not None:
        time += "; the branch and bound after them is not estimated"
    notes = {
        "estimated time": time,
        "estimated memory": "the counts and work arrays of a block of "
        + counted(plan.per_block, "layout"),
    }
    return estimate_rows(layout_estimate(plan, ctx), notes)
