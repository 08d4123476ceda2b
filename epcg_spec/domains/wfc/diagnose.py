"""Why a run made no output, said so that the hint fits the cause.

A run has no output for one of three reasons, each with its own remedy:

- its start contradicts: propagating the constraints, or checking connectivity and the path
  rules, fails before any choice. No attempt can help; `clashing` names a minimal set of the
  constraint settings that clash (dropping any one of them lifts the contradiction);
- the search went through every choice (backtracking to the bottom of its stack): also a
  proof, but of the whole spec, so no setting is singled out;
- the attempts ran out after contradictions met on random choices: more attempts (or
  backtracks) may find an output.
"""

from __future__ import annotations

import dataclasses
import time

from ...core.errors import BuildError
from ...core.sizes import counted
from ...search import backtrack
from ...search.propagate import Model, State
from ...spec.document import Path, describe_path
from . import checks
from .load_constraints import TILED_CONSTRAINTS
from .model import WfcRun
from .network import build_network

CLASH_SECONDS = 5.0
"""Time the search for a minimal clashing set may take; past it, the settings not yet tried
stay in the set (a set that still clashes, perhaps not a minimal one)."""

ORDER = ("fixed", "border", "ground", *TILED_CONSTRAINTS)
"""The constraint settings, in the order they are listed (the order they are loaded)."""
SHAPE = ("width", "height", "size", "depth", "periodic", "mask")


def start(run: WfcRun, model: Model) -> State | None:
    """The run's start (its constraints propagated), or None where the start contradicts:
    propagation fails, or connectivity or a path rule fails before any choice."""
    base = backtrack.prepare(model)
    if base is None:
        return None
    first = backtrack.Search(model, base, check=checks.check_of(run))
    return None if first.run(0) == backtrack.INFEASIBLE else base


def settings(run: WfcRun) -> list[Path]:
    """The settings of the run's constraints, each once, in the order they are listed."""
    found = dict.fromkeys(c.at for c in run.constraints())
    depth = len(run.path)
    return sorted(found, key=lambda at: (ORDER.index(at[depth]), at[depth + 1 :]))


def without(run: WfcRun, dropped: set[Path]) -> WfcRun:
    """The run with the constraints of the `dropped` settings left out."""

    def kept(constraints: list) -> list:
        return [c for c in constraints if c.at not in dropped]

    connection = run.connection
    return dataclasses.replace(
        run,
        restrictions=kept(run.restrictions),
        counts=kept(run.counts),
        connection=None if connection is None or connection.at in dropped else connection,
        nogoods=kept(run.nogoods),
        acyclic=kept(run.acyclic),
        distances=kept(run.distances),
    )


def clashing(run: WfcRun) -> list[Path]:
    """A minimal set of the settings whose constraints contradict at the start of a run that
    does (a deletion filter: each setting is left out if the rest still contradict); [] when
    the tile rules (or the sample's patterns) contradict on their own."""
    found = settings(run)
    dropped: set[Path] = set()
    deadline = time.perf_counter() + CLASH_SECONDS
    for at in found:
        if time.perf_counter() > deadline:
            break
        trial = without(run, dropped | {at})
        if start(trial, build_network(trial)) is None:
            dropped.add(at)
    return [at for at in found if at not in dropped]


def contradiction(run: WfcRun) -> BuildError:
    """The error of a run whose start contradicts, at the settings that clash."""
    rules = _rules(run)
    clash = clashing(run)
    names = [describe_path(at[len(run.path) :]) for at in clash]
    if not names:
        return BuildError(
            f"{run.name}: {rules} allow no {_size(run)} output: they contradict before any "
            "choice, so more attempts cannot help",
            at=_shape(run),
        )
    them = "it" if len(names) == 1 else "them"
    return BuildError(
        f"{run.name}: {_joined(names)} {'clashes' if len(names) == 1 else 'clash'} with "
        f"{rules} before any choice: no {_size(run)} output can meet {them}, and more "
        "attempts cannot help",
        at=tuple(clash),
    )


def exhausted(run: WfcRun, outcome: backtrack.Outcome) -> BuildError:
    """The error of a run whose search tried every choice and found no output."""
    what = f"{_rules(run)} and constraints" if run.constraints() else _rules(run)
    return BuildError(
        f"{run.name}: no {_size(run)} output can meet {what}: the search tried every choice "
        f"({_tally(outcome)}), so more attempts cannot help",
        at=(*settings(run), *_shape(run)),
    )


def out_of_attempts(run: WfcRun, outcome: backtrack.Outcome) -> BuildError:
    """The error of a run whose attempts all met contradictions: more may succeed."""
    more = "search.max_backtracks" if run.backtrack else "set search.backtrack: true"
    return BuildError(
        f"{run.name}: {outcome.status} after {counted(outcome.attempts, 'attempt')} "
        f"({_tally(outcome)}); raise search.attempts or {more}, or loosen the constraints",
        at=((*run.path, "search", "attempts"), (*run.path, "search")),
    )


def _tally(outcome: backtrack.Outcome) -> str:
    return (
        f"{counted(outcome.contradictions, 'contradiction')}, "
        f"{counted(outcome.backtracks, 'backtrack')}"
    )


def _rules(run: WfcRun) -> str:
    return "the tile rules" if run.tiled is not None else "the sample's patterns"


def _size(run: WfcRun) -> str:
    sizes = (run.width, run.height, run.depth)[: 3 if run.topology.grid == "cube" else 2]
    return " x ".join(map(str, sizes))


def _shape(run: WfcRun) -> tuple[Path, ...]:
    """The settings of the map's shape, where a contradiction of the rules alone is met."""
    return tuple((*run.path, key) for key in SHAPE)


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
