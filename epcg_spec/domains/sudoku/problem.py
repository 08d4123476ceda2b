"""A compiled sudoku spec: generate unique puzzles, solve or count a given one."""

from __future__ import annotations

import time

import numpy as np

from ...compile.budget import Estimate, estimate_rows
from ...core.context import RunContext, RunOutput
from ...core.errors import BuildError
from ...core.result import base_result
from ...core.rng import item_seed, numpy_stream
from ...core.sizes import counted
from ...search import backtrack, driver
from ...search.driver import checkpoint_key, count_bound, count_stopped, shard_units
from ...search.items import Item, ItemJob
from ...search.propagate import ALL_RULES, RULE_HI
from . import bitmask, kernels
from .model import GRADE_NAMES, GRADES, SudokuSpec, grid_rows, grid_text
from .network import sudoku_network, symmetric_partner
from .render import pictures

# Puzzles a second at most, by box: a few times the cheapest puzzles (one clue removed) made
# with their files on the shared 2-core machine by benchmarks/bench_estimates.py, 5,500-11,900,
# 3,100-4,900 and 1,400 a second (docs/benchmarks.md, "Estimate rates").
PUZZLES_PER_SECOND = {2: 50_000, 3: 25_000, 4: 7_000}


class SudokuProblem:
    """Sudoku on the bit-mask solver (fill, dig, grade, solve) and, to count, the back end."""

    kind = "sudoku"
    backend = "backtrack"

    def __init__(self, spec: SudokuSpec):
        self.spec = spec
        self.name = spec.name
        self._tables = None

    def sample_instead(self) -> tuple[str, str] | None:
        """The build that gives a given puzzle's content, where it is not the kind's
        (`DOMAIN.sample_instead`; `sample` is refused: puzzles are not ranked)."""
        if self.spec.puzzle is not None:
            return "", "solves its puzzle and says whether the solution is unique"
        return None

    def space_size(self) -> int:
        side = self.spec.side
        return side ** (side * side)

    def explain(self) -> list[tuple[str, str]]:
        spec = self.spec
        side = spec.side
        rows = [
            ("spec", f"{spec.name} (kind: sudoku)"),
            ("grid", f"{side} x {side}, boxes {spec.box} x {spec.box}"),
            (
                "network",
                f"{side * side} cells, {3 * side * side} groups (each digit once per unit)",
            ),
        ]
        if spec.puzzle is not None:
            clues = int((spec.puzzle >= 0).sum())
            rows.append(("task", f"solve the given puzzle ({clues} clues) and check uniqueness"))
        else:
            g = spec.generate
            target = f"down to {counted(g.clues, 'clue')}" if g.clues else "while any clue can go"
            rows += [
                ("task", f"generate {counted(g.puzzles, 'puzzle')}, removing clues {target}"),
                ("difficulty", g.difficulty),
                ("symmetric", "yes (half turn)" if g.symmetric else "no"),
            ]
            rows += self._estimate_rows()
        return rows

    def _estimate_rows(self) -> list[tuple[str, str]]:
        spec = self.spec
        side, rate = spec.side, PUZZLES_PER_SECOND[spec.box]
        puzzles = counted(spec.generate.puzzles, "puzzle")
        how = {
            "estimated time": f"{puzzles} at most {rate:,} a second",
            "estimated memory": "every puzzle's files, held until they are written",
            "estimated disk": f"{self.bytes_per_puzzle():,} bytes a puzzle or more (its grid "
            "and its solution as text and as SVG pictures)",
        }
        rows = estimate_rows(self.estimate(RunContext()), how)
        grids = f"every complete {side} x {side} grid"
        if spec.limit:
            count = f"{grids}, up to the spec's limit of {spec.limit:,}; its time is not estimated"
        else:
            count = f"{grids}, with no bound but --limit or --time-limit: not estimated"
        return [*rows, ("count", count)]

    def estimate(self, ctx: RunContext) -> Estimate:
        """Floors for generating puzzles: the fastest rate measured, and their files, all
        held in memory until they are written; none for solving one given puzzle."""
        if self.spec.puzzle is not None:
            return Estimate()
        lo, hi = shard_units(self.spec.generate.puzzles, ctx.shard)
        files = float((hi - lo) * self.bytes_per_puzzle())
        seconds = (hi - lo) / PUZZLES_PER_SECOND[self.spec.box]
        return Estimate(memory=files, disk=files, seconds=seconds, lower_bound=True)

    def bytes_per_puzzle(self) -> int:
        """The fewest bytes of a puzzle's four files: those of a grid with no clue whose
        solution is all ones, with the shortest caption (a puzzle's clues and given digits
        only add to them)."""
        box, cells = self.spec.box, self.spec.side**2
        blank = np.full(cells, -1, dtype=np.int64)
        record = {
            "puzzle": grid_rows(blank, box),
            "solution": grid_rows(np.zeros(cells, dtype=np.int64), box),
            "clues": 0,
            "grade": min(GRADE_NAMES.values(), key=len),
        }
        texts = [grid_text(blank, box)] * 2 + list(pictures(record, box).values())
        return sum(len(text.encode()) for text in texts)

    def _board(self) -> bitmask.Board:
        if self._tables is None:
            self._tables = bitmask.board(self.spec.box)
        return self._tables

    # ---- build ----

    def run(self, ctx: RunContext) -> RunOutput:
        if self.spec.puzzle is not None:
            return self._solve(ctx)
        return self._generate(ctx)

    def _solve(self, ctx: RunContext) -> RunOutput:
        spec = self.spec
        began = time.perf_counter()
        solution = np.zeros(len(spec.puzzle), dtype=np.int64)
        found, count, grade = kernels.solve(self._board(), spec.puzzle, ctx.seed, solution)
        if not found:
            raise BuildError(f"{spec.name}: the puzzle has no solution", at=(("puzzle",),))
        grade = GRADE_NAMES[grade]
        seconds = time.perf_counter() - began
        record = {
            "puzzle": grid_rows(spec.puzzle, spec.box),
            "solution": grid_rows(solution, spec.box),
            "clues": int((spec.puzzle >= 0).sum()),
            "unique": bool(count == 1),
            "grade": grade,
        }
        result = self._result(ctx, [record], seconds)
        artifacts = {"solution.txt": grid_text(solution, spec.box), **pictures(record, spec.box)}
        unique = "unique" if count == 1 else "not unique (2 or more solutions)"
        summary = [f"{spec.name}: solved ({unique}; grade {grade}) in {seconds * 1e3:.1f} ms"]
        summary += ["  " + line for line in grid_text(solution, spec.box).splitlines()]
        return RunOutput(result=result, artifacts=artifacts, summary=summary)

    def job(self, name: str, args: dict, ctx: RunContext) -> ItemJob:
        """The driver's job ("puzzles": puzzle k from seed + k), here or on a worker."""
        board = self._board()
        spec = self.spec

        def make(k: int) -> Item:
            record = self._one_puzzle(board, item_seed(ctx.seed, k))
            files = {
                f"puzzle-{k}.txt": record.pop("puzzle_text"),
                f"solution-{k}.txt": record.pop("solution_text"),
                **pictures(record, spec.box, f"-{k}"),
            }
            line = (
                f"puzzle {k}: {record['clues']} clues, grade {record['grade']}, unique, "
                f"{record['seconds'] * 1e3:.1f} ms ({record['checks']} checks, "
                f"{counted(record['attempts'], 'attempt')})"
            )
            return Item(record, files, line)

        job = ItemJob(f"sudoku {spec.name}", spec.generate.puzzles, make, noun="puzzles")
        job.remote = (name, args)
        return job

    def _generate(self, ctx: RunContext) -> RunOutput:
        spec = self.spec
        job = self.job("puzzles", {}, ctx)
        key = checkpoint_key(spec.document.data, ctx.seed, ctx.shard)
        report = driver.run(job, ctx, key)
        result = self._result(ctx, [item.record for item in job.items], report.seconds)
        result.update(shard=report.shard_field(), **report.fields())
        return RunOutput(result, job.files(), [item.line for item in job.items], report.stopped)

    def refused(self, command: str) -> dict[str, str]:
        """Run flags this spec's mode cannot honour, with the reason."""
        if command == "build" and self.spec.puzzle is not None:
            why = "solving one given puzzle is a single unit of work"
            flags = ("--shard", "--resume", "--fresh", "--time-limit", "--scheduler")
            return {
                **dict.fromkeys(flags, why),
                "--seed": f"{why}, with nothing drawn at random",
                "--force": f"{why}: there is no estimate",
            }
        return {}

    def _one_puzzle(self, board: bitmask.Board, seed: int) -> dict:
        spec = self.spec
        options = spec.generate
        cells = spec.side * spec.side
        began = time.perf_counter()
        partner = symmetric_partner(spec.box) if options.symmetric else np.arange(cells)
        wanted = GRADES.get(options.difficulty, 0)
        rules = {1: RULE_HI, 2: ALL_RULES}.get(wanted, 0)
        tried = np.zeros(1, dtype=np.int64)
        for attempt in range(options.attempts):
            attempt_seed = backtrack.attempt_seed(seed, attempt)
            order = numpy_stream(attempt_seed).permutation(cells).astype(np.int64)
            solution = np.zeros(cells, dtype=np.int64)
            puzzle, grade, count = kernels.make_puzzle(
                board, attempt_seed, order, partner, options.clues, rules, tried, solution
            )
            if wanted in (0, grade):
                break
        else:
            raise BuildError(
                f"{spec.name}: no puzzle of difficulty '{options.difficulty}' in "
                f"{options.attempts} attempts; raise generate.attempts or choose another",
                at=(("generate", "attempts"), ("generate", "difficulty")),
            )
        if count != 1:
            raise BuildError(f"{spec.name}: internal check failed: the puzzle is not unique")
        return {
            "seed": seed,
            "attempts": attempt + 1,
            "puzzle": grid_rows(puzzle, spec.box),
            "solution": grid_rows(solution, spec.box),
            "clues": int((puzzle >= 0).sum()),
            "unique": True,
            "grade": GRADE_NAMES[grade],
            "checks": int(tried[0]),
            "seconds": round(time.perf_counter() - began, 5),
            "puzzle_text": grid_text(puzzle, spec.box),
            "solution_text": grid_text(solution, spec.box),
        }

    def _result(self, ctx: RunContext, records: list[dict], seconds: float) -> dict:
        result = base_result(self.spec.name, self.kind, self.backend, ctx)
        result.update(
            space_size=self.space_size(),
            evaluated=len(records),
            count=len(records),
            best=[{"rank": None, "score": None, "state": {"puzzle": r["puzzle"]}} for r in records],
            seconds=round(seconds, 4),
            box=self.spec.box,
            puzzles=records,
        )
        return result

    # ---- count ----

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput:
        """Solutions of the puzzle (or complete grids, with no puzzle), up to --limit."""
        spec = self.spec
        limit = ctx.limit or spec.limit
        model = sudoku_network(spec.box, spec.puzzle)
        began = time.perf_counter()
        found, complete, report = backtrack.run_count(model, ctx, limit)
        seconds = time.perf_counter() - began
        result = base_result(spec.name, self.kind, self.backend, ctx)
        result.update(
            space_size=self.space_size(),
            evaluated=found,
            count=found,
            best=[],
            seconds=round(seconds, 4),
            complete=complete,
            **(report.fields() if report else {}),
        )
        what = counted(found, "solution" if spec.puzzle is not None else "complete grid")
        line = f"{spec.name}: {what}{count_bound(complete, limit, report)}"
        return RunOutput(result=result, summary=[line], stopped=count_stopped(complete, report))
