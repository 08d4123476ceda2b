"""Exhaustive mode: every valid order of a small universe, counted and listed.

The orders are the complete assignments of the order network, walked by
`backtrack.solutions`. With `symmetry: templates`, orders that differ only by swapping the
copies of a template are counted once: each is reduced to its smallest image under every
permutation of the copies (a canonical form), and distinct forms are counted.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ...search import backtrack
from .network import OrderNetwork
from .universe import Universe


@dataclass
class Enumeration:
    count: int
    orders: list[np.ndarray] = field(default_factory=list)  # the first `limit` found


def relabellings(universe: Universe) -> list[np.ndarray]:
    """Every node permutation made by permuting the copies of each symmetric template."""
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
    return out


def canonical(order: np.ndarray, perms: list[np.ndarray]) -> bytes:
    """The smallest image of the order matrix under the relabellings (as bytes)."""
    images = []
    for perm in perms:
        image = np.zeros_like(order)
        image[np.ix_(perm, perm)] = order
        images.append(np.packbits(image).tobytes())
    return min(images)


def enumerate_orders(
    network: OrderNetwork,
    universe: Universe,
    limit: int,
    by_symmetry: bool,
    on_chunk: Callable[[backtrack.Search], None] | None = None,
) -> Enumeration:
    """Count every valid order (up to template relabelling if asked); keep the first `limit`."""
    perms = relabellings(universe) if by_symmetry else []
    seen: set[bytes] = set()
    found = Enumeration(0)
    for values in backtrack.solutions(network.net.compile(), on_chunk=on_chunk):
        order = network.relation(values)
        if perms:
            key = canonical(order, perms)
            if key in seen:
                continue
            seen.add(key)
        found.count += 1
        if len(found.orders) < limit:
            found.orders.append(order)
    return found
