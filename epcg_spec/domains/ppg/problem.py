"""A compiled ppg spec: puzzles generated on the propagate + backtrack back ends, or counted."""

from __future__ import annotations

import json
import time
from dataclasses import replace

from ...compile.budget import Estimate, bounded
from ...core.context import RunContext, RunOutput
from ...core.errors import BuildError, SpecError
from ...core.result import base_result
from ...core.rng import item_seed
from ...core.sizes import count_text, counted
from ...search import backtrack, driver
from ...search.driver import checkpoint_key, count_bound, count_stopped
from ...search.items import Item, ItemJob
from .enumerate import MAX_RELABELLINGS, enumerate_orders, relabelling_count
from .model import PpgSpec
from .network import OrderNetwork, RuleSets, order_network, resolve_rules
from .render import dot_text, graph_data, svg_text, walkthrough_text
from .simulate import hasse_edges, simulate
from .universe import Universe, draw_universe, draws_at_random, largest_universe

# Lower bounds per order that mode enumerate lists (orders.json, result.json, the gallery),
# times the squared node count. Measured with 6 free two-state objects (130,023 orders
# listed, contended 2-core machine): 12.5 KiB of peak memory and 1.4 KiB on disk per order.
MIN_MEMORY_PER_LISTED_CELL = 200
MIN_DISK_PER_LISTED_CELL = 30
MIN_MEMORY_PER_TRIPLE = 48
"""Mode generate: the transitivity nogoods (network.py) hold, for each ordered triple of
distinct nodes, its three node indices and its three cells, 8 bytes each."""


