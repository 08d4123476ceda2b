"""Compiled fling specs: the layered analysis (retrograde back end, then the expert's
selection) and the check of one puzzle."""

from __future__ import annotations

import time
from functools import cache
from math import comb
from pathlib import Path

import numpy as np

from ...compile.budget import Estimate, bounded
from ...compile.connector import source_fingerprint
from ...compile.flags import refuse_more_distinct
from ...core.cache import LAYERS, cache_dir
from ...core.context import RunContext, RunOutput
from ...core.errors import UsageError
from ...core.files import not_a_file
from ...core.result import base_result
from ...core.rng import numpy_stream
from ...core.sizes import counted
from ...search.cluster import shared_folder
from ...search.retrograde import LayeredSpace, LayerReport, Plan, Retrograde
from . import kernels
from .expert import judge
from .kernels import geometry
from .model import FlingSpec
from .render import cells_of, picture
from .report import JudgedBoard

BACKEND = "retrograde"
# Measured by benchmarks/bench_fling.py on the 2-core development machine (see docs/fling.md):
# 37 million boards/s on the 9-piece layer, both threads.
SCAN_RATE = 35e6  # boards judged per second, all threads together
BYTES_PER_BOARD = 1 / 8  # one bit per board and layer


board_tables = cache(geometry)  # one set of tables per board shape


@cache
def _kernels_digest() -> str:
    """Names the layer store: changes whenever the moves or the ranking change."""
    return source_fingerprint([kernels.__name__])[:12]


def layered_space(width: int, height: int) -> LayeredSpace:
    """The boards of a width x height board as the retrograde back end's layered space."""
    cells = width * height
    return LayeredSpace(
        name=f"fling-{width}x{height}-{_kernels_digest()}",
        kernels=kernels.__name__,
        tables=board_tables(width, height),
        layer_size=lambda m: comb(cells, m),
    )


def store_root(ctx: RunContext) -> Path:
    """Where layers are kept: --layers-dir (made absolute here, so that cluster workers
    started elsewhere find the same folder), else the cache."""
    given = ctx.options.get("layers_dir")
    if given == "":  # not the current folder, nor the cache: the flag would be ignored
        raise UsageError("--layers-dir '': an empty path; give a folder, or leave it out")
    return not_a_file(Path(given), "--layers-dir").resolve() if given else cache_dir() / LAYERS


class _FlingProblem:
    """What both problems of the kind share: the spec and the board's tables."""

    kind = "fling"
    backend = BACKEND

    def __init__(self, spec: FlingSpec):
        self.spec = spec
        self.name = spec.name
        self.geometry = board_tables(spec.width, spec.height)

    def judged(self, rank: int, board: int) -> JudgedBoard:
        verdict = judge(board, self.geometry)
        return JudgedBoard(rank, cells_of(board), verdict, self.geometry, self.spec.rules)

    def _board(self, rank: int, pieces: int) -> int:
        return int(kernels.layer_unrank(rank, pieces, self.geometry))


