"""The typed form of a `kind: ppg` spec: objects with states and events, rules, options."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ...spec.document import Document
from ...spec.document import Path as DocPath

DEFAULT_LIMIT = 1000


@dataclass(frozen=True)
class Transition:
    event: str
    source: str
    target: str


@dataclass(frozen=True)
class ObjectSpec:
    """An object of the universe (or a template of copies): states, events, transitions."""

    name: str
    states: tuple[str, ...]
    initial: str
    reversible: tuple[tuple[str, bool], ...]  # (event, reversible) in the order given
    transitions: tuple[Transition, ...]
    copies: tuple[int, int] | None  # a template: lo..hi copies; None: one plain object
    path: DocPath = ()

    def apply(self, event: str, state: str) -> str | None:
        """The state `event` leads to from `state` (None: no effect), as PPG handles events:
        the first transition of the event leaving `state`, or, for a reversible event,
        entering it (then it is undone)."""
        reversible = dict(self.reversible).get(event, True)
        for t in self.transitions:
            if t.event != event:
                continue
            if t.source == state:
                return t.target
            if reversible and t.target == state:
                return t.source
        return None

    def moves(self, state: str) -> list[tuple[str, str]]:
        """(event, next state) for every event with an effect in `state`."""
        events = dict.fromkeys(t.event for t in self.transitions)
        out = []
        for event in events:
            target = self.apply(event, state)
            if target is not None and target != state:
                out.append((event, target))
        return out

    def route(self, start: str, goal: str) -> list[tuple[str, str]] | None:
        """The shortest list of (event, state after it) from `start` to `goal`; None if none."""
        back: dict[str, tuple[str, str] | None] = {start: None}
        queue = deque([start])
        while queue:
            state = queue.popleft()
            if state == goal:
                steps = []
                while back[state] is not None:
                    event, previous = back[state]
                    steps.append((event, state))
                    state = previous
                return steps[::-1]
            for event, target in self.moves(state):
                if target not in back:
                    back[target] = (event, state)
                    queue.append(target)
        return None

    def reachable(self, start: str) -> set[str]:
        """Every state some sequence of events leads to from `start` (start included)."""
        seen = {start}
        queue = deque([start])
        while queue:
            for _, target in self.moves(queue.popleft()):
                if target not in seen:
                    seen.add(target)
                    queue.append(target)
        return seen

    def goal_states(self) -> list[str]:
        """The states a node may ask for: reachable from the initial state, other than it."""
        reach = self.reachable(self.initial)
        return [s for s in self.states if s in reach and s != self.initial]


@dataclass(frozen=True)
class Side:
    """One side of a rule: an object, a template or one copy, and a state (None: any)."""

    name: str
    state: str | None
    path: DocPath

    def text(self) -> str:
        return self.name if self.state is None else f"{self.name}:{self.state}"


@dataclass(frozen=True)
class Rule:
    type: str
    lh: Side
    rh: Side
    path: DocPath

    def text(self) -> str:
        return f"{self.type}({self.lh.text()}, {self.rh.text()})"


@dataclass
class PpgSpec:
    name: str
    document: Document
    objects: tuple[ObjectSpec, ...]
    rules: tuple[Rule, ...]
    goal: Side | None = None
    num_nodes: int | None = None
    puzzles: int = 1
    density: float = 0.5
    heuristic: str = "entropy"
    attempts: int = 10
    mode: str = "generate"
    limit: int = DEFAULT_LIMIT
    symmetry: str = "none"
    description: str = ""