class PpgProblem:
    """Puzzle dependency graphs: the order matrix collapsed cell by cell, checked by play."""

    kind = "ppg"
    backend = "backtrack"

    def __init__(self, spec: PpgSpec):
        self.spec = spec
        self.name = spec.name

    def sample_instead(self) -> tuple[str, str] | None:
        """The build that gives mode enumerate's content, where it is not the kind's
        (`DOMAIN.sample_instead`; `sample` is refused: puzzles are not ranked)."""
        if self.spec.mode != "enumerate":
            return None
        if draws_at_random(self.spec):
            return "--seed N", "lists every valid order of the puzzle drawn for each seed N"
        return "", "lists every valid order of its puzzle"

    def space_size(self) -> int | None:
        """Cell matrices of the largest universe (2 ** (n (n - 1))) when it is the only one."""
        if draws_at_random(self.spec):
            return None
        n = len(largest_universe(self.spec).nodes)
        return 2 ** (n * (n - 1))

    def estimate(self, ctx: RunContext) -> Estimate:
        """Lower bounds: in mode enumerate for the listed orders, all held until they are
        written (at most `limit`, and at most every order matrix of the largest universe);
        in mode generate for the order network of one puzzle of the largest universe."""
        spec = self.spec
        n = len(largest_universe(spec).nodes)
        if spec.mode != "enumerate":
            triples = n * (n - 1) * (n - 2)
            return Estimate(memory=bounded(triples * MIN_MEMORY_PER_TRIPLE), lower_bound=True)
        listed = bounded(min(spec.limit, 2 ** (n * (n - 1))))
        return Estimate(
            memory=listed * n * n * MIN_MEMORY_PER_LISTED_CELL,
            disk=listed * n * n * MIN_DISK_PER_LISTED_CELL,
            lower_bound=True,
        )

    def explain(self) -> list[tuple[str, str]]:
        spec = self.spec
        universe = largest_universe(spec)
        n = len(universe.nodes)
        seed = int(spec.document.data.get("seed", 0))
        count = 1 if spec.mode == "enumerate" else spec.puzzles
        drawn = [len(draw_universe(spec, item_seed(seed, k)).nodes) for k in range(count)]
        rows = [
            ("spec", f"{spec.name} (kind: ppg)"),
            ("universe", f"{len(universe.things)} objects, {n} candidate nodes (object, goal)"),
            ("nodes", _span(drawn) + _per_puzzle(drawn, seed, n)),
            ("rules", "; ".join(r.text() for r in spec.rules) or "none"),
            (
                "network",
                f"{_span([m * (m - 1) for m in drawn])} order cells (0/1), "
                "transitive and acyclic by nogoods",
            ),
        ]
        if spec.mode == "enumerate":
            rows.append(("task", f"enumerate every valid order (symmetry: {spec.symmetry})"))
        else:
            rows.append(
                (
                    "task",
                    f"generate {spec.puzzles} puzzle(s), heuristic {spec.heuristic}, "
                    f"density {spec.density}, {spec.attempts} attempt(s) each",
                )
            )
        return rows

    def _network(self, universe: Universe, rules: list[RuleSets] | None = None) -> OrderNetwork:
        chosen = resolve_rules(universe) if rules is None else rules
        return order_network(universe, chosen, self.spec.density)

    # ---- build ----

    def run(self, ctx: RunContext) -> RunOutput:
        if self.spec.mode == "enumerate":
            return self._enumerate(ctx, self.spec.limit)
        return self._generate(ctx)

    def job(self, name: str, args: dict, ctx: RunContext) -> ItemJob:
        """The driver's job ("puzzles": puzzle k from seed + k), here or on a worker."""
        spec = self.spec

        def make(k: int) -> Item:
            record, files = self._one_puzzle(item_seed(ctx.seed, k))
            nodes = len(record["nodes"])
            line = (
                f"puzzle {k}: {counted(nodes, 'node')}, {counted(len(record['edges']), 'edge')}, "
                f"{counted(record['decisions'], 'decision')}, "
                f"{counted(record['backtracks'], 'backtrack')}, "
                f"solved by simulation in {counted(nodes, 'step')}"
            )
            named = {f"puzzle-{k}.{suffix}": text for suffix, text in files.items()}
            return Item(record, named, line)

        job = ItemJob(f"ppg {spec.name}", spec.puzzles, make, noun="puzzles")
        job.remote = (name, args)
        return job

    def _generate(self, ctx: RunContext) -> RunOutput:
        spec = self.spec
        job = self.job("puzzles", {}, ctx)
        key = checkpoint_key(spec.document.data, ctx.seed, ctx.shard)
        report = driver.run(job, ctx, key)
        records = [item.record for item in job.items]
        result = base_result(spec.name, self.kind, self.backend, ctx)
        result.update(
            space_size=self.space_size(),
            shard=report.shard_field(),
            evaluated=len(records),
            count=len(records),
            best=[{"rank": None, "score": None, "state": {"edges": r["edges"]}} for r in records],
            seconds=round(report.seconds, 4),
            **report.fields(),
            puzzles=records,
        )
        return RunOutput(result, job.files(), [item.line for item in job.items], report.stopped)

    def refused(self, command: str) -> dict[str, str]:
        """Run flags this spec's mode cannot honour, with the reason."""
        if command != "build":
            return {}
        if self.spec.mode != "enumerate":
            return {}
        why = "mode enumerate lists the orders of one drawn universe in a single search"
        refused = dict.fromkeys(("--shard", "--scheduler"), why)
        if not draws_at_random(self.spec):
            refused["--seed"] = (
                "mode enumerate lists the orders of one universe, and this spec draws nothing "
                "at random (no copies in a range, no num_nodes below the candidates): every "
                "seed gives the same orders"
            )
        return refused

    def _one_puzzle(self, seed: int) -> tuple[dict, dict[str, str]]:
        spec = self.spec
        universe = draw_universe(spec, seed)
        network = self._network(universe)
        policy = backtrack.Policy(heuristic=spec.heuristic, attempts=spec.attempts)
        outcome = backtrack.solve(network.net.compile(), seed, policy)
        if outcome.status == "infeasible":
            raise self._unsatisfiable(universe, seed)
        if outcome.status != "solved":
            raise BuildError(
                f"{spec.name}: no puzzle for seed {seed} in {outcome.attempts} "
                "attempt(s); raise 'attempts'",
                at=(("attempts",),),
            )
        order = network.relation(outcome.values)
        play = simulate(universe, order)
        if not play.ok:
            raise BuildError(f"{spec.name}: internal check failed for seed {seed}: {play.problem}")
        graph = graph_data(universe, order)
        record = {
            "seed": seed,
            **graph,
            "walkthrough": [universe.label(s.node) for s in play.steps],
            "decisions": outcome.decisions,
            "backtracks": outcome.backtracks,
            "attempts": outcome.attempts,
        }
        files = {
            "json": json.dumps(graph, indent=1) + "\n",
            "dot": dot_text(universe, order, spec.name),
            "svg": svg_text(universe, order),
            "walkthrough.txt": walkthrough_text(universe, play),
        }
        return record, files

    def _unsatisfiable(self, universe: Universe, seed: int) -> SpecError | BuildError:
        """The rules of a smallest conflicting set (removing any one of them makes it solvable)."""
        rules = resolve_rules(universe)
        involved = minimal_conflict(self, universe, rules)
        if not involved:
            return BuildError(
                f"{self.spec.name}: the universe drawn for seed {seed} has no valid "
                "order even without rules (objects whose goal states cannot "
                "follow each other, or the goal)"
            )
        doc, goal = self.spec.document, universe.goal
        # the goal ends the story: the rules may hold in a universe without it
        ending = goal is not None and feasible(
            self, replace(universe, goal=None), [rules[i] for i in involved]
        )
        together = [f"the other {len(involved) - 1} rule(s) listed"] if len(involved) > 1 else []
        hint = f"drop or change {'one of these rules' if together else 'this rule'}"
        if ending:
            together.append(f"the goal {goal.text()}")
            hint += f", or the goal (the puzzle ends once {goal.text()} is reached)"
        where = "with " + " and ".join(together) if together else "in this universe"
        return SpecError(
            [
                doc.diag(
                    universe.rules[i].path,
                    f"unsatisfiable: {universe.rules[i].text()} cannot hold {where} (seed {seed})",
                    hint,
                )
                for i in involved
            ]
        )

    def _enumerate(self, ctx: RunContext, limit: int) -> RunOutput:
        spec = self.spec
        universe = draw_universe(spec, ctx.seed)
        if spec.symmetry == "templates":
            self._refuse_too_many_relabellings(universe)
        began = time.perf_counter()
        found, report = enumerate_orders(
            self._network(universe),
            universe,
            limit,
            spec.symmetry == "templates",
            ctx,
            ctx.limit or 0,
            checkpoint_key(spec.document.data, ctx.seed, ctx.limit),
        )
        listed = [graph_data(universe, order) for order in found.orders]
        result = base_result(spec.name, self.kind, self.backend, ctx)
        result.update(
            space_size=self.space_size(),
            evaluated=found.count,
            count=found.count,
            best=[{"rank": None, "score": None, "state": {"edges": g["edges"]}} for g in listed],
            seconds=round(time.perf_counter() - began, 4),
            nodes=[universe.label(i) for i in range(len(universe.nodes))],
            symmetry=spec.symmetry,
            **(report.fields() if report else {}),
        )
        under_limit = not ctx.limit or found.count < ctx.limit
        result["complete"] = under_limit and not (report and report.stopped)
        bound = count_bound(under_limit, ctx.limit or 0, report)
        up_to = " up to relabelling template copies" if spec.symmetry == "templates" else ""
        summary = [
            f"{spec.name}: {counted(found.count, 'valid order')} of "
            f"{counted(len(universe.nodes), 'node')}{up_to}"
            f"{bound}"
        ]
        summary += [
            f"  {k}: "
            + ", ".join(
                f"{universe.label(a)} -> {universe.label(b)}" for a, b in hasse_edges(order)
            )
            or "(no edges)"
            for k, order in enumerate(found.orders[:10])
        ]
        artifacts = {"orders.json": json.dumps(listed, indent=1) + "\n"} if limit else {}
        stopped = count_stopped(under_limit, report)
        return RunOutput(result=result, artifacts=artifacts, summary=summary, stopped=stopped)

    def _refuse_too_many_relabellings(self, universe: Universe) -> None:
        ways = relabelling_count(universe)
        if ways > MAX_RELABELLINGS:
            raise SpecError(
                self.spec.document.diag(
                    ("symmetry",),
                    f"symmetry: templates would compare each order under "
                    f"{count_text(ways, 10**12)} relabellings of the template copies, "
                    f"more than {MAX_RELABELLINGS:,} (8 copies of one template)",
                    "use symmetry: none, or fewer copies",
                )
            )

    # ---- count ----

    def count(self, ctx: RunContext, constrained: bool) -> RunOutput:
        """Every valid order of the node set drawn for the seed, counted, none listed."""
        output = self._enumerate(ctx, 0)
        output.summary = output.summary[:1]
        return output