class FlingAnalysis(_FlingProblem):
    """Every board of 1..n pieces judged layer by layer; the best unique boards selected."""

    def __init__(self, spec: FlingSpec, layers_dir: str | None = None):
        super().__init__(spec)
        self.space = layered_space(spec.width, spec.height)
        self.layers_dir = layers_dir  # --layers-dir, if given, for explain

    @property
    def plan(self) -> Plan:
        layers = self.spec.layers
        return Plan(layers.solvable, layers.unique, self.spec.rules, layers.unique_by)

    def space_size(self) -> int:
        return sum(comb(self.spec.cells, m) for m in range(1, self.spec.layers.unique + 1))

    def explain(self) -> list[tuple[str, str]]:
        spec, plan = self.spec, self.plan
        ctx = RunContext(options={"layers_dir": self.layers_dir} if self.layers_dir else {})
        retro = Retrograde(self.space, store_root(ctx), ctx)
        rows = [
            ("spec", f"{spec.name} (kind: fling)"),
            ("board", f"{spec.width} x {spec.height} = {spec.cells} cells"),
            ("unique means", " and ".join(_RULE_TEXT[r] for r in spec.rules)),
            ("back end", f"retrograde, unique boards found by {plan.unique_by}"),
            ("layers store", f"{retro.folder} (--layers-dir to choose another)"),
        ]
        for m in range(1, plan.unique + 1):
            size = comb(spec.cells, m)
            stored = retro.solvable_count(m) is not None
            if m <= plan.solvable:
                work = "solvable bits, stored" if stored else "every board judged"
                work += f", {size * BYTES_PER_BOARD / 2**20:,.1f} MiB of bits"
            else:
                work = "unique boards only, among predecessors (no bits)"
            rows.append((f"layer {m}", f"{size:,} boards, {work}"))
        to_judge = self._to_judge(retro)
        sel = spec.selection
        rows += [
            ("select", f"the best {sel.top} of {sel.candidates} unique boards of {sel.pieces} "
                       f"pieces by the expert's ratio (seed {spec.seed})"),
            ("estimated time", f"about {to_judge / SCAN_RATE:,.0f} s to judge {to_judge:,} boards "
                               f"at {SCAN_RATE / 1e6:.0f} million boards/s, then unique boards"),
            ("estimated memory", f"{self._peak_memory() / 2**30:,.2f} GiB at the largest layer"),
        ]  # fmt: skip
        return rows

    def estimate(self, ctx: RunContext) -> Estimate:
        """Memory at the largest layer, the layer store's new bits on disk, judging time."""
        root = store_root(ctx)
        to_judge = self._to_judge(Retrograde(self.space, root, ctx))
        return Estimate(
            memory=self._peak_memory(),
            disk=bounded(to_judge * BYTES_PER_BOARD),
            seconds=bounded(to_judge) / SCAN_RATE,
            disk_at=root,
        )

    def _to_judge(self, retro: Retrograde) -> int:
        """Boards of the solvable layers not in the store yet (each judged, its bit stored)."""
        cells = self.spec.cells
        layers = range(1, self.plan.solvable + 1)
        return sum(comb(cells, m) for m in layers if retro.solvable_count(m) is None)

    def _peak_memory(self) -> float:
        """The largest judged layer's bits plus the layer below, in bytes."""
        plan, cells = self.plan, self.spec.cells
        top = max(range(1, plan.solvable + 1), key=lambda m: comb(cells, m))
        return bounded(comb(cells, top) + comb(cells, max(top - 1, 1))) * BYTES_PER_BOARD

    def _layers(self, ctx: RunContext) -> tuple[Retrograde, list[LayerReport]]:
        retro = Retrograde(self.space, store_root(ctx), ctx)
        if ctx.cluster is not None:
            shared_folder(ctx.cluster, retro.folder, "--layers-dir")
        return retro, retro.run(self.plan)

    def refused(self, command: str) -> dict[str, str]:
        """Run flags the layered analysis cannot honour, with the reason."""
        if command != "build":
            return {}
        why = (
            "its layers are built one after another, each from the whole layer below, so a "
            "shard could not finish one; spread a layer's blocks with --scheduler instead"
        )
        return {"--shard": why}

    def job(self, name: str, args: dict, ctx: RunContext):
        """A layer pass's job ("judge", "fill", "predecessors"), as a cluster worker
        rebuilds it over the same layers store."""
        return Retrograde(self.space, store_root(ctx), ctx).job(name, args)

    def run(self, ctx: RunContext) -> RunOutput:
        began = time.perf_counter()
        retro, reports = self._layers(ctx)
        chosen, judged = self._select(retro, ctx)
        best = [board.entry() for board in chosen]
        artifacts: dict[str, str | bytes] = {}
        for i, board in enumerate(chosen):  # files count from 0, as every kind's do
            artifacts.update(board.files(f"board-{i}"))
        result = self._result(ctx, retro, reports, began)
        result.update(
            evaluated=sum(r.evaluated for r in reports) + judged,
            best=best,
            selection={
                "pieces": self.spec.selection.pieces,
                "rule": self.spec.rules[0],
                "candidates": judged,
            },
        )
        summary = self._summary(reports, retro)
        summary.append(
            f"  the expert judged {judged:,} unique boards of {self.spec.selection.pieces} "
            f"pieces; best ratio {best[0]['score']:.3f}"
            if best
            else "  no unique board to select"
        )
        return RunOutput(result=result, artifacts=artifacts, summary=summary)

    def _result(
        self, ctx: RunContext, retro: Retrograde, reports: list[LayerReport], began: float
    ) -> dict:
        """result.json's fields; `seconds` and each layer's leave the compile step out."""
        result = base_result(self.name, self.kind, self.backend, ctx)
        top = reports[-1]
        result.update(
            space_size=self.space_size(),
            evaluated=sum(r.evaluated for r in reports),
            count=top.unique[self.spec.rules[0]],
            best=[],
            seconds=round(time.perf_counter() - began - retro.compile_seconds, 3),
            compile_seconds=round(retro.compile_seconds, 3),
            board={"width": self.spec.width, "height": self.spec.height},
            rules=list(self.spec.rules),
            unique_by=self.plan.unique_by,
            layers=[r.as_dict() for r in reports],
        )
        return result

    def _summary(self, reports: list[LayerReport], retro: Retrograde) -> list[str]:
        spec = self.spec
        lines = [
            f"{spec.name}: Fling! on a {spec.width} x {spec.height} board "
            f"(layers kept in {retro.folder})",
            f"  {'pieces':>6}  {'boards':>16}  {'solvable':>16}"
            + "".join(f"  {'unique (' + rule + ')':>18}" for rule in spec.rules)
            + f"  {'seconds':>9}",
        ]
        for r in reports:
            solvable = f"{r.solvable:,}" if r.solvable is not None else "-"
            uniques = "".join(f"  {r.unique[rule]:>18,}" for rule in spec.rules)
            took = f"{r.seconds:9.1f}" if r.computed else "   stored"
            lines.append(f"  {r.pieces:>6}  {r.size:>16,}  {solvable:>16}{uniques}  {took}")
        return lines

    def _select(self, retro: Retrograde, ctx: RunContext) -> tuple[list[JudgedBoard], int]:
        """The top boards by the expert's ratio among candidates drawn from the unique ones
        (ties go to the lower rank), and how many candidates were judged."""
        sel, rule = self.spec.selection, self.spec.rules[0]
        ranks = retro.unique_ranks(rule, sel.pieces)
        if len(ranks) > sel.candidates:
            picks = numpy_stream(ctx.seed).choice(len(ranks), sel.candidates, False)
            ranks = ranks[np.sort(picks)]
        scored = []
        if ctx.progress:
            ctx.progress.start(f"expert: judging {len(ranks):,} unique boards", len(ranks))
        try:
            for rank in ranks:
                scored.append(self.judged(int(rank), self._board(int(rank), sel.pieces)))
                if ctx.progress:
                    ctx.progress.advance(1)
        finally:
            if ctx.progress:
                ctx.progress.finish()
        scored.sort(key=lambda board: (-board.verdict.ratio, board.rank))
        return scored[: sel.top], len(ranks)

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput:
        """Board counts per layer; with `constrained`, solvable and unique counts too."""
        if not constrained:
            result = base_result(self.name, self.kind, self.backend, ctx)
            layers = [
                {"pieces": m, "boards": comb(self.spec.cells, m)}
                for m in range(1, self.spec.layers.unique + 1)
            ]
            result.update(space_size=self.space_size(), layers=layers)
            summary = [f"{self.name}: boards of {self.spec.width} x {self.spec.height}"]
            summary += [
                f"  {counted(item['pieces'], 'piece'):>10}: {item['boards']:,}" for item in layers
            ]
            return RunOutput(result=result, summary=summary)
        began = time.perf_counter()
        retro, reports = self._layers(ctx)
        return RunOutput(
            result=self._result(ctx, retro, reports, began), summary=self._summary(reports, retro)
        )

    def sample(self, ctx: RunContext, ranks: list[int] | None, n: int, distinct: bool) -> RunOutput:
        """Boards of select.pieces pieces by rank (or drawn at random), each judged."""
        pieces = self.spec.selection.pieces
        size = comb(self.spec.cells, pieces)
        if ranks is None:
            if distinct:
                refuse_more_distinct(n, size, f"boards of {pieces} pieces")
            rng = numpy_stream(ctx.seed)
            ranks = [int(r) for r in rng.choice(size, n, replace=not distinct)]
        bad = [r for r in ranks if not -size <= r < size]
        if bad:
            raise UsageError(
                f"rank {bad[0]} is out of range: boards of {pieces} pieces have ranks "
                f"0..{size - 1:,} (negative ranks count from the end)"
            )
        samples, summary = [], []
        for r in (r + size if r < 0 else r for r in ranks):
            entry = self.judged(r, self._board(r, pieces)).entry()
            samples.append(entry)
            flags = ", ".join(f"unique ({k}): {v}" for k, v in entry["unique"].items())
            summary += [f"rank {r}: solvable: {entry['solvable']}, {flags}", *entry["labelled"]]
        result = base_result(self.name, self.kind, self.backend, ctx)
        result.update(space_size=size, samples=samples)
        return RunOutput(result=result, summary=summary)


