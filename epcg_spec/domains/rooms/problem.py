"""A compiled rooms spec: place the tree on the map with the guess-and-test stack."""

from __future__ import annotations

import math
import time
from dataclasses import replace

import numpy as np

from ...compile.budget import Estimate, estimate_rows
from ...core.context import RunContext, RunOutput
from ...core.errors import BuildError, UsageError
from ...core.result import base_result
from ...core.sizes import count_text, counted
from ...search import backtrack, driver
from ...search.driver import checkpoint_key, count_bound, count_stopped
from ...search.propagate import Model
from .model import ORDERS, RoomsSpec
from .network import Placements, allowed_counts, build_network, exclusive_bytes, placements
from .render import MapFrame, Placed, ascii_map, legend, png_map, svg_map


class RoomsProblem:
    """Rooms on the propagate network, searched by backtrack.Search (stack) or solve (restart)."""

    kind = "rooms"

    def __init__(self, spec: RoomsSpec):
        self.spec = spec
        self.name = spec.name
        self.backend = "backtrack"
        self._network: tuple[Model, Placements] | None = None

    def network(self) -> tuple[Model, Placements]:
        if self._network is None:
            places = placements(self.spec)
            self._network = (build_network(self.spec, places), places)
        return self._network

    def space_size(self) -> int:
        """Every way to give each room one of its placements (before any test)."""
        return math.prod(allowed_counts(self.spec, placements(self.spec)))

    def explain(self) -> list[tuple[str, str]]:
        spec = self.spec
        undos = spec.search.max_undos
        strategy = {
            -1: "stack: a failed room undoes to the most recent room with untried placements",
            0: f"restart from nothing after a failed room, at most {spec.search.attempts} attempts",
        }.get(
            undos,
            f"stack with at most {undos} undos per attempt, then a restart; "
            f"at most {spec.search.attempts} attempts",
        )
        return [
            ("spec", f"{spec.name} (kind: rooms)"),
            ("map", f"{spec.width} x {spec.height} cells"),
            ("rooms", f"{len(spec.rooms)} (root {spec.rooms[0].name!r})"),
            ("walls", f"{counted(spec.margin, 'cell')} between rooms"),
            ("corridors", counted(spec.corridor, "cell") if spec.corridor else "none (doors)"),
            ("rotate", "yes" if spec.rotate else "no"),
            ("placements", f"{count_text(self.space_size())} combinations before any test"),
            ("order", f"{spec.search.order} (which room is guessed next)"),
            ("back end", strategy),
            *estimate_rows(
                self.estimate(RunContext()),
                {
                    "estimated memory": "the cells each placement uses (to keep rooms apart), "
                    "the placements each room has left, and the map's files",
                    "estimated disk": "map.txt and map.svg (map.png, compressed, is not counted)",
                },
            ),
            (
                "estimated time",
                "not estimated: how many guesses and undos place every room is known only by "
                "searching",
            ),
        ]

    def estimate(self, ctx: RunContext) -> Estimate:
        """Floors: the map's text and SVG files (the PNG, compressed, is not counted) and,
        in memory too, the cells each placement uses and which placements each room has
        left (a byte a room and placement); no time (see explain)."""
        files = float(self.bytes_of_map())
        spec = self.spec
        places = placements(spec)
        uses = exclusive_bytes(spec, places) if len(spec.rooms) > 1 else 0
        domains = len(spec.rooms) * len(places.x)
        return Estimate(memory=files + uses + domains, disk=files, lower_bound=True)

    def bytes_of_map(self) -> int:
        """The fewest bytes of map.txt and map.svg: the map with no room drawn (a room only
        adds walls, doors and labels), and each room's line of the legend at (0, 0)."""
        spec = self.spec
        frame = MapFrame(spec.width, spec.height, spec.blocked)
        rooms = [Placed(r.name, 0, 0, r.width, r.height, r.parent, ()) for r in spec.rooms]
        texts = [ascii_map([], frame), "\n".join(legend(rooms)) + "\n", svg_map([], frame)]
        return sum(len(text.encode()) for text in texts)

    # ---- build ----

    def run(self, ctx: RunContext) -> RunOutput:
        steps = ctx.options.get("steps")
        if self.spec.search.max_undos >= 0:
            return self._attempts(ctx)
        return self._stack(ctx, steps)

    def refused(self, command: str) -> dict[str, str]:
        """Run flags this spec's strategy cannot honour, with the reason."""
        if command == "build" and self.spec.search.max_undos >= 0:
            why = "this spec restarts (search.strategy: restart, or search.undos)"
            return dict.fromkeys(("--resume", "--fresh", "--time-limit", "--steps"), why)
        return {}

    def _stack(self, ctx: RunContext, steps: int | None) -> RunOutput:
        """One uninterrupted stack through the driver: --steps pauses it (a checkpoint in
        the output folder), --resume continues it, as does a resume after Ctrl-C."""
        model, places = self.network()
        base = backtrack.prepare(model)
        if base is None:
            raise self._impossible("before any guess")
        seed = backtrack.attempt_seed(ctx.seed, 0)
        search = backtrack.Search(model, base, seed, ORDERS[self.spec.search.order])
        job = backtrack.SearchJob(search, f"rooms {self.name}", noun="guesses")
        if steps is not None and ctx.work_dir is None:
            raise UsageError("--steps needs an output folder to keep the paused run in")
        ctx = replace(ctx, unit_limit=steps)
        report = driver.run(job, ctx, checkpoint_key(repr(self.spec), ctx.seed))
        run = job.search
        if run.status == backtrack.INFEASIBLE:
            raise self._impossible(f"after {run.stats()['decisions']} guesses")
        stats = run.stats()
        outcome = {
            "status": backtrack.STATUS_NAMES[run.status],
            "attempts": 1,
            "guesses": stats["decisions"],
            "failures": stats["contradictions"],
            "undos": stats["backtracks"],
        }
        output = self._output(ctx, run.values(), places, outcome, report.seconds)
        output.result.update(report.fields())
        output.stopped = report.stopped
        return output

    def _attempts(self, ctx: RunContext) -> RunOutput:
        model, places = self.network()
        search = self.spec.search
        policy = backtrack.Policy(
            heuristic=ORDERS[search.order],
            max_backtracks=search.max_undos,
            attempts=search.attempts,
        )
        outcome = backtrack.solve(model, ctx.seed, policy)
        if outcome.status == "infeasible":
            raise self._impossible(f"after {outcome.decisions} guesses")
        if outcome.status != "solved":
            raise BuildError(
                f"{self.name}: no map after {outcome.attempts} attempts ({outcome.decisions} "
                f"guesses); raise search.attempts (or search.undos)",
                at=(("search", "attempts"), ("search", "undos")),
            )
        record = {
            "status": outcome.status,
            "attempts": outcome.attempts,
            "guesses": outcome.decisions,
            "failures": outcome.contradictions,
            "undos": outcome.backtracks,
        }
        return self._output(ctx, outcome.values, places, record, outcome.seconds)

    def _impossible(self, when: str) -> BuildError:
        """The error that the rooms do not fit, naming the settings to change."""
        spec = self.spec
        return BuildError(
            f"{self.name}: the {len(spec.rooms)} rooms cannot all be placed on the "
            f"{spec.width} x {spec.height} map ({when}, every placement was tried); "
            f"enlarge the map, shrink the rooms or lower margin/corridor",
            at=(("map",), ("rooms",)),
        )

    def placed(self, values: np.ndarray, places: Placements) -> list[Placed]:
        """The rooms that have a placement, in tree order (parent indices kept)."""
        out = []
        for room, value in zip(self.spec.rooms, values, strict=True):
            if value < 0:
                continue
            w, h = places.shapes[places.shape[value]]
            passage: tuple[tuple[int, int], ...] = ()
            if room.parent >= 0:
                x0, y0, dx, dy = places.door(int(value))
                passage = tuple((x0 + k * dx, y0 + k * dy) for k in range(self.spec.gap))
            out.append(
                Placed(
                    room.name,
                    int(places.x[value]),
                    int(places.y[value]),
                    w,
                    h,
                    room.parent,
                    passage,
                )
            )
        return out

    def _output(self, ctx, values, places, outcome: dict, seconds: float) -> RunOutput:
        spec = self.spec
        complete = bool(np.all(values >= 0))
        rooms = self.placed(values, places) if complete else []
        result = base_result(self.name, self.kind, self.backend, ctx)
        result.update(
            space_size=self.space_size(),
            evaluated=outcome["guesses"],
            count=1 if complete else 0,
            best=[{"rank": None, "score": None, "state": _layout(rooms)}] if complete else [],
            seconds=round(seconds, 4),
            **outcome,
            strategy=spec.search.strategy,
            map=[spec.width, spec.height],
            rooms=_records(rooms, spec),
        )
        what = f"{counted(outcome['attempts'], 'attempt')}, " if spec.search.max_undos >= 0 else ""
        summary = [
            f"{self.name}: {outcome['status']}, {counted(len(spec.rooms), 'room')} on "
            f"{spec.width} x {spec.height}: {what}"
            f"{counted(outcome['guesses'], 'guess', 'guesses')}, "
            f"{counted(outcome['failures'], 'failure')}, {counted(outcome['undos'], 'undo')}, "
            f"{seconds:.3f} s"
        ]
        artifacts: dict[str, str | bytes] = {}
        if complete:
            frame = MapFrame(spec.width, spec.height, spec.blocked)
            text = ascii_map(rooms, frame)
            artifacts = {
                "map.txt": text + "\n".join(legend(rooms)) + "\n",
                "map.svg": svg_map(rooms, frame),
                "map.png": png_map(rooms, frame),
            }
            summary += ["  " + line for line in text.splitlines()]
        else:
            summary.append(
                f"  paused with {int((values >= 0).sum())} of {len(spec.rooms)} rooms placed"
            )
        return RunOutput(result=result, artifacts=artifacts, summary=summary)

    # ---- count ----

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput:
        """The number of different maps (up to --limit): every room placed, all tests passed."""
        limit = ctx.limit or self.spec.limit
        model, _ = self.network()
        began = time.perf_counter()
        found, complete, report = backtrack.run_count(model, ctx, limit)
        result = base_result(self.name, self.kind, self.backend, ctx)
        result.update(
            space_size=self.space_size(),
            evaluated=found,
            count=found,
            best=[],
            seconds=round(time.perf_counter() - began, 4),
            complete=complete,
            **(report.fields() if report else {}),
        )
        line = f"{self.name}: {counted(found, 'map')}{count_bound(complete, limit, report)}"
        return RunOutput(result=result, summary=[line], stopped=count_stopped(complete, report))


def _layout(rooms: list[Placed]) -> dict[str, list[int]]:
    return {room.name: [room.x, room.y, room.width, room.height] for room in rooms}


def _records(rooms: list[Placed], spec: RoomsSpec) -> list[dict]:
    return [
        {
            "name": room.name,
            "kind": spec.rooms[i].kind or None,
            "x": room.x,
            "y": room.y,
            "width": room.width,
            "height": room.height,
            "parent": spec.rooms[room.parent].name if room.parent >= 0 else None,
            "passage": [list(c) for c in room.passage],
        }
        for i, room in enumerate(rooms)
    ]
