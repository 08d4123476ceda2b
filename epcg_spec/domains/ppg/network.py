"""PPG's order matrix as a propagate network: one 0/1 variable per ordered pair of nodes.

Cell (i, j) is 1 (USED or TUSED: i is completed before j) or 0 (NOT). The relation is kept a
strict partial order, so acyclic by construction: antisymmetry `{x_ij=1, x_ji=1}` and
transitivity `{x_ij=1, x_jk=1, x_ik=0}` are nogoods, whose unit propagation passes a collapsed
cell on to the related rows and columns (PPG's TUSED). Rules set initial bans (PPG's NOT):

- BEFORE(X, Y): no y before x;  AFTER(X, Y): no x before y;
- STRICT_BEFORE(X, Y): BEFORE, and x's direct successors are Y nodes only: x < j for j
  outside Y needs some y in Y with x < y < j (an auxiliary variable per (x, y, j) equal to
  `x_xy and x_yj`, so auxiliaries never add solutions); STRICT_AFTER mirrors it.

Two nodes of one object: the later one's goal state must be reachable from the earlier one's
(a pair reachable only one way is ordered), and two unordered ones never share a successor
(no two parallel predecessors need one object in different states). A goal node comes after
every other node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...search.propagate import Network
from .universe import Universe

USED, NOT = 1, 0
BAN_USED = np.array([True, False])
FORCE_USED = np.array([False, True])


@dataclass(frozen=True)
class RuleSets:
    """A rule resolved to node sets: its type, the lh nodes and the rh nodes."""

    type: str
    lh: tuple[int, ...]
    rh: tuple[int, ...]


@dataclass
class OrderNetwork:
    """The network and how its variables map back to cells of the order matrix."""

    net: Network
    n_nodes: int
    cell: np.ndarray  # cell[i, j]: the variable of i before j (-1 on the diagonal)
    n_cells: int

    def relation(self, values: np.ndarray) -> np.ndarray:
        """The order matrix (bool, i before j) of an assignment's cell variables."""
        n = self.n_nodes
        order = np.zeros((n, n), dtype=bool)
        mask = self.cell >= 0
        order[mask] = values[self.cell[mask]] == USED
        return order


def resolve_rules(universe: Universe) -> list[RuleSets]:
    return [
        RuleSets(r.type, tuple(lh), tuple(rh))
        for r, (lh, rh) in zip(universe.rules, universe.rule_sets(), strict=True)
    ]


def order_network(universe: Universe, rules: list[RuleSets], density: float) -> OrderNetwork:
    """The network of every valid order of the universe's nodes under `rules`."""
    n = len(universe.nodes)
    cell = np.full((n, n), -1, dtype=np.int64)
    off = ~np.eye(n, dtype=bool)
    cell[off] = np.arange(n * (n - 1))
    n_cells = n * (n - 1)
    bans: set[int] = set()
    forced: set[int] = set()
    aux: list[tuple[int, int]] = []  # auxiliary cell n_cells + k: the cells it is the AND of
    clauses: list[list[tuple[int, int]]] = []  # nogoods as (variable, value) literals
    for rule in rules:
        before = rule.type in ("BEFORE", "STRICT_BEFORE")
        bans.update(
            cell[y, x] if before else cell[x, y] for x in rule.lh for y in rule.rh if x != y
        )
        if rule.type.startswith("STRICT"):
            _direct_neighbours(rule, cell, n_cells, bans, clauses, aux)
    _same_object(universe, cell, bans, clauses)
    goal = universe.goal_node()
    if goal is not None:
        forced.update(cell[i, goal] for i in range(n) if i != goal)
    net = Network(max(n_cells + len(aux), 1), 2, [1.0 - density, density])
    if n_cells + len(aux) == 0:
        bans.add(0)  # a lone node: one placeholder variable, held at NOT
    if bans:
        net.restrict(sorted(bans), BAN_USED)
    if forced:
        net.restrict(sorted(forced), FORCE_USED)
    _order_nogoods(net, cell, n)
    if aux:  # auxiliary h = left and right: h implies each, both imply h
        left, right = np.array(aux, dtype=np.int64).T
        h = n_cells + np.arange(len(aux))
        for part in (left, right):
            net.nogoods(np.stack([h, part], 1), np.tile([USED, NOT], (len(aux), 1)))
        net.nogoods(np.stack([left, right, h], 1), np.tile([USED, USED, NOT], (len(aux), 1)))
    for clause in clauses:
        net.nogoods([[v for v, _ in clause]], [[a for _, a in clause]])
    return OrderNetwork(net, n, cell, n_cells)


def _direct_neighbours(rule: RuleSets, cell: np.ndarray, n_cells: int, bans, clauses, aux):
    """STRICT_BEFORE: x before j (j outside Y) needs some y in Y with x < y < j; STRICT_AFTER
    mirrors it. One auxiliary cell per (pair, y) holds `pair[0] < y and y < pair[1]`."""
    inside = set(rule.rh)
    for x in rule.lh:
        for j in range(len(cell)):
            if j == x or j in inside:
                continue
            a, b = (x, j) if rule.type == "STRICT_BEFORE" else (j, x)
            between = [y for y in rule.rh if y not in (x, j)]
            if not between:
                bans.add(cell[a, b])
                continue
            helpers = [n_cells + len(aux) + k for k in range(len(between))]
            aux.extend((cell[a, y], cell[y, b]) for y in between)
            clauses.append([(cell[a, b], USED)] + [(h, NOT) for h in helpers])


def _order_nogoods(net: Network, cell: np.ndarray, n: int) -> None:
    """Antisymmetry and transitivity of the order, in two batches of equal width."""
    i, j = np.nonzero(np.triu(np.ones((n, n), dtype=bool), 1))
    if len(i):
        net.nogoods(np.stack([cell[i, j], cell[j, i]], 1), np.ones((len(i), 2), np.int64))
    a, b, c = (x.ravel() for x in np.meshgrid(*(np.arange(n),) * 3, indexing="ij"))
    keep = (a != b) & (b != c) & (a != c)
    a, b, c = a[keep], b[keep], c[keep]
    if len(a):
        rows = np.stack([cell[a, b], cell[b, c], cell[a, c]], 1)
        net.nogoods(rows, np.tile([USED, USED, NOT], (len(a), 1)))


def _same_object(universe: Universe, cell: np.ndarray, bans: set[int], clauses) -> None:
    """Reachability between one object's goal states, and no parallel predecessors."""
    n = len(universe.nodes)
    for p in range(n):
        for q in range(p + 1, n):
            first, second = universe.nodes[p], universe.nodes[q]
            if first.thing != second.thing:
                continue
            spec = universe.things[first.thing].spec
            forward = second.state in spec.reachable(first.state)
            backward = first.state in spec.reachable(second.state)
            if not forward:
                bans.add(cell[p, q])
            if not backward:
                bans.add(cell[q, p])
            if not (forward and backward):
                clauses.append([(cell[p, q], NOT), (cell[q, p], NOT)])
            for m in range(n):
                if m not in (p, q):
                    clauses.append(
                        [
                            (cell[p, m], USED),
                            (cell[q, m], USED),
                            (cell[p, q], NOT),
                            (cell[q, p], NOT),
                        ]
                    )
