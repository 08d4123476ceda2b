"""Plain-Python references for propagation networks: brute-force counting of assignments.

A network here is given as plain data (domains, binary relations on edges, cardinality
groups, an optional connectivity requirement) and every assignment is enumerated, so the
answers share nothing with the back ends' propagation.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass
class PlainNetwork:
    n_vars: int
    n_values: int
    domains: list[set[int]] | None = None
    edges: list[tuple[int, int, set[tuple[int, int]]]] = field(default_factory=list)
    groups: list[tuple[list[int], set[int], int, int]] = field(default_factory=list)
    path: set[int] | None = None
    adjacency: list[tuple[int, int]] = field(default_factory=list)

    def solutions(self) -> Iterator[tuple[int, ...]]:
        domains = self.domains or [set(range(self.n_values))] * self.n_vars
        for values in itertools.product(*(sorted(d) for d in domains)):
            if self.accepts(values):
                yield values

    def accepts(self, values: tuple[int, ...]) -> bool:
        if any((values[u], values[v]) not in allowed for u, v, allowed in self.edges):
            return False
        for members, chosen, lo, hi in self.groups:
            if not lo <= sum(values[m] in chosen for m in members) <= hi:
                return False
        return self.path is None or connected(values, self.path, self.adjacency)


def connected(values, path: set[int], adjacency: list[tuple[int, int]]) -> bool:
    """The cells holding a path value form one component of the adjacency graph."""
    cells = [i for i, v in enumerate(values) if v in path]
    if len(cells) <= 1:
        return True
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        u = todo.pop()
        for a, b in adjacency:
            for x, y in ((a, b), (b, a)):
                if x == u and y not in seen and values[y] in path:
                    seen.add(y)
                    todo.append(y)
    return seen >= set(cells)
