"""Exhaustive mode: every valid order of a small universe, counted and listed.

The orders are the complete assignments of the order network, walked through the run
driver by `backtrack.SolutionsJob`. With `symmetry: templates`, orders that differ only by
swapping the copies of a template are counted once: each is reduced to its smallest image
under every permutation of the copies (a canonical form), and distinct forms are counted.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ...core.context import RunContext
from ...search import backtrack, driver, resumed
from ...search.driver import Appended, Report
from .network import OrderNetwork
from .universe import Universe


@dataclass
class Enumeration:
    count: int
    orders: list[np.ndarray] = field(default_factory=list)  # the first `limit` found


MAX_RELABELLINGS = math.factorial(8)
"""The most relabellings `symmetry: templates` compares each order under (8 copies)."""


def relabelling_count(universe: Universe) -> int:
    """How many relabellings `relabellings` makes (without making them)."""
    return math.prod(math.factorial(len(copies)) for copies in universe.template_orbits())


def relabellings(universe: Universe) -> np.ndarray:
    """Every node permutation made by permuting the copies of each symmetric template,
    one a row."""
    per_template = []
    for copies in universe.template_orbits():
        options = []
        for perm in itertools.permutations(range(len(copies))):
            mapping = {}
            for source, target in zip(copies, (copies[p] for p in perm), strict=True):
                mapping.update(zip(source, target, strict=True))
            options.append(mapping)
        per_template.append(options)
    n = len(universe.nodes)
    out = []
    for choice in itertools.product(*per_template):
        perm = np.arange(n)
        for mapping in choice:
            for a, b in mapping.items():
                perm[a] = b
        out.append(perm)
    return np.array(out, dtype=np.intp).reshape(len(out), n)


def canonical(order: np.ndarray, inverses: np.ndarray) -> bytes:
    """The smallest image of the order matrix under the relabellings (as bytes), given the
    inverse of each (`np.argsort(relabellings(...), axis=1)`): all images at once."""
    images = order[inverses[:, :, None], inverses[:, None, :]]
    packed = np.packbits(images.reshape(len(inverses), -1), axis=1)
    return packed[np.lexsort(packed.T[::-1])[0]].tobytes()


@dataclass
class _Taken:
    """The walk's tally: every complete assignment becomes an order, counted (once per
    canonical form when the relabellings' `inverses` are given) and kept while fewer than
    `listed` are; stops the walk at `stop_after` > 0 orders. A checkpoint holds it."""

    network: OrderNetwork
    inverses: np.ndarray | None
    listed: int
    stop_after: int
    found: Enumeration = field(default_factory=lambda: Enumeration(0))
    seen: dict[bytes, None] = field(default_factory=dict)  # canonical forms, in order met

    def __call__(self, values: np.ndarray) -> bool:
        order = self.network.relation(values)
        if self.inverses is not None:
            key = canonical(order, self.inverses)
            if key in self.seen:
                return True
            self.seen[key] = None
        self.found.count += 1
        if len(self.found.orders) < self.listed:
            self.found.orders.append(order)
        return self.stop_after <= 0 or self.found.count < self.stop_after

    def snapshot(self) -> dict:
        return {
            "count": self.found.count,
            "orders": Appended(self.found.orders, lambda order: np.packbits(order).tobytes().hex()),
            "seen": Appended(list(self.seen), bytes.hex),
        }

    def restore(self, state: dict) -> None:
        n = self.network.n_nodes
        self.found = Enumeration(resumed.count(state["count"]))
        for text in state["orders"]:
            packed = np.frombuffer(bytes.fromhex(resumed.text(text)), np.uint8)
            bits = np.unpackbits(packed, count=n * n)
            self.found.orders.append(bits.reshape(n, n).astype(bool))
        self.seen = dict.fromkeys(bytes.fromhex(resumed.text(text)) for text in state["seen"])


def enumerate_orders(
    network: OrderNetwork,
    universe: Universe,
    listed: int,
    by_symmetry: bool,
    ctx: RunContext,
    stop_after: int = 0,
    key: str | None = None,
) -> tuple[Enumeration, Report | None]:
    """Count every valid order (up to template relabelling if asked), through the driver
    (--time-limit, Ctrl-C: the count so far; with a checkpoint `key`, --resume goes on);
    keep the first `listed`; stop after `stop_after` > 0 orders (--limit). Complete when
    the report is None or not stopped and the count is under `stop_after`."""
    inverses = np.argsort(relabellings(universe), axis=1) if by_symmetry else None
    take = _Taken(network, inverses, listed, stop_after)
    run = backtrack.solutions_search(network.net.compile())
    if run is None:
        return take.found, None
    job = backtrack.SolutionsJob(run, "enumerating orders", take=take)
    report = driver.run(job, ctx, key)
    return take.found, report
