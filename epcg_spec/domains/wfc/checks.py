"""`acyclic` and `distance`, checked on the partial map during the search.

Neither is a local rule, so neither is propagated; both are a check (see backtrack.py) the
search runs after every decision and at every solution. Two cells are *joined* when both hold
path tiles and (with `exits`) open towards each other. A join is *certain* when every value
left to both cells makes it, and *possible* when some value left to each does. From those:

- acyclic: the certain joins already close a cycle (union-find over the grid's links);
- distance: the shortest path from start to end over possible joins is missing or longer than
  max, or the shortest path over certain joins is shorter than min.

Either way no completion of the partial map can pass, so the search undoes to the last guess
and bans it there (with backtracking off, the attempt restarts). On a complete map both tests
are exact: a result always meets both rules, and `count` counts exactly the maps that do.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ...search.propagate import State, inside, meets
from .model import Connection, WfcRun

ACYCLIC, DISTANCE = 0, 1

# links (u, v) with v the neighbour of u in direction d, as search variables; per rule its
# kind, ends and bounds, and `opens[r, d]`: the values (bit words) that join towards d
PathRules = namedtuple(
    "PathRules",
    "link_u link_v link_d opposite adj_start adj_dst adj_dir kind start end lo hi opens",
)


def _opens(run: WfcRun, through: Connection, words: int) -> np.ndarray:
    """(directions, words): per direction, the path values open towards it, as bit words."""
    directions = len(run.topology.directions)
    out = np.zeros((directions, words), dtype=np.uint64)
    for d in range(directions):
        on = np.zeros(run.values, dtype=bool)
        on[through.values] = True
        if through.exits is not None:
            on &= through.exits[d]
        for a in np.flatnonzero(on).tolist():
            out[d, a // 64] |= np.uint64(1) << np.uint64(a % 64)
    return out


def path_rules(run: WfcRun) -> PathRules | None:
    """The tables of the run's acyclic and distance rules (None if it has none)."""
    if not (run.acyclic or run.distances):
        return None
    topology = run.topology
    variables = topology.variables()
    words = (run.values + 63) // 64
    links = {d: topology.links(d) for d in topology.forward}
    link_u = np.concatenate([variables[u] for u, _ in links.values()])
    link_v = np.concatenate([variables[v] for _, v in links.values()])
    link_d = np.concatenate([np.full(len(u), d) for d, (u, _) in links.items()])
    opposite = np.array([topology.opposite(d) for d in range(len(topology.directions))])
    # both ends of every link, grouped by the variable they leave
    src = np.concatenate([link_u, link_v])
    order = np.argsort(src, kind="stable")
    adj_dst = np.concatenate([link_v, link_u])[order]
    adj_dir = np.concatenate([link_d, opposite[link_d]])[order]
    adj_start = np.searchsorted(src[order], np.arange(int((variables >= 0).sum()) + 1))
    rules = [(ACYCLIC, 0, 0, 0, 0, c) for c in run.acyclic]
    rules += [
        (DISTANCE, variables[r.start], variables[r.end], r.lo, r.hi, r.through)
        for r in run.distances
    ]
    return PathRules(
        link_u.astype(np.int64),
        link_v.astype(np.int64),
        link_d.astype(np.int64),
        opposite.astype(np.int64),
        adj_start.astype(np.int64),
        adj_dst.astype(np.int64),
        adj_dir.astype(np.int64),
        np.array([r[0] for r in rules], dtype=np.int64),
        np.array([r[1] for r in rules], dtype=np.int64),
        np.array([r[2] for r in rules], dtype=np.int64),
        np.array([r[3] for r in rules], dtype=np.int64),
        np.array([r[4] for r in rules], dtype=np.int64),
        np.stack([_opens(run, r[5], words) for r in rules]),
    )


def check_of(run: WfcRun) -> Callable[[State], bool] | None:
    """The search's check for the run's acyclic and distance rules (None if it has none)."""
    rules = path_rules(run)
    if rules is None:
        return None
    return lambda state: paths_ok(state.dom, rules)


@njit(cache=True)
def _joined(dom, opens, u, d, v, dd, certain):
    u, d, v, dd = np.uint64(u), np.uint64(d), np.uint64(v), np.uint64(dd)  # as propagate's
    if certain:
        return inside(dom, u, opens, d) and inside(dom, v, opens, dd)
    return meets(dom, u, opens, d) and meets(dom, v, opens, dd)


@njit(cache=True)
def _root(parent, c):
    while parent[c] != c:
        parent[c] = parent[parent[c]]
        c = parent[c]
    return c


@njit(cache=True)
def _cycle_free(dom, t, opens):
    """No cycle among the certain joins."""
    parent = np.arange(dom.shape[0])
    for k in range(len(t.link_u)):
        u, v, d = t.link_u[k], t.link_v[k], t.link_d[k]
        if not _joined(dom, opens, u, d, v, t.opposite[d], True):
            continue
        ru, rv = _root(parent, u), _root(parent, v)
        if ru == rv:
            return False
        parent[ru] = rv
    return True


@njit(cache=True)
def _steps(dom, t, opens, start, end, certain):
    """Joins on the shortest path from start to end (-1: none), over certain or possible
    joins."""
    n = dom.shape[0]
    dist = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    dist[start] = 0
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        if u == end:
            return dist[u]
        for e in range(t.adj_start[u], t.adj_start[u + 1]):
            v, d = t.adj_dst[e], t.adj_dir[e]
            if dist[v] < 0 and _joined(dom, opens, u, d, v, t.opposite[d], certain):
                dist[v] = dist[u] + 1
                queue[tail] = v
                tail += 1
    return -1


@njit(cache=True)
def paths_ok(dom, t):
    """False if no completion of the domains `dom` meets every rule of `t`."""
    for r in range(len(t.kind)):
        opens = t.opens[r]
        if t.kind[r] == ACYCLIC:
            if not _cycle_free(dom, t, opens):
                return False
            continue
        most = _steps(dom, t, opens, t.start[r], t.end[r], False)
        if most < 0 or most > t.hi[r]:
            return False
        least = _steps(dom, t, opens, t.start[r], t.end[r], True)
        if 0 <= least < t.lo[r]:
            return False
    return True