def _span(values: list[int]) -> str:
    """`5`, or `4 to 6` where the values differ."""
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low} to {high}"


def _per_puzzle(drawn: list[int], seed: int, candidates: int) -> str:
    """Where the nodes are drawn (template copies, num_nodes): which seed drew how many."""
    if drawn == [candidates] * len(drawn):
        return ""
    shown = ", ".join(f"{m} for seed {item_seed(seed, k)}" for k, m in enumerate(drawn[:5]))
    more = ", ..." if len(drawn) > 5 else ""
    return f" (drawn per puzzle: {shown}{more}; --seed draws others)"


def minimal_conflict(problem: PpgProblem, universe: Universe, rules: list[RuleSets]) -> list[int]:
    """Indices of rules that cannot all hold, none of them removable (deletion filter)."""
    keep = list(range(len(rules)))
    if not feasible(problem, universe, []):
        return []
    for i in list(keep):
        trial = [k for k in keep if k != i]
        if not feasible(problem, universe, [rules[k] for k in trial]):
            keep = trial
    return keep


def feasible(problem: PpgProblem, universe: Universe, rules: list[RuleSets]) -> bool:
    """Whether some order of the universe's nodes meets these rules."""
    model = problem._network(universe, rules).net.compile()
    return backtrack.solve(model, 0, backtrack.Policy(attempts=1)).status == "solved"
