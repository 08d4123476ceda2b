"""Propagation back end: finite-domain variables, propagators as data, lowest-entropy collapse.

The back end knows nothing of tiles, pixels or digits: a domain describes its problem as a
*network* and gets value indices back.

Building a network (Python, once per problem)::

    net = Network(n_vars, n_values, weights)        # weights: one float > 0 per value
    r = net.relation(allowed)                       # allowed[a, b]: a at u allows b at v
    net.edges(u, v, r)                              # arrays of edges u -> v; the reverse edges
                                                    # v -> u get net.transpose(r) automatically
    net.restrict(vars, allowed)                     # initial domains (bool mask per value)
    net.group(members, values, lo, hi)              # lo <= #{m : x[m] in values} <= hi
    net.connected(path_values, passes=None)         # cells holding path values form one network
    net.nogoods(vars, values)                       # forbidden combinations of (variable, value)
    net.exclusive(members, uses)                    # no two members' values share a resource
    model = net.compile()                           # a Model: flat numpy tables, no Python objects

`group` is the one cardinality propagator: all-different is `hi=1` per value, Sudoku's
"each digit once per unit" is `lo=hi=1`, a tile count is any `lo..hi`. `passes[r]` (values
at u that open the edge u -> v of relation r) makes connectivity follow exits, e.g. pipe ends;
without it, adjacent path cells are joined. Relations are AC-4 support tables: each (variable,
value, edge) keeps a count of supporting values at the edge's other end; a model of support
tables alone keeps no counts but the supports as bit sets (`SUPPORT_WORDS`), and, where they
fit (`UNION_BYTES`), the union of the supports of every byte of a domain (rows of
`supports` after its own). A relation may be
given as a dense table or, for large value sets with few allowed pairs (a room's position
next to its parent's), as `net.relation(pairs=(a, b))`: only the allowed pairs are stored.

Two more propagators, both data: `nogoods` forbids combinations of literals, a literal being
"variable v takes a value in set S" (`values[k, i]` a value, or `sets[k, i]` a bool mask over
values): when every literal of a nogood but one holds (the variable's domain lies inside its
set), the last set is banned from its variable (unit propagation). With two-valued variables
these are clauses: a partial order's transitivity is `{x_ij=1, x_jk=1, x_ik=0}`. A nogood is
looked at only when a value outside one of its sets is banned from that literal's variable.
`exclusive` gives each value a list of resources (a room's cells at that position); once a
member of the group is decided, every value sharing a resource with its value is banned from
the other members (forward checking of non-overlap, without a table per pair of members).
Both keep no counters of their own, so undo needs nothing but a per-variable flag saying
that a decided variable's exclusion was applied (`fixed`, cleared when the variable regains a
value).

Running a model is `backtrack.Search` (explicit guess stack, pause/resume/step/snapshot,
counting) or `backtrack.solve` (attempts with restarts as a policy); this module holds the
state and every kernel that changes it:

- `State`: flat arrays: domains as uint64 bit sets `dom[var, word]`, domain sizes, weight sums
  (for the entropy), support counts, group counters, the trail (every ban, in order; the
  propagation queue is the trail's unprocessed tail), the guess frames, an indexed binary heap
  of undecided variables keyed by the choice heuristic, and counters `ctr[...]`.
- `ban` is the one mutation point: it clears the bit and updates size, sums, group counters,
  the trail and the set of variables whose heap key must be refreshed. `_unban` reverses it
  exactly, so undoing to any trail position restores the state bit for bit.
- Heuristics: ENTROPY (Shannon entropy of the weights, plus a seeded 1e-6 tie-break noise),
  MRV (fewest values, seeded tie-break), SCANLINE (lowest index first). The heap is refreshed
  only for variables touched since the last choice, so a choice costs O(log n), not O(n).
- Group rules (`rules`, a bit set): RULE_HI forces values out of a group at its maximum
  (Sudoku's naked singles), RULE_LO forces them in at its minimum (hidden singles); bounds
  are always checked. Group counters are indexed by (variable, value), so a ban touches only
  the groups whose value set holds the value; a ban that changes a group's counters queues
  the group (`gqueue`, flagged in `gflag`), and `propagate` looks at queued groups before the
  next ban's neighbours. A group of at most 64 members also keeps its possible members as a
  bit set (`g_mask`), so forcing visits only those. Once a variable is down to one value,
  only the memberships of that value can gain a fixed member: 3 of a Sudoku cell's 27.

Kernels from a domain may call these by module-level name (see sudoku/kernels.py):
`load_state`, `restrict_to`, `ban`, `propagate`, `undo`, `begin_attempt`, and
`backtrack.engine`.

How the kernels pass the state (the reasons, with figures, are in docs/benchmarks.md, "The
propagate engine"): hot kernels are compiled with numba's runtime off (`_nrt=False`), so
passing the Model and State tuples costs no reference counts; kernels that run per ban take
one `Bans` bundle (the two dozen arrays a ban reads or writes, from both tuples), never the
whole Model and State; `ban`, `undo` and the group forcing are inlined into their callers,
`propagate` into the engine kernel by LLVM, and a ban outside the propagation loop goes
through `_ban_mask`; index tables are unsigned (`INDEX`); a model of support tables alone (a
`SupportModel`) runs a loop of its own, without the group code and without support counts,
and a kernel compiles only the loop of the models it is called with. Small helpers take one
index type each, cast by their callers (one compiled copy each). numba's disk cache of a
function is keyed on its own file only: after editing this module, delete the cached files
of modules that inline its kernels (backtrack.py, sudoku/kernels.py).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import config, literal_unroll, njit, types

from ..compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from .splitmix import mix64, next_unit
from .subroutine import subroutine

if config.DISABLE_JIT:  # plain Python (coverage runs): the intrinsic only exists compiled

    def trailing_zeros(word) -> int:
        return (int(word) & -int(word)).bit_length() - 1

else:
    from numba.cpython.unsafe.numbers import trailing_zeros

ENTROPY, MRV, SCANLINE = 0, 1, 2
HEURISTICS = {"entropy": ENTROPY, "mrv": MRV, "scanline": SCANLINE}

RULE_HI = 1  # a group at its maximum removes its values from the other members
RULE_LO = 2  # a group at its minimum forces its values on the members that can hold them
ALL_RULES = RULE_HI | RULE_LO

# indices of State.ctr
TRAIL_LEN, QHEAD, DEPTH, HSIZE, NTOUCHED, FAILED = 0, 1, 2, 3, 4, 5
STEPS, CONTRADICTIONS, BACKTRACKS, SOLUTIONS, STAMP, GQHEAD, GQLEN = 6, 7, 8, 9, 10, 11, 12
N_COUNTERS = 13

# index tables the kernels read in their hot loops are unsigned: numba then adds no
# negative-index wraparound to each access (and uint32 mixed with int64 stays an integer)
INDEX = np.uint32

# a model of support tables alone with at most this many words of values propagates with bit
# sets of supports (a value loses its last support when no value of it is left next door)
# instead of support counts: no counts to stream, copy or restore
SUPPORT_WORDS = 16

# with support bit sets, each relation's supports of every byte of a domain (the union of the
# rows of the values set in that byte), when all of them take at most this many bytes: a
# neighbour is then revised by one lookup per byte of the domain, without a branch per value
UNION_BYTES = 1 << 20

# `keep` of `_ban_mask`: numpy booleans, so numba types them as bool, not as two literals
# (a literal argument compiles one more copy of the kernel)
KEEP, DROP = np.bool_(True), np.bool_(False)

# A kernel that only other kernels call is a `subroutine` (subroutine.py): compiled for its
# callers alone, with no dispatcher, no Python wrapper (whose unboxing of the Model and State
# tuples is code LLVM would compile on a cold start) and no cache file of its own. The per-ban
# kernels are inlined by LLVM (`inline=True`): numba's `inline="always"` types and lowers a
# body again at every call site, and a plain call of them passes two dozen arrays.

# Small kernels called from many places take their indices as one type (bit-set rows as
# uint64, heap positions as int64), cast by each caller: one compiled copy each, not one per
# mix of integer types.

ENTROPY_NOISE = 1e-6
MRV_NOISE = 0.5

Model = namedtuple(
    "Model",
    (
        "n_vars n_values n_words weights wlogw edge_start edge_dst edge_rel edge_rev rel_start "
        "rel_val supports compat0 group_start group_member group_set group_lo group_hi "
        "var_group_start var_group var_slot vva_start vva_member max_set init_dom conn_on "
        "conn_path conn_pass "
        "ng_start ng_var ng_set ng_watch_start ng_watch ex_start ex_member var_ex_start var_ex "
        "ex_use_start ex_use ex_user_start ex_user"
    ),
)


class SupportModel(Model):
    """A Model of support tables alone (`supports` filled, no support counts, no groups,
    nogoods or exclusions): a class, hence a numba type, of its own, from which kernels
    choose their propagation loop when they are compiled (see `propagate`)."""

    __slots__ = ()


State = namedtuple(
    "State",
    (
        "dom size sumw sumwlw compat g_poss g_fix trail_var trail_val fr_var fr_val fr_trail heap "
        "hpos hkey touched tflag noise rng bfs mark ctr m_in fixed scratch gqueue gflag g_mask"
    ),
)

# The arrays every ban reads or writes, from the State and the Model: the one argument of the
# kernels that run per ban (`_ban`, `_unban`, `_ban_mask`, `_force_group`, `_check_nogood`).
# A field the bans need is added here and in `bans`, and nowhere else.
Bans = namedtuple(
    "Bans",
    (
        "dom size sumw sumwlw trail_var trail_val ctr touched tflag m_in g_poss g_fix g_mask "
        "gqueue gflag weights wlogw vgs vg gset vva_start vva_member max_set slot"
    ),
)


class Network:
    """A propagation problem under construction: variables, values, relations, groups."""

    def __init__(self, n_vars: int, n_values: int, weights=None):
        if n_vars < 1 or n_values < 1:
            raise ValueError("a network needs at least one variable and one value")
        self.n_vars = int(n_vars)
        self.n_values = int(n_values)
        w = np.ones(n_values) if weights is None else np.asarray(weights, dtype=np.float64)
        if w.shape != (n_values,) or not np.all(w > 0):
            raise ValueError("weights must be one positive number per value")
        self.weights = w
        self._relations: list[tuple[np.ndarray, np.ndarray]] = []
        self._transpose: list[int] = []
        self._edges: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._groups: list[tuple[np.ndarray, np.ndarray, int, int]] = []
        self._domains = np.ones((self.n_vars, self.n_values), dtype=bool)
        self._path: np.ndarray | None = None
        self._passes: dict[int, np.ndarray] = {}
        self._nogoods: list[tuple[np.ndarray, np.ndarray]] = []
        self._exclusive: list[tuple[np.ndarray, list[np.ndarray]]] = []

    def relation(self, allowed=None, *, pairs=None) -> int:
        """Register `allowed[a, b]` (a at u allows b at v) and its transpose; return its index.

        Give the table, or only its allowed pairs as two index arrays `pairs=(a, b)`. Every
        call makes two new relations, even for a symmetric table, so that each direction keeps
        its own index (connectivity exits are given per relation).
        """
        nv = self.n_values
        if pairs is None:
            table = np.asarray(allowed, dtype=bool)
            if table.shape != (nv, nv):
                raise ValueError(f"a relation is a {nv} x {nv} table")
            a, b = np.nonzero(table)
        else:
            a, b = (np.asarray(p, dtype=np.int64).ravel() for p in pairs)
            if a.shape != b.shape or (
                len(a) and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= nv)
            ):
                raise ValueError(f"relation pairs must be two equal arrays of values below {nv}")
        forward = len(self._relations)
        self._relations += [_sorted_pairs(a, b), _sorted_pairs(b, a)]
        self._transpose += [forward + 1, forward]
        return forward

    def transpose(self, r: int) -> int:
        """The relation of the reverse edges of relation `r`."""
        return self._transpose[r]

    def edges(self, u, v, r: int) -> None:
        """Add edges u[k] -> v[k] of relation r, and v[k] -> u[k] of its transpose."""
        u = np.asarray(u, dtype=np.int64).ravel()
        v = np.asarray(v, dtype=np.int64).ravel()
        if u.shape != v.shape:
            raise ValueError("edge endpoints must come in pairs")
        self._edges.append((u, v, np.full(u.shape, r, dtype=np.int64)))
        self._edges.append((v, u, np.full(u.shape, self._transpose[r], dtype=np.int64)))

    def restrict(self, variables, allowed) -> None:
        """Narrow the initial domain of each variable in `variables` to `allowed` (bool mask)."""
        self._domains[np.asarray(variables, dtype=np.int64)] &= np.asarray(allowed, dtype=bool)

    def group(self, members, values, lo: int, hi: int) -> None:
        """Require lo <= (number of members whose value is in `values`) <= hi."""
        mask = np.zeros(self.n_values, dtype=bool)
        mask[np.asarray(values, dtype=np.int64)] = True
        members = np.asarray(members, dtype=np.int64).ravel()
        self._groups.append((members, mask, int(lo), int(min(hi, len(members)))))

    def connected(self, path_values, passes: dict[int, np.ndarray] | None = None) -> None:
        """Require the variables holding `path_values` to form one connected network."""
        mask = np.zeros(self.n_values, dtype=bool)
        mask[np.asarray(path_values, dtype=np.int64)] = True
        self._path = mask
        self._passes = {r: np.asarray(p, dtype=bool) for r, p in (passes or {}).items()}

    def nogoods(self, variables, values=None, *, sets=None) -> None:
        """Forbid, for each row k, that x[variables[k, i]] in sets[k, i] for every i at once.

        Give one value per literal (`values[k, i]`) or a bool mask over the values (`sets`).
        """
        variables = np.atleast_2d(np.asarray(variables, dtype=np.int64))
        if sets is None:
            chosen = np.asarray(values, dtype=np.int64).reshape(variables.shape)
            sets = np.zeros((*variables.shape, self.n_values), dtype=bool)
            np.put_along_axis(sets, chosen[..., None], True, axis=2)
        sets = np.asarray(sets, dtype=bool).reshape(*variables.shape, self.n_values)
        if variables.size and (variables.min() < 0 or variables.max() >= self.n_vars):
            raise ValueError("a nogood names a variable out of range")
        self._nogoods.append((variables, sets))

    def exclusive(self, members, uses) -> None:
        """No two of `members` take values that use a common resource (`uses[a]`: value a's)."""
        if len(uses) != self.n_values:
            raise ValueError("exclusive resources are given for every value")
        members = np.asarray(members, dtype=np.int64).ravel()
        self._exclusive.append((members, [np.asarray(u, dtype=np.int64).ravel() for u in uses]))

    def compile(self) -> Model:
        """The flat tables of the network, ready for the kernels."""
        n, nv = self.n_vars, self.n_values
        words = (nv + 63) // 64
        relations = self._relations or [_sorted_pairs(np.zeros(0, np.int64), np.zeros(0, np.int64))]
        rel_start = np.zeros((len(relations), nv + 1), dtype=np.int32)
        offset = 0
        for r, (a, _) in enumerate(relations):
            rel_start[r] = offset + np.concatenate([[0], np.cumsum(np.bincount(a, minlength=nv))])
            offset += len(a)
        rel_val = np.concatenate([b for _, b in relations]).astype(INDEX)
        edge_start, edge_dst, edge_rel, edge_rev = _edge_tables(n, self._edges)
        lengths = np.diff(rel_start, axis=1)
        count_type = _count_type(int(lengths.max()) if lengths.size else 0)
        plain = not (self._groups or self._nogoods or self._exclusive) and words <= SUPPORT_WORDS
        supports = _support_bits(relations, nv) if plain else np.zeros((0, words), np.uint64)
        supports = np.concatenate([supports, _support_unions(supports, len(relations), nv)])
        counted = len(edge_rel) and not plain  # support counts: only the general loop keeps them
        compat0 = lengths.astype(count_type)[edge_rel] if counted else _empty2(nv, count_type)
        groups = _group_tables(n, nv, words, self._groups)
        passes = np.zeros((len(relations), words), dtype=np.uint64)
        path = np.zeros((1, words), dtype=np.uint64)
        if self._path is not None:
            path = _bits(self._path)[None, :]
            for r in range(len(relations)):
                passes[r] = _bits(self._passes.get(r, self._path) & self._path)
        return (SupportModel if plain else Model)(
            n_vars=n,
            n_values=nv,
            n_words=words,
            weights=self.weights.copy(),
            wlogw=self.weights * np.log(self.weights),
            edge_start=edge_start,
            edge_dst=edge_dst,
            edge_rel=edge_rel,
            edge_rev=edge_rev,
            rel_start=rel_start,
            rel_val=rel_val,
            supports=supports,
            compat0=compat0,
            **groups,
            init_dom=_bits(self._domains & ~_unsupported(n, lengths == 0, edge_start, edge_rel)),
            conn_on=int(self._path is not None),
            conn_path=path,
            conn_pass=passes,
            **_nogood_tables(n, nv, self._nogoods),
            **_exclusive_tables(n, nv, self._exclusive),
        )


def _unsupported(n: int, lacking: np.ndarray, edge_start, edge_rel) -> np.ndarray:
    """Per variable, the values that some edge's relation allows nothing next to (`lacking[r]`:
    relation r's), as an n x values bool table: they are out of the initial domains."""
    out = np.zeros((n, lacking.shape[1]), dtype=bool)
    source = np.repeat(np.arange(n), np.diff(edge_start))
    some = lacking.any(axis=1)[edge_rel]
    np.logical_or.at(out, source[some], lacking[edge_rel[some]])
    return out


def _sorted_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Allowed pairs (a, b) in the order of a, then b, without repeats."""
    keys = np.sort(np.asarray(a, dtype=np.int64) << 32 | np.asarray(b, dtype=np.int64))
    keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if len(keys) else keys
    return keys >> 32, keys & 0xFFFFFFFF


def _starts(keys: np.ndarray, count: int) -> np.ndarray:
    """Where each key 0..count-1 begins in the sorted `keys`, and the end: CSR row starts."""
    if len(keys) == 0:
        return np.zeros(count + 1, dtype=np.int32)
    starts = np.zeros(count + 1, dtype=np.int32)
    np.cumsum(np.bincount(keys, minlength=count), out=starts[1:])
    return starts


def _nogood_tables(n: int, nv: int, batches) -> dict[str, np.ndarray]:
    """Literals of every nogood (CSR), and which nogoods to look at when (v, a) is banned."""
    words = (nv + 63) // 64
    variables = [b[0] for b in batches if b[0].size]
    sets = [b[1] for b in batches if b[0].size]
    counts = np.concatenate([np.full(len(v), v.shape[1]) for v in variables]) if variables else []
    ng_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    ng_var = (
        np.concatenate([v.ravel() for v in variables]).astype(np.int32)
        if variables
        else np.zeros(0, np.int32)
    )
    masks = np.concatenate([s.reshape(-1, nv) for s in sets]) if sets else np.zeros((0, nv), bool)
    owner = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    # literal (v, S) may become true when a value outside S leaves v: watch those bans
    lit, value = np.nonzero(~masks)
    keys = np.sort((ng_var[lit].astype(np.int64) * nv + value) << 32 | owner[lit])
    fresh = np.ones(len(keys), dtype=bool)
    fresh[1:] = keys[1:] != keys[:-1]
    keys = keys[fresh]  # sorted, repeats dropped
    watch_key = keys >> 32
    return {
        "ng_start": ng_start,
        "ng_var": ng_var,
        "ng_set": _bits(masks) if len(masks) else np.zeros((0, words), np.uint64),
        "ng_watch_start": _starts(watch_key, n * nv),
        "ng_watch": (keys & 0xFFFFFFFF).astype(np.int32),
    }


def _exclusive_tables(n: int, nv: int, groups) -> dict[str, np.ndarray]:
    """Members of each exclusive group, each variable's groups, and the resources both ways.

    Resources are numbered per group, then shifted so that every group's are distinct:
    `ex_use` lists (group g, value a)'s at g * n_values + a, `ex_user` a resource's values.
    """
    sizes = [len(g[0]) for g in groups]
    members = np.concatenate([g[0] for g in groups]) if groups else np.zeros(0, np.int64)
    owner = np.repeat(np.arange(len(groups)), sizes)
    order = np.argsort(members, kind="stable")
    uses: list[np.ndarray] = []
    holders: list[np.ndarray] = []
    base = 0
    for _, per_value in groups:
        shifted = [u + base for u in per_value]
        uses += shifted
        holders.append(np.repeat(np.arange(nv), [len(u) for u in per_value]))
        base += max((int(u.max()) + 1 for u in per_value if len(u)), default=0)
    flat = np.concatenate(uses) if uses else np.zeros(0, np.int64)
    holder = np.concatenate(holders) if holders else np.zeros(0, np.int64)
    by_resource = np.argsort(flat, kind="stable")
    return {
        "ex_start": np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32),
        "ex_member": members.astype(np.int32),
        "var_ex_start": _starts(members[order], n),
        "var_ex": owner[order].astype(np.int32),
        "ex_use_start": np.concatenate([[0], np.cumsum([len(u) for u in uses])]).astype(np.int32),
        "ex_use": flat.astype(np.int32),
        "ex_user_start": _starts(flat[by_resource], base),
        "ex_user": holder[by_resource].astype(np.int32),
    }


def _count_type(most: int) -> type:
    """The narrowest type for support counts up to `most`: less memory streamed per ban."""
    return np.uint8 if most < 2**8 else np.uint16 if most < 2**16 else np.int32


def _empty2(nv: int, dtype: type = np.uint8) -> np.ndarray:
    return np.zeros((0, nv), dtype=dtype)


def _support_bits(relations, nv: int) -> np.ndarray:
    """Row r * nv + a: the values b with (a, b) in relation r, as bits."""
    table = np.zeros((len(relations), nv, nv), dtype=bool)
    for r, (a, b) in enumerate(relations):
        table[r, a, b] = True
    return _bits(table.reshape(-1, nv))


def _support_unions(supports: np.ndarray, count: int, nv: int) -> np.ndarray:
    """Row (r * bytes + c) * 256 + x: the union of the support rows of relation r of the
    values c * 8 + i for the bits i of x. No rows if there are no supports, too many, or at
    most 64 values: there the support checks of `_lose_supports` measured faster (tiled
    pipes, 12 values: 8%)."""
    words = supports.shape[1]
    chunks = (nv + 7) // 8
    if len(supports) == 0 or words < 2 or count * chunks * 256 * words * 8 > UNION_BYTES:
        return np.zeros((0, words), np.uint64)
    rows = np.zeros((count, chunks * 8, words), np.uint64)
    rows[:, :nv] = supports.reshape(count, nv, words)
    rows = rows.reshape(count, chunks, 8, words)
    table = np.zeros((count, chunks, 256, words), np.uint64)
    for i in range(8):  # the bytes with top bit i: those below, with value c * 8 + i added
        table[:, :, 1 << i : 2 << i] = table[:, :, : 1 << i] | rows[:, :, i, None]
    return table.reshape(-1, words)


def _bits(mask: np.ndarray) -> np.ndarray:
    """Bool masks over values (last axis) as little-endian uint64 words."""
    mask = np.asarray(mask, dtype=bool)
    words = (mask.shape[-1] + 63) // 64
    packed = np.packbits(mask, axis=-1, bitorder="little")
    octets = np.zeros((*mask.shape[:-1], words * 8), dtype=np.uint8)
    octets[..., : packed.shape[-1]] = packed
    return octets.view("<u8").astype(np.uint64)


def _edge_tables(n: int, parts) -> tuple[np.ndarray, ...]:
    if not any(len(p[0]) for p in parts):  # no edges: no batches, or empty ones (one cell)
        empty = np.zeros(0, dtype=INDEX)
        return np.zeros(n + 1, dtype=np.int32), empty, empty, empty
    src = np.concatenate([p[0] for p in parts])
    dst = np.concatenate([p[1] for p in parts])
    rel = np.concatenate([p[2] for p in parts])
    if src.min() < 0 or dst.min() < 0 or max(src.max(), dst.max()) >= n:
        raise ValueError("an edge names a variable out of range")
    # one int64 key per edge, in the order of (src, dst, rel)
    relations = int(rel.max()) + 1
    if n * n * relations >= 2**63:
        raise ValueError(f"{n:,} variables and {relations:,} relations: too many to key edges")
    key = (src.astype(np.int64) * n + dst) * relations + rel
    order = np.argsort(key, kind="stable")  # a merge sort: batches come in long sorted runs
    key = key[order]
    if np.any(key[1:] == key[:-1]):
        raise ValueError("the same edge (u, v, relation) was added twice")
    # batches come in pairs (forward, reverse): edge k of one reverses edge k of the other
    sizes = [len(p[0]) for p in parts]
    starts = np.concatenate([[0], np.cumsum(sizes)])
    batch = np.repeat(np.arange(len(parts)), sizes)
    partner = starts[batch ^ 1] + (np.arange(len(src)) - starts[batch])
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    rev = position[partner][order]
    src, dst, rel = src[order], dst[order], rel[order]
    edge_start = _starts(src, n)
    return edge_start, dst.astype(INDEX), rel.astype(INDEX), rev.astype(INDEX)


def _group_tables(n: int, nv: int, words: int, groups) -> dict[str, np.ndarray]:
    count = len(groups)
    sizes = [len(g[0]) for g in groups]
    group_start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    members = np.concatenate([g[0] for g in groups]).astype(INDEX) if groups else np.zeros(0, INDEX)
    owner = np.repeat(np.arange(count, dtype=np.int32), sizes)
    order = np.argsort(members, kind="stable")
    var_group_start = _starts(members[order], n)
    group_set = np.zeros((count, words), dtype=np.uint64)
    for g, (_, mask, _, _) in enumerate(groups):
        group_set[g] = _bits(mask)
    # memberships (k: position in var_group) by (variable, value): the groups whose set holds it
    sets = np.zeros((count, words * 64), dtype=bool)
    for g, (_, mask, _, _) in enumerate(groups):
        sets[g, : len(mask)] = mask
    var_of = members[order].astype(np.int64)
    group_of = owner[order]
    pairs = [(v * nv + a, k) for k, (v, g) in enumerate(zip(var_of, group_of, strict=True))
             for a in np.flatnonzero(sets[g, :nv])]  # fmt: skip
    pairs.sort()
    flat = np.array([p[0] for p in pairs], dtype=np.int64)
    vva_start = _starts(flat, n * nv)
    max_set = np.zeros(n, dtype=np.int32)
    if count:
        np.maximum.at(max_set, var_of, sets[group_of].sum(axis=1).astype(np.int32))
    return {
        "group_start": group_start,
        "group_member": members,
        "group_set": group_set,
        "group_lo": np.array([g[2] for g in groups], dtype=np.int32),
        "group_hi": np.array([g[3] for g in groups], dtype=np.int32),
        "var_group_start": var_group_start,
        "var_group": owner[order].astype(INDEX),
        "var_slot": ((np.arange(len(members)) - group_start[owner]) % 64)[order].astype(np.int32),
        "vva_start": vva_start,
        "vva_member": np.array([p[1] for p in pairs], dtype=INDEX),
        "max_set": max_set,
    }


def new_state(model: Model) -> State:
    """Fresh, uninitialised state arrays sized for `model` (see `backtrack.reset`)."""
    n, nv, words = model.n_vars, model.n_values, model.n_words
    groups = len(model.group_lo)
    return State(
        dom=np.zeros((n, words), dtype=np.uint64),
        size=np.zeros(n, dtype=np.int32),
        sumw=np.zeros(n),
        sumwlw=np.zeros(n),
        compat=np.zeros_like(model.compat0),
        g_poss=np.zeros(groups, dtype=np.int32),
        g_fix=np.zeros(groups, dtype=np.int32),
        trail_var=np.zeros(n * nv, dtype=INDEX),
        trail_val=np.zeros(n * nv, dtype=INDEX),
        fr_var=np.zeros(n + 1, dtype=np.int32),
        fr_val=np.zeros(n + 1, dtype=np.int32),
        fr_trail=np.zeros(n + 1, dtype=np.int32),
        heap=np.zeros(n, dtype=np.int32),
        hpos=np.full(n, -1, dtype=np.int32),
        hkey=np.zeros(n),
        touched=np.zeros(n, dtype=np.int32),
        tflag=np.zeros(n, dtype=np.uint8),
        noise=np.zeros(n),
        rng=np.zeros(1, dtype=np.uint64),
        bfs=np.zeros(n, dtype=np.int32),
        mark=np.zeros(n, dtype=np.int64),
        ctr=np.zeros(N_COUNTERS, dtype=np.int64),
        m_in=np.zeros(len(model.var_group), dtype=np.int32),
        fixed=np.zeros(n, dtype=np.uint8),
        scratch=np.zeros((2, words), dtype=np.uint64),  # row 1: propagate's own
        gqueue=np.zeros(max(groups, 1), dtype=INDEX),
        gflag=np.zeros(max(groups, 1), dtype=np.uint8),
        g_mask=np.zeros(groups, dtype=np.uint64),
    )


def clone_state(source: State) -> State:
    """A copy of `source` whose arrays are views of one allocation.

    An attempt's state is a few large arrays (the trail: a value per ban). Allocated one by
    one, glibc may hand them back to the system when the attempt ends (it trims the heap
    once the free space at its top passes twice its largest recent mapping), and the next
    attempt faults every page in again: up to 20% of a 48 x 48 WFC attempt, by the luck of
    earlier allocations (docs/benchmarks.md, "Cold compile", branch `pcompile3`). One block
    is freed whole and reused whole.
    """
    spans = [-(-a.nbytes // 64) * 64 for a in source]  # each array 64-byte aligned
    block = np.empty(sum(spans) + 64, dtype=np.uint8)
    start = -block.ctypes.data % 64
    arrays = []
    for a, span in zip(source, spans, strict=True):
        view = block[start : start + a.nbytes].view(a.dtype).reshape(a.shape)
        view[...] = a
        arrays.append(view)
        start += span
    return State(*arrays)


# ---------------------------------------------------------------- bit sets


@subroutine(types.boolean)
def has(dom, v, a):
    return (dom[v, a >> 6] >> np.uint64(a & 63)) & np.uint64(1) != np.uint64(0)


@subroutine(types.boolean)
def meets(a, i, b, j):
    """Rows a[i] and b[j] of two bit-set tables share a value (no array views: no refcounts)."""
    for w in range(a.shape[1]):  # noqa: SIM110 (numba compiles no generators)
        if a[i, w] & b[j, w] != np.uint64(0):
            return True
    return False


@subroutine(types.boolean)
def inside(a, i, b, j):
    """Row a[i] holds no value outside row b[j]."""
    for w in range(a.shape[1]):  # noqa: SIM110 (numba compiles no generators)
        if a[i, w] & ~b[j, w] != np.uint64(0):
            return False
    return True


@subroutine(types.int64)
def first_value(dom, v):
    """The lowest value in the domain of v (-1 if empty)."""
    for w in range(dom.shape[1]):
        word = dom[v, w]
        if word != np.uint64(0):
            return w * 64 + trailing_zeros(word)
    return -1


# ---------------------------------------------------------------- the mutation point


@njit(cache=True, _nrt=False, inline="always")
def bans(m, s):
    """The Bans bundle of model m and state s (built once per entry kernel)."""
    return Bans(
        s.dom, s.size, s.sumw, s.sumwlw, s.trail_var, s.trail_val, s.ctr, s.touched, s.tflag,
        s.m_in, s.g_poss, s.g_fix, s.g_mask, s.gqueue, s.gflag, m.weights, m.wlogw,
        m.var_group_start, m.var_group, m.group_set, m.vva_start, m.vva_member, m.max_set,
        m.var_slot,
    )  # fmt: skip


@njit(cache=True, _nrt=False, inline="always")
def _holding(b, v):
    """The memberships of v whose set may hold its whole domain: (first, last, via vva).

    All of them (positions in var_group), or, once v is down to one value, only those of
    that value (positions in vva_member): Sudoku's 3 groups of the digit instead of 27.
    """
    if b.size[v] == 1:
        f = v * b.weights.shape[0] + first_value(b.dom, np.uint64(v))
        return b.vva_start[f], b.vva_start[f + 1], True
    return b.vgs[v], b.vgs[v + 1], False


@subroutine(types.none)
def _touch(b, v):
    """Add v to the variables whose heap key `settle` refreshes (a plain call, which LLVM
    inlines: numba's `inline="always"` re-types a body at every site it is inlined into)."""
    if b.tflag[v] == 0:
        b.tflag[v] = 1
        b.touched[b.ctr[NTOUCHED]] = v
        b.ctr[NTOUCHED] += 1


@njit(cache=True, _nrt=False, inline="always")
def _drop(b, v, a):
    """The part of a ban every variable needs: bit, size, weight sums, trail, touched set."""
    b.dom[v, a >> 6] &= ~(np.uint64(1) << np.uint64(a & 63))
    b.size[v] -= 1
    b.sumw[v] -= b.weights[a]
    b.sumwlw[v] -= b.wlogw[a]
    k = b.ctr[TRAIL_LEN]
    b.trail_var[k] = v
    b.trail_val[k] = a
    b.ctr[TRAIL_LEN] = k + 1
    _touch(b, v)
    if b.size[v] == 0:
        b.ctr[FAILED] = 1


@njit(cache=True, _nrt=False, inline="always")
def _drop_word(b, j, w, gone):
    """`_drop` of every value of word w of j set in `gone` (all in its domain), the same
    updates in the same order, with the bits, size, touched set and failure flag written once
    (the support loops; a single value through this costs Sudoku's bans 5%)."""
    if gone == np.uint64(0):
        return
    b.dom[j, w] &= ~gone
    k = b.ctr[TRAIL_LEN]
    start = k
    sumw = b.sumw[j]
    sumwlw = b.sumwlw[j]
    while gone != np.uint64(0):
        x = w * 64 + trailing_zeros(gone)
        gone &= gone - np.uint64(1)
        sumw -= b.weights[x]
        sumwlw -= b.wlogw[x]
        b.trail_var[k] = j
        b.trail_val[k] = x
        k += 1
    b.sumw[j] = sumw
    b.sumwlw[j] = sumwlw
    b.ctr[TRAIL_LEN] = k
    b.size[j] -= k - start
    _touch(b, j)
    if b.size[j] == 0:
        b.ctr[FAILED] = 1


@subroutine(types.none, inline=True)
def _count_fixed(b, v, a, delta):
    """Add delta to g_fix of the groups v holds entirely once a is banned (+1) or back (-1).

    Only possible once v's size is down to the largest set it belongs to (max_set); a gain
    queues the group.
    """
    if b.size[v] > b.max_set[v]:
        return
    word, bit = a >> 6, np.uint64(1) << np.uint64(a & 63)
    first, last, decided = _holding(b, v)
    for q in range(np.uint64(first), np.uint64(last)):
        k = np.uint64(b.vva_member[q]) if decided else q
        g = np.uint64(b.vg[k])
        if b.m_in[k] == b.size[v] and b.gset[g, word] & bit == np.uint64(0):
            b.g_fix[g] += delta
            if delta > 0:
                _push_group(b, g)


@subroutine(types.none, inline=True)
def _ban(b, v, a):
    """Remove value a (present) from v: the only way a domain shrinks; see `ban`.

    m_in[k] counts the values of membership k's variable inside its group's set: the group
    loses a possible member when it reaches 0, and gains a fixed one when it reaches the
    domain size, which can only happen once the size is down to the largest set (max_set).
    """
    _drop(b, v, a)
    if b.vgs[v] < b.vgs[v + 1]:  # the variable is in a group
        f = v * b.weights.shape[0] + a
        for q in range(np.uint64(b.vva_start[f]), np.uint64(b.vva_start[f + 1])):
            k = np.uint64(b.vva_member[q])
            b.m_in[k] -= 1
            if b.m_in[k] == 0:
                g = np.uint64(b.vg[k])
                b.g_poss[g] -= 1
                b.g_mask[g] &= ~(np.uint64(1) << np.uint64(b.slot[k]))
                _push_group(b, g)
        _count_fixed(b, v, a, np.int64(1))


@njit(cache=True, _nrt=False, inline="always")
def _unban(b, v, a):
    """Exactly reverse `_ban` of (v, a) (the trail is shortened by `undo`)."""
    if b.vgs[v] < b.vgs[v + 1]:  # the variable is in a group
        f = v * b.weights.shape[0] + a
        _count_fixed(b, v, a, np.int64(-1))
        for q in range(np.uint64(b.vva_start[f]), np.uint64(b.vva_start[f + 1])):
            k = np.uint64(b.vva_member[q])
            b.m_in[k] += 1
            if b.m_in[k] == 1:
                g = np.uint64(b.vg[k])
                b.g_poss[g] += 1
                b.g_mask[g] |= np.uint64(1) << np.uint64(b.slot[k])
    b.dom[v, a >> 6] |= np.uint64(1) << np.uint64(a & 63)
    b.size[v] += 1
    b.sumw[v] += b.weights[a]
    b.sumwlw[v] += b.wlogw[a]
    _touch(b, v)


@subroutine(types.none)
def _ban_mask(b, v, mask, keep):
    """Ban the values of v inside `mask` (keep=DROP) or outside it (keep=KEEP).

    Every caller passes v as an INDEX (unsigned: no negative-index wraparound in the bans
    it inlines) and `keep` as KEEP or DROP: one compiled copy.
    """
    dom = b.dom
    for w in range(dom.shape[1]):
        word = dom[v, w] & (~mask[w] if keep else mask[w])
        while word != np.uint64(0):
            c = trailing_zeros(word)
            word &= ~(np.uint64(1) << np.uint64(c))
            _ban(b, v, INDEX(w * 64 + c))  # indices typed as the propagation loop passes them


@njit(cache=True, _nrt=False, inline="always")
def ban_mask(m, s, v, mask, keep):
    """Ban the values of v inside `mask` (keep=DROP) or outside it (keep=KEEP)."""
    _ban_mask(bans(m, s), INDEX(v), mask, keep)


@njit(cache=True, _nrt=False, inline="always")
def _one_value(scratch, a):
    """Row 0 of `scratch` set to the bit set {a}, and returned."""
    scratch[0, :] = 0
    scratch[0, a >> 6] = np.uint64(1) << np.uint64(a & 63)
    return scratch[0]


@njit(cache=True, _nrt=False, inline="always")
def ban(m, s, v, a):
    """Remove value a from v; it updates size, weight sums, group counters, trail and heap.

    Through `_ban_mask`, which every kernel compiles anyway: no inlined copy of `_ban`.
    """
    ban_mask(m, s, v, _one_value(s.scratch, a), DROP)


@njit(cache=True, _nrt=False, inline="always")
def restrict_to(m, s, v, a):
    """Ban every value of v but a: one `ban_mask` call, not one `ban` per value."""
    ban_mask(m, s, v, _one_value(s.scratch, a), KEEP)


# ---------------------------------------------------------------- propagation


@subroutine(types.none, inline=True)
def _push_group(b, g):
    """Queue group g for a look at its bounds (once: a queued group is flagged)."""
    ctr, gqueue, gflag = b.ctr, b.gqueue, b.gflag
    if gflag[g] == 0:
        gflag[g] = 1
        i = ctr[GQHEAD] + ctr[GQLEN]
        gqueue[i - gqueue.shape[0] if i >= gqueue.shape[0] else i] = g
        ctr[GQLEN] += 1


@subroutine(types.uint32)
def _pop_group(ctr, gqueue, gflag):
    g = gqueue[ctr[GQHEAD]]
    ctr[GQHEAD] = 0 if ctr[GQHEAD] + 1 == gqueue.shape[0] else ctr[GQHEAD] + 1
    ctr[GQLEN] -= 1
    gflag[g] = 0
    return g


@subroutine(types.none)
def _clear_groups(ctr, gqueue, gflag):
    """Empty the group queue (after a contradiction, its looks are moot)."""
    while ctr[GQLEN] > 0:
        _pop_group(ctr, gqueue, gflag)
    ctr[GQHEAD] = 0


@njit(cache=True, _nrt=False, inline="always")
def _force_group(b, g, force_in, gstart, gmember):
    """Group g is at a bound: ban its values from (or force them on) the undecided members.

    A group of at most 64 members visits only its possible members, the bits of g_mask (as
    they were on entry). Inlined into `propagate`, with one `_ban` site (a `_ban_mask` call
    per member instead made Sudoku's proofs 1.4x slower).
    """
    dom, gset = b.dom, b.gset
    first, last = gstart[g], gstart[g + 1]
    small = last - first <= 64
    members = b.g_mask[g]
    k = first
    while True:
        if small:
            if members == np.uint64(0):
                return
            k = first + trailing_zeros(members)
            members &= members - np.uint64(1)
        elif k >= last:
            return
        u = gmember[k]
        k += 1
        row, g_row = np.uint64(u), np.uint64(g)
        if not meets(dom, row, gset, g_row) or inside(dom, row, gset, g_row):
            continue  # no value of the group, or only values of the group: nothing to do
        for w in range(dom.shape[1]):
            bits = dom[u, w] & (~gset[g, w] if force_in else gset[g, w])
            while bits != np.uint64(0):
                c = trailing_zeros(bits)
                bits &= bits - np.uint64(1)
                _ban(b, u, INDEX(w * 64 + c))


@subroutine(types.int64)
def _group_action(g, rules, glo, ghi, g_poss, g_fix):
    """-1: group g is violated; 0: nothing to do; 1: force its values out; 2: force them in."""
    fix, poss = g_fix[g], g_poss[g]
    if fix > ghi[g] or poss < glo[g]:
        return -1
    if (rules & RULE_HI) != 0 and fix == ghi[g] and poss > fix:
        return 1
    if (rules & RULE_LO) != 0 and poss == glo[g] and fix < poss:
        return 2
    return 0


@subroutine(types.none)
def _check_nogood(b, g, ng_start, ng_var, ng_set):
    """Nogood g: fail if all its literals hold, ban the last one's set if all others do."""
    open_literal = -1
    for q in range(ng_start[g], ng_start[g + 1]):
        u = ng_var[q]
        row, q_row = np.uint64(u), np.uint64(q)
        if not meets(b.dom, row, ng_set, q_row):
            return  # a literal that can no longer hold: the nogood is met
        if not inside(b.dom, row, ng_set, q_row):
            if open_literal >= 0:
                return  # two literals still open: nothing to conclude
            open_literal = q
    if open_literal < 0:
        b.ctr[FAILED] = 1
        return
    _ban_mask(b, INDEX(ng_var[open_literal]), ng_set[open_literal], DROP)


@subroutine(types.none)
def _exclude(m, s, v):
    """v is decided: ban every value sharing a resource with its value from v's co-members."""
    a = first_value(s.dom, np.uint64(v))
    mask = s.scratch
    for t in range(m.var_ex_start[v], m.var_ex_start[v + 1]):
        g = m.var_ex[t]
        mask[0, :] = 0
        f = g * m.n_values + a
        for q in range(m.ex_use_start[f], m.ex_use_start[f + 1]):
            r = m.ex_use[q]
            for p in range(m.ex_user_start[r], m.ex_user_start[r + 1]):
                b = m.ex_user[p]
                mask[0, b >> 6] |= np.uint64(1) << np.uint64(b & 63)
        for k in range(m.ex_start[g], m.ex_start[g + 1]):
            u = m.ex_member[k]
            if u != v and meets(s.dom, np.uint64(u), mask, np.uint64(0)):
                ban_mask(m, s, u, mask[0], DROP)
                if s.ctr[FAILED] != 0:
                    return


def _by_model(supports, counts):
    """A subroutine's `pick`: `supports` for a `SupportModel`'s numba type, else `counts`."""
    return lambda m, *rest: supports if m.instance_class is SupportModel else counts


def _propagate_counts(m, s, rules):
    """`propagate` for a model with support counts, groups, nogoods or exclusions."""
    b = bans(m, s)
    dom, size, compat, ctr = s.dom, s.size, s.compat, s.ctr
    trail_var, trail_val = s.trail_var, s.trail_val
    edge_start, edge_dst, edge_rel, edge_rev = m.edge_start, m.edge_dst, m.edge_rel, m.edge_rev
    rel_start, rel_val = m.rel_start, m.rel_val
    gstart, gmember, glo, ghi = m.group_start, m.group_member, m.group_lo, m.group_hi
    ng_start, ng_var, ng_set = m.ng_start, m.ng_var, m.ng_set
    ng_watch_start, ng_watch, var_ex_start = m.ng_watch_start, m.ng_watch, m.var_ex_start
    any_nogood = len(ng_start) > 1  # else skip the watch lists: n * values words, cold
    if ctr[FAILED] != 0:
        return False
    while True:
        if ctr[GQLEN] > 0:
            g = _pop_group(ctr, s.gqueue, s.gflag)
            action = _group_action(g, rules, glo, ghi, s.g_poss, s.g_fix)
            if action < 0:
                ctr[FAILED] = 1
            elif action > 0:
                _force_group(b, g, action == 2, gstart, gmember)
            if ctr[FAILED] != 0:
                return False
            continue
        k = ctr[QHEAD]
        if k >= ctr[TRAIL_LEN]:
            return True
        v = trail_var[k]
        a = trail_val[k]
        ctr[QHEAD] = k + 1
        # unsigned indices: numba adds no negative-index wraparound to the hottest loop
        for e in range(np.uint64(edge_start[v]), np.uint64(edge_start[v + 1])):
            j = edge_dst[e]
            r = edge_rel[e]
            rev = np.uint64(edge_rev[e])
            for p in range(np.uint64(rel_start[r, a]), np.uint64(rel_start[r, a + 1])):
                x = rel_val[p]
                c = compat[rev, np.uint64(x)] - 1
                compat[rev, np.uint64(x)] = c
                if c == 0 and has(dom, j, x):
                    _ban(b, j, x)
        if ctr[FAILED] != 0:
            return False
        if any_nogood:
            f = v * m.n_values + a
            for q in range(ng_watch_start[f], ng_watch_start[f + 1]):
                _check_nogood(b, ng_watch[q], ng_start, ng_var, ng_set)
                if ctr[FAILED] != 0:
                    return False
        if var_ex_start[v] < var_ex_start[v + 1] and size[v] == 1 and s.fixed[v] == 0:
            s.fixed[v] = 1
            _exclude(m, s, v)
            if ctr[FAILED] != 0:
                return False


def _propagate_supports(m, s, rules):
    """`propagate` for a model of support tables alone (no support counts, see
    `_lose_supports`; no groups, so `rules` is moot). Each run of bans of one variable on
    the trail is taken at once."""
    b, allowed = bans(m, s), s.scratch[1]
    if len(m.supports) > len(m.rel_start) * m.n_values:  # support unions follow the rows
        return _propagate_unions(b, m)
    ctr, trail_var = b.ctr, b.trail_var
    if ctr[FAILED] != 0:
        return False
    while True:
        first, end = _take_run(ctr, trail_var)
        if first == end:
            return True
        _lose_supports(b, m, allowed, trail_var[first], first, end)
        if ctr[FAILED] != 0:
            return False


@subroutine(types.boolean, inline=True, pick=_by_model(_propagate_supports, _propagate_counts))
def propagate(m: Model, s: State, rules: int) -> bool:
    """Process queued groups and unprocessed bans to a fixpoint; False on a contradiction.

    A group is queued by the ban that changed its counters, and looked at before the next
    ban's neighbours: Sudoku's singles are found before the next cell is touched. A model of
    support tables alone (plain Wave Function Collapse, a `SupportModel`) runs
    `_propagate_supports`, without the group, nogood and exclusion code and without support
    counts: a value next door loses its last support when no value it allows is left.

    In a kernel (`backtrack.engine` calls it, at one place) the loop is chosen from the
    Model's numba type when the kernel is typed (`pick`), so a cold start compiles only the
    loop its models run, and LLVM inlines it: a call passes the Model and State tuples, some
    480 words pushed on the stack per decision. Run from Python, without numba (coverage),
    it chooses by the Model's class.
    """
    if isinstance(m, SupportModel):
        return _propagate_supports(m, s, rules)
    return _propagate_counts(m, s, rules)


@njit(cache=True, _nrt=False, inline="always")
def _take_run(ctr, trail_var):
    """The next run of bans of one variable on the trail, (first, end), with the queue's head
    moved past it; first == end when the queue is empty."""
    first = ctr[QHEAD]
    end = first
    if first < ctr[TRAIL_LEN]:
        end = first + 1
        while end < ctr[TRAIL_LEN] and trail_var[end] == trail_var[first]:
            end += 1
        ctr[QHEAD] = end
    return first, end


@subroutine(types.boolean, inline=True)
def _propagate_unions(b, m):
    """`_propagate_supports` with support unions: each run of bans of v on the trail revises
    v's neighbours by `_revise_bytes` (a subroutine of its own, which LLVM inlines: typed
    beside it by numba, the loop of `_lose_supports` ran 8-18% slower on the pipes' 12
    tiles)."""
    ctr, trail_var = b.ctr, b.trail_var
    if ctr[FAILED] != 0:
        return False
    while True:
        first, end = _take_run(ctr, trail_var)
        if first == end:
            return True
        _revise_bytes(b, m, trail_var[first])
        if ctr[FAILED] != 0:
            return False


@subroutine(types.none, inline=True)
def _lose_supports(b, m, allowed, v, first, end):
    """Trail entries first..end-1 banned values of v: drop what v no longer supports next door.

    Without support unions (else `_propagate_unions`). Per edge, the cheaper of two ways: if v
    has no more values left than it lost, keep the values of j that some value left in v
    allows; else look only at the values of j that a lost value allowed, and drop those that
    no value left in v allows.

    A subroutine that LLVM inlines, not numba's `inline="always"`: numba copied its IR twice
    at the site, about 1.3 s of every WFC compile, for the same or faster machine code
    (docs/benchmarks.md, "Support loops inlined by LLVM").
    """
    dom, supports, trail_val = b.dom, m.supports, b.trail_val
    nv = np.uint64(m.n_values)
    words = dom.shape[1]
    revise = b.size[v] <= end - first
    for e in range(np.uint64(m.edge_start[v]), np.uint64(m.edge_start[v + 1])):
        j = m.edge_dst[e]
        rows = np.uint64(m.edge_rel[e]) * nv
        for w in range(words):
            allowed[w] = 0
        if revise:
            for w in range(words):
                word = dom[v, w]
                while word != np.uint64(0):
                    row = rows + np.uint64(w * 64 + trailing_zeros(word))
                    word &= word - np.uint64(1)
                    for u in range(words):
                        allowed[u] |= supports[row, u]
            for w in range(words):
                gone = dom[j, w] & ~allowed[w]
                while gone != np.uint64(0):
                    x = w * 64 + trailing_zeros(gone)
                    gone &= gone - np.uint64(1)
                    _drop(b, j, x)
            continue
        for t in range(first, end):
            row = rows + np.uint64(trail_val[t])
            for u in range(words):
                allowed[u] |= supports[row, u]
        back = np.uint64(m.edge_rel[m.edge_rev[e]]) * nv
        for w in range(words):
            maybe = dom[j, w] & allowed[w]
            while maybe != np.uint64(0):
                x = w * 64 + trailing_zeros(maybe)
                maybe &= maybe - np.uint64(1)
                if not meets(supports, back + np.uint64(x), dom, np.uint64(v)):
                    _drop(b, j, x)


@njit(cache=True, _nrt=False, inline="always")
def _revise_bytes(b, m, v):
    """Keep only the values next door that some value of v allows: per pair of words of
    the neighbour's values, one lookup in the support unions (the rows of `m.supports` after
    the supports') per byte of v's domain (up to its last byte that holds a value), with no
    branch per value. The unions are no Model field of their own: one more array in the
    Model measured 15-18% slower on PPG's order counts, which never read it."""
    dom, unions = b.dom, m.supports
    words = dom.shape[1]
    chunks = (m.n_values + 7) >> 3
    for e in range(np.uint64(m.edge_start[v]), np.uint64(m.edge_start[v + 1])):
        j = m.edge_dst[e]
        rows = np.uint64(len(m.rel_start) * m.n_values + m.edge_rel[e] * chunks * 256)
        for w in range(0, words, 2):  # two words of the neighbour's values per pass
            next_w = min(w + 1, words - 1)
            allowed = np.uint64(0)
            next_allowed = np.uint64(0)
            for u in range(words):
                row = rows + np.uint64(u * 2048)
                left = dom[v, u]
                while left != np.uint64(0):  # a loop LLVM does not turn into slow gathers
                    byte = row + (left & np.uint64(255))
                    allowed |= unions[byte, w]
                    next_allowed |= unions[byte, next_w]
                    left >>= np.uint64(8)
                    row += np.uint64(256)
            _drop_word(b, j, w, dom[j, w] & ~allowed)
            if next_w > w:
                _drop_word(b, j, next_w, dom[j, next_w] & ~next_allowed)


@njit(cache=True, _nrt=False, inline="always")
def undo(m, s, position):
    """Undo every ban after trail `position`, most recent first."""
    b = bans(m, s)
    compat, ctr = s.compat, s.ctr
    edge_start, edge_rel, edge_rev = m.edge_start, m.edge_rel, m.edge_rev
    rel_start, rel_val = m.rel_start, m.rel_val
    qhead = ctr[QHEAD]
    counted = len(m.supports) == 0  # support counts to restore (see `propagate`)
    for k in range(ctr[TRAIL_LEN] - 1, position - 1, -1):
        v = s.trail_var[k]
        a = s.trail_val[k]
        if counted and k < qhead:  # unsigned indices, as in `propagate`
            for e in range(np.uint64(edge_start[v]), np.uint64(edge_start[v + 1])):
                r = edge_rel[e]
                rev = np.uint64(edge_rev[e])
                for p in range(np.uint64(rel_start[r, a]), np.uint64(rel_start[r, a + 1])):
                    compat[rev, np.uint64(rel_val[p])] += 1
        _unban(b, v, a)
        s.fixed[v] = 0
    ctr[TRAIL_LEN] = position
    ctr[QHEAD] = min(qhead, position)
    ctr[FAILED] = 0
    _clear_groups(ctr, s.gqueue, s.gflag)


@subroutine(types.boolean)
def connectivity_ok(m, s):
    """False if cells that must hold a path value cannot all reach each other."""
    if m.conn_on == 0:
        return True
    dom, bfs, mark, path, passes = s.dom, s.bfs, s.mark, m.conn_path, m.conn_pass
    edge_start, edge_dst, edge_rel, edge_rev = m.edge_start, m.edge_dst, m.edge_rel, m.edge_rev
    s.ctr[STAMP] += 1
    stamp = s.ctr[STAMP]
    musts = 0
    start = -1
    for v in range(m.n_vars):
        if inside(dom, np.uint64(v), path, np.uint64(0)):
            musts += 1
            if start < 0:
                start = v
    if musts <= 1:
        return True
    bfs[0] = start
    mark[start] = stamp
    head, tail, reached = 0, 1, 0
    while head < tail:
        v = bfs[head]
        head += 1
        if inside(dom, np.uint64(v), path, np.uint64(0)):
            reached += 1
        for e in range(edge_start[v], edge_start[v + 1]):
            j = edge_dst[e]
            if mark[j] == stamp:
                continue
            if not meets(dom, np.uint64(v), passes, np.uint64(edge_rel[e])):
                continue
            if not meets(dom, np.uint64(j), passes, np.uint64(edge_rel[edge_rev[e]])):
                continue
            mark[j] = stamp
            bfs[tail] = j
            tail += 1
    return reached == musts


# ---------------------------------------------------------------- the choice heap


@subroutine(types.float64)
def heap_key(v, heuristic, sumw, sumwlw, size, noise):
    if heuristic == ENTROPY:
        total = sumw[v]
        return np.log(total) - sumwlw[v] / total + ENTROPY_NOISE * noise[v]
    if heuristic == MRV:
        return size[v] + MRV_NOISE * noise[v]
    return float(v)


@subroutine(types.none)
def _swap(heap, hpos, i, j):
    a, b = heap[i], heap[j]
    heap[i], heap[j] = b, a
    hpos[b], hpos[a] = i, j


@subroutine(types.none)
def _sift_up(heap, hpos, hkey, i):
    while i > 0:
        parent = (i - 1) >> 1
        if hkey[heap[i]] < hkey[heap[parent]]:
            _swap(heap, hpos, i, parent)
            i = parent
        else:
            break


@subroutine(types.none)
def _sift_down(heap, hpos, hkey, n, i):
    while True:
        left = 2 * i + 1
        if left >= n:
            break
        best = left
        if left + 1 < n and hkey[heap[left + 1]] < hkey[heap[left]]:
            best = left + 1
        if hkey[heap[best]] < hkey[heap[i]]:
            _swap(heap, hpos, i, best)
            i = best
        else:
            break


@njit(cache=True, _nrt=False, inline="always")
def settle(heap, hpos, hkey, ctr, sumw, sumwlw, size, noise, touched, tflag, heuristic):
    """Bring the heap up to date for every variable touched since the last call.

    It takes the arrays it needs, not the State tuple: the search calls it per decision.
    Inlined into `backtrack.engine`, its one caller: no module of its own to optimise.
    """
    for k in range(ctr[NTOUCHED]):
        v = touched[k]
        tflag[v] = 0
        i = np.int64(hpos[v])  # heap positions as int64 (one copy of the heap kernels)
        if size[v] > 1:
            hkey[v] = heap_key(v, heuristic, sumw, sumwlw, size, noise)
            if i < 0:
                i = ctr[HSIZE]
                heap[i] = v
                hpos[v] = i
                ctr[HSIZE] = i + 1
            _sift_up(heap, hpos, hkey, i)
            _sift_down(heap, hpos, hkey, ctr[HSIZE], np.int64(hpos[v]))
        elif i >= 0:
            last = ctr[HSIZE] - 1
            _swap(heap, hpos, i, last)
            ctr[HSIZE] = last
            hpos[v] = -1
            if i < last:
                _sift_up(heap, hpos, hkey, i)
                _sift_down(heap, hpos, hkey, last, np.int64(hpos[heap[i]]))
    ctr[NTOUCHED] = 0


# ---------------------------------------------------------------- choices and setup


@subroutine(types.int64)
def choose_value(rng, sumw, dom, weights, v):
    """A value of v drawn by weight."""
    target = next_unit(rng) * sumw[v]
    last = -1
    for w in range(dom.shape[1]):
        word = dom[v, w]
        while word != np.uint64(0):
            b = trailing_zeros(word)
            word &= ~(np.uint64(1) << np.uint64(b))
            last = w * 64 + b
            target -= weights[last]
            if target < 0.0:
                return last
    return last


def full_domains(m: Model, s: State) -> None:
    """Every value in every domain, and the counters that go with it, before any ban."""
    full = _bits(np.ones(m.n_values, dtype=bool))
    s.dom[:] = full
    s.size[:] = m.n_values
    s.sumw[:] = np.cumsum(m.weights)[-1]  # added in order, as the bans subtract: same bits
    s.sumwlw[:] = np.cumsum(m.wlogw)[-1]
    for flags in (s.tflag, s.mark, s.fixed, s.ctr, s.gflag):
        flags[:] = 0
    s.hpos[:] = -1
    s.compat[:] = m.compat0
    members = np.diff(m.group_start)
    possible = (m.group_set != 0).any(axis=1)
    s.g_poss[:] = np.where(possible, members, 0)
    s.g_fix[:] = np.where((full & ~m.group_set == 0).all(axis=1), members, 0)
    slots = [(1 << min(int(c), 64)) - 1 for c in members]  # a bit per member, up to 64
    s.g_mask[:] = np.where(possible, np.array(slots, dtype=np.uint64), np.uint64(0))
    in_set = np.unpackbits(m.group_set.view(np.uint8), axis=1).sum(axis=1, dtype=np.int32)
    s.m_in[:] = in_set[m.var_group]


@njit(cache=True, _nrt=False, inline="always")
def _initial_domains(m, s):
    """The initial domains (`m.init_dom`) banned from full ones."""
    b = bans(m, s)
    for v in range(m.n_vars):
        _ban_mask(b, INDEX(v), m.init_dom[v], KEEP)


def _initial_counts(m, s):
    """`initial_bans` for a model with groups, nogoods or exclusions."""
    _initial_domains(m, s)
    b = bans(m, s)
    for g in range(len(m.group_lo)):  # every group's bounds get one look
        _push_group(b, np.uint64(g))
    # (the index types `propagate` passes, so these calls share its compiled copies)
    for g in range(len(m.ng_start) - 1):  # nogoods that hold, or nearly, before any ban
        _check_nogood(b, np.int32(g), m.ng_start, m.ng_var, m.ng_set)
    for v in range(m.n_vars):  # members decided before any ban (a single value)
        if m.var_ex_start[v] < m.var_ex_start[v + 1] and s.size[v] == 1 and s.fixed[v] == 0:
            s.fixed[v] = 1
            _exclude(m, s, INDEX(v))


def _initial_supports(m, s):
    """`initial_bans` for a `SupportModel`: no groups, nogoods or exclusions to look at."""
    _initial_domains(m, s)


@subroutine(types.none, inline=True, pick=_by_model(_initial_supports, _initial_counts))
def initial_bans(m, s):
    """The initial domains banned from full ones, every group queued, and the nogoods and
    exclusions that hold before any ban applied. In a kernel, the part a Model's type needs
    is chosen when the kernel is typed: a cold start of a `SupportModel` compiles no nogood
    or exclusion code."""
    if isinstance(m, SupportModel):
        _initial_supports(m, s)
    else:
        _initial_counts(m, s)


@njit(cache=True, _nrt=False, inline="always")
def begin_attempt(s, seed, heuristic):
    """Seed the attempt's random stream and tie-break noise, and fill the heap."""
    s.rng[0] = mix64(np.uint64(seed))
    n = s.size.shape[0]
    s.ctr[HSIZE] = 0
    for v in range(n):
        s.noise[v] = next_unit(s.rng)
        s.hpos[v] = -1
    for v in range(n):
        if s.size[v] > 1:
            k = s.ctr[HSIZE]
            s.heap[k] = v
            s.hpos[v] = k
            s.hkey[v] = heap_key(np.int32(v), heuristic, s.sumw, s.sumwlw, s.size, s.noise)
            s.ctr[HSIZE] = k + 1
    for i in range(s.ctr[HSIZE] // 2 - 1, -1, -1):
        _sift_down(s.heap, s.hpos, s.hkey, s.ctr[HSIZE], i)


def decided_values(s: State) -> np.ndarray:
    """The value of every variable whose domain is a single value, -1 elsewhere."""
    out = np.full(len(s.size), -1, dtype=np.int32)
    decided = np.flatnonzero(s.size == 1)
    rows = s.dom[decided]
    word = (rows != 0).argmax(axis=1)
    bit = rows[np.arange(len(decided)), word].astype(np.float64)  # a power of two: exact
    out[decided] = word * 64 + np.frexp(bit)[1] - 1
    return out


_STATE_FIELDS = tuple(range(len(State._fields)))


@njit(cache=True, _nrt=False)
def load_state(source, target):
    """Copy every array of `source` into `target` (same model), inside a kernel."""
    for i in literal_unroll(_STATE_FIELDS):
        _copy_into(target[i].reshape(-1), source[i].reshape(-1))


@subroutine(types.none)
def _copy_into(target, source):
    """Element by element: one small kernel per element type, where numba's `a[...] = b`
    compiles its broadcasting assignment once per array type."""
    for k in range(source.shape[0]):
        target[k] = source[k]