class FlingPuzzle(_FlingProblem):
    """One board from the spec: solved, checked under each rule, scored by the expert."""

    def refused(self, command: str) -> dict[str, str]:
        """Run flags one given board cannot honour, with the reason."""
        once = "one given board is solved at once"
        on_cpu = {"--device": "one given board is solved on the CPU (the layers run on a GPU)"}
        if command == "build":
            alone = {"--threads": f"{once}, on one thread", "--scheduler": once}
            alone["--layers-dir"] = f"{once}, from the boards it reaches: no layers are stored"
            alone["--seed"] = f"{once}: nothing is drawn at random"
            return {"--force": f"{once}: there is no estimate", **alone, **on_cpu}
        return {"--scheduler": once, **on_cpu}

    def space_size(self) -> int:
        return comb(self.spec.cells, len(self.spec.puzzle))

    def explain(self) -> list[tuple[str, str]]:
        spec = self.spec
        return [
            ("spec", f"{spec.name} (kind: fling)"),
            ("board", f"{spec.width} x {spec.height}, {len(spec.puzzle)} pieces"),
            ("puzzle", " / ".join(picture(list(spec.puzzle), spec.width, spec.height))),
            ("unique means", " and ".join(_RULE_TEXT[r] for r in spec.rules)),
            ("back end", "retrograde over the boards this one reaches (no stored layers)"),
        ]

    def run(self, ctx: RunContext) -> RunOutput:
        began = time.perf_counter()
        spec = self.spec
        cells = list(spec.puzzle)
        board = sum(1 << c for c in cells)
        judged = self.judged(
            int(kernels.layer_rank(np.uint64(board), len(cells), self.geometry)), board
        )
        verdict, entry = judged.verdict, judged.entry()
        result = base_result(self.name, self.kind, self.backend, ctx)
        result.update(
            space_size=self.space_size(),
            evaluated=verdict.boards_reached,
            count=int(verdict.unique[spec.rules[0]]),
            best=[entry],
            seconds=round(time.perf_counter() - began, 3),
            board={"width": spec.width, "height": spec.height},
            rules=list(spec.rules),
        )
        verdicts = ", ".join(
            f"unique ({r}): {'yes' if ok else 'no'}" for r, ok in judged.unique.items()
        )
        summary = [
            f"{spec.name}: {counted(len(cells), 'piece')} on {spec.width} x {spec.height}: "
            f"solvable: {'yes' if verdict.solvable else 'no'}, {verdicts}",
            f"  {counted(verdict.solutions, 'solution')}; "
            f"{counted(verdict.boards_reached, 'board')} reachable; "
            f"expert ratio {verdict.ratio:.3f}",
        ]
        if entry["solution"]:
            summary.append("  solution: " + "; ".join(entry["solution"]))
        return RunOutput(result=result, artifacts=judged.files("puzzle"), summary=summary)


_RULE_TEXT = {
    "moves": "exactly one move leads to a solvable board, which is unique (moves)",
    "boards": "exactly one distinct solvable board follows, which is unique (boards)",
}
