"""Numba kernels of Tracery expansion: the walks of `walk_tables`, one batch of draws a call.

`uniform_choices` draws derivations uniformly as `expand.Sampler` does (the end class
first, then one draw per choice, from CPython's Mersenne Twister seeded exactly as
`random.Random(seed * K ^ stream)` is). `walk` follows a derivation, given its choices
or drawing them choice by choice by weight from a SplitMix64 stream as `SplitMix64` does,
and writes its rank and its text as piece ids for Python to join.

Text is a sequence of piece ids (literal texts). What Python alone computes, the text
of a wrap (modifiers) or the text a pushed value shows, is looked up in `Memo`, keyed
by (node, the piece ids inside): a miss stops the walk with NEED and the inside in
`need`, Python adds the answer as a new piece, and the walk goes on from that row.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ...search.expand import CAPTURE, EFFECT, EMIT, PICK, SEQ

EMIT_TEXT, EMIT_VALUE = 0, 1
BEGIN, PUSH, POP, MARK = range(4)
U_PICK, U_STEP, U_LEAF = range(3)
OK, FULL, NEED, TOO_DEEP, BAD = range(5)
"""Status of a batch: done; an output buffer was too small (go on with larger ones);
a text is not in the memo (add it, go on); a stack outgrew its fixed size (use the
Python walk); a table had no entry."""

N, M = 624, 397
MATRIX_A, UPPER, LOWER, MASK32 = 0x9908B0DF, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1, MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
# Mersenne Twister words are held in int64: every product below stays under 2**63.

Uniform = namedtuple("Uniform", "kind ptr cum choice child after end_cum end_cfg")
"""The uniform sampler's walk: configurations (node, class, depth, end class) and
their draw tables (entries ptr[c]..ptr[c+1]: cumulative weight, option chosen or -1,
configuration to walk, configuration to walk after it or -1)."""

Walk = namedtuple(
    "Walk",
    "node_kind node_ptr node_items node_a node_b node_c next_class classes depth_bound lookup "
    "opt_ptr opt_node opt_weight below_ptr below_class below_count "
    "out_ptr out_class out_count suffix_base suffix_lookup suffix_ptr suffix_class dead_ends "
    "root start symbols base_symbols",
)
"""Program nodes (kind; SEQ items or CAPTURE/WRAP body in node_items[node_ptr[n]:
node_ptr[n + 1]]; a, b, c: EMIT_TEXT and its piece, or EMIT_VALUE, its symbol and
the value's index; an EFFECT's op and symbol; 1 for a CAPTURE of a pushed value),
the class after an effect or capture, and per configuration (node, class, depth),
found through `lookup`: its options with weights, for each option the derivations of
the options before it by end class (for ranks), and its own derivations by end class;
the end classes of SEQ node n's items from j on, from a class at a depth, found through
suffix_lookup at slot suffix_base[n] + j; whether some option can reach a dead end."""


Memo = namedtuple("Memo", "slots node start length value keys sizes")
"""Open addressing: slots (a power of two, -1 empty) hold entries (node, keys[start:
start + length] -> value piece); sizes = [entries, keys used]."""


@njit(cache=True)
def _hash(node, ids, lo, hi):
    h = np.uint64(node + 1) * GOLDEN
    for k in range(lo, hi):
        h = (h ^ np.uint64(ids[k])) * MIX1
    return h ^ (h >> np.uint64(29))


@njit(cache=True)
def memo_find(memo, node, ids, lo, hi):
    """The piece memoised for (node, ids[lo:hi]), or -1."""
    mask = memo.slots.shape[0] - 1
    at = np.int64(_hash(node, ids, lo, hi) & np.uint64(mask))
    while True:
        e = memo.slots[at]
        if e < 0:
            return -1
        if memo.node[e] == node and memo.length[e] == hi - lo:
            first = memo.start[e]
            same = True
            for k in range(hi - lo):
                if memo.keys[first + k] != ids[lo + k]:
                    same = False
                    break
            if same:
                return memo.value[e]
        at = (at + 1) & mask


@njit(cache=True)
def memo_put(memo, node, ids, value):
    """Add (node, ids) -> value; the caller leaves room (slots at most half full)."""
    e, used = memo.sizes[0], memo.sizes[1]
    memo.node[e], memo.start[e], memo.length[e], memo.value[e] = node, used, ids.shape[0], value
    memo.keys[used : used + ids.shape[0]] = ids
    memo.sizes[0], memo.sizes[1] = e + 1, used + ids.shape[0]
    mask = memo.slots.shape[0] - 1
    at = np.int64(_hash(node, ids, 0, ids.shape[0]) & np.uint64(mask))
    while memo.slots[at] >= 0:
        at = (at + 1) & mask
    memo.slots[at] = e


def mt_base() -> np.ndarray:
    """Mersenne Twister's state after init_genrand(19650218), where every seeding starts."""
    mt = np.zeros(N, np.int64)
    mt[0] = 19650218
    for i in range(1, N):
        mt[i] = (1812433253 * (int(mt[i - 1]) ^ (int(mt[i - 1]) >> 30)) + i) & MASK32
    return mt


@njit(cache=True)
def _mt_seed(mt, base, key, key_len):
    """CPython's init_by_array: `random.Random(n)` for n >= 0 with 32-bit words `key`."""
    mt[:] = base
    i, j = 1, 0
    for _ in range(max(N, key_len)):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & MASK32
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= key_len:
            j = 0
    for _ in range(N - 1):
        prev = mt[i - 1]
        mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = UPPER


@njit(cache=True)
def _mt_twist_word(mt, k):
    """Word k of the next state, in order: MT's twist done one word at a time, so that a
    draw that reads a few words twists only those."""
    if k < N - M:
        y = (mt[k] & UPPER) | (mt[k + 1] & LOWER)
        mt[k] = mt[k + M] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    elif k < N - 1:
        y = (mt[k] & UPPER) | (mt[k + 1] & LOWER)
        mt[k] = mt[k + M - N] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    else:
        y = (mt[N - 1] & UPPER) | (mt[0] & LOWER)
        mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)


@njit(cache=True)
def _mt_next(mt, at):
    """The next 32-bit word; at = [read position (N: a new state is due), words twisted]."""
    if at[0] >= N:
        at[0] = 0
        at[1] = 0
    k = at[0]
    while at[1] <= k:
        _mt_twist_word(mt, at[1])
        at[1] += 1
    y = mt[k]
    at[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK32


@njit(cache=True)
def _bit_length(n):
    bits = 0
    while n:
        bits += 1
        n >>= 1
    return bits


@njit(cache=True)
def _mt_below(mt, at, n):
    """`random.Random.randrange(n)` for 0 < n < 2**62: getrandbits(n.bit_length()) until < n."""
    k = _bit_length(n)
    while True:
        if k <= 32:
            r = _mt_next(mt, at) >> (32 - k)
        else:
            low = _mt_next(mt, at)
            r = low | ((_mt_next(mt, at) >> (64 - k)) << 32)
        if r < n:
            return r


@njit(cache=True)
def _entry(cum, lo, hi, mt, at):
    """The entry drawn from cumulative weights cum[lo:hi] (no draw when there is one)."""
    if hi - lo == 1:
        return lo
    r = _mt_below(mt, at, cum[hi - 1])
    while cum[lo] <= r:
        lo += 1
    return lo


@njit(cache=True)
def uniform_choices(u, base, keys, key_lens, choices, choice_ptr):
    """Choices of one uniform draw per row of `keys`; (status, choices written)."""
    mt = np.zeros(N, np.int64)
    at = np.zeros(2, np.int64)
    stack = np.empty(4096, np.int64)
    written = 0
    choice_ptr[0] = 0
    if u.end_cum.shape[0] == 0:
        return BAD, written
    for row in range(keys.shape[0]):
        _mt_seed(mt, base, keys[row], key_lens[row])
        at[0] = N
        top = 0
        stack[0] = u.end_cfg[_entry(u.end_cum, 0, u.end_cum.shape[0], mt, at)]
        while top >= 0:
            cfg = stack[top]
            top -= 1
            lo, hi = u.ptr[cfg], u.ptr[cfg + 1]
            if u.kind[cfg] == U_LEAF:
                continue
            if hi == lo:
                return BAD, written
            k = _entry(u.cum, lo, hi, mt, at)
            if u.kind[cfg] == U_PICK:
                if written == choices.shape[0]:
                    return FULL, written
                choices[written] = u.choice[k]
                written += 1
            if top + 2 >= stack.shape[0]:
                return TOO_DEEP, written
            if u.after[k] >= 0:
                top += 1
                stack[top] = u.after[k]
            top += 1
            stack[top] = u.child[k]
        choice_ptr[row + 1] = written
    return OK, written


@njit(cache=True)
def _splitmix_below(state, n):
    """`SplitMix64.below(n)` for 0 < n < 2**63; state[0] is the stream's state."""
    bits = max(_bit_length(n - 1), 1)
    while True:
        state[0] += GOLDEN
        z = state[0]
        z = (z ^ (z >> np.uint64(30))) * MIX1
        z = (z ^ (z >> np.uint64(27))) * MIX2
        z ^= z >> np.uint64(31)
        value = z >> np.uint64(64 - bits)
        if value < np.uint64(n):
            return np.int64(value)


@njit(cache=True)
def _add(vec, seen, used, f, cls, amount):
    if amount:
        if vec[f, cls] == 0:
            seen[f, used[f]] = cls
            used[f] += 1
        vec[f, cls] += amount


@njit(cache=True)
def _clear(vec, seen, used, f):
    for k in range(used[f]):
        vec[f, seen[f, k]] = 0
    used[f] = 0


@njit(cache=True)
def _config(w, node, cls, depth):
    return w.lookup[(node * w.classes + cls) * (w.depth_bound + 1) + depth]


@njit(cache=True)
def _alive_row(w, alive, f, node, depth, pos):
    """alive[f + 1, c]: can the derivation be completed after frame f's child ends in
    class c (the child is item `pos` of a SEQ)? Row 0, beyond the root, is all True."""
    kind, row = w.node_kind[node], f + 1
    last = kind != SEQ or pos + 1 == w.node_ptr[node + 1] - w.node_ptr[node]
    for c in range(w.classes):
        if kind == CAPTURE:
            after = w.next_class[node * w.classes + c]
            alive[row, c] = after >= 0 and alive[f, after]
        elif last:
            alive[row, c] = alive[f, c]
        else:
            slot = (w.suffix_base[node] + pos + 1) * w.classes + c
            s = w.suffix_lookup[slot * (w.depth_bound + 1) + depth]
            found = False
            if s >= 0:
                for k in range(w.suffix_ptr[s], w.suffix_ptr[s + 1]):
                    if alive[f, w.suffix_class[k]]:
                        found = True
                        break
            alive[row, c] = found


@njit(cache=True)
def _live(w, alive, f, option, cls, depth):
    """Can `option` of the choice in frame f be completed, and all after it?"""
    cfg = _config(w, option, cls, depth)
    if cfg < 0:
        return False
    for e in range(w.out_ptr[cfg], w.out_ptr[cfg + 1]):  # noqa: SIM110 - numba: no any(generator)
        if alive[f + 1, w.out_class[e]]:
            return True
    return False


@njit(cache=True)
def walk(w, memo, given, given_ptr, states, first_row, tape, tape_ptr, ranks, need):
    """Walk one derivation per row from `first_row` on: by its given choices, or drawing
    each choice by weight from SplitMix64 `states` (left as the draws leave them).
    Writes each row's text (piece ids) and rank; returns (status, row)."""
    local = states.shape[0] > 0
    rows = states.shape[0] if local else given_ptr.shape[0] - 1
    depth_cap, push_cap = 1024, 256
    f_node = np.empty(depth_cap, np.int64)
    f_depth = np.empty(depth_cap, np.int64)
    f_pos = np.empty(depth_cap, np.int64)
    vec = np.zeros((depth_cap + 1, w.classes), np.int64)
    dead_ends = local and w.dead_ends
    alive = np.ones((depth_cap + 1 if dead_ends else 1, w.classes), np.bool_)
    seen = np.empty((depth_cap + 1, w.classes), np.int64)
    used = np.zeros(depth_cap + 1, np.int64)
    stack_sets = np.empty((w.symbols, push_cap), np.int64)
    stack_len = np.zeros(w.symbols, np.int64)
    set_start = np.empty(push_cap * 4, np.int64)
    set_items = np.empty(push_cap * 16, np.int64)
    pending_start = np.empty(push_cap, np.int64)
    pending = np.empty(push_cap * 4, np.int64)
    state = np.zeros(1, np.uint64)
    scratch = depth_cap
    group_start = np.empty(depth_cap, np.int64)
    captured = np.empty(pending.shape[0], np.int64)
    n_tape = tape_ptr[first_row]
    for row in range(first_row, rows):
        if local:
            state[0] = states[row]
        read = 0 if local else given_ptr[row]
        stack_len[:] = 0
        for s in w.base_symbols:
            stack_sets[s, 0] = -1
            stack_len[s] = 1
        n_sets, n_items, n_pending, depth_pending, n_captures, groups = 0, 0, 0, 0, 0, 0
        # enter the root; `ret_class` is the class a finished node ends in, its
        # derivations before the walked one (by end class) in vec[top + 1]
        top = -1
        node, cls, depth = w.root, w.start, w.depth_bound
        entering = True
        ret_class = cls
        while True:
            if entering:
                kind = w.node_kind[node]
                if kind in (EMIT, EFFECT):
                    if n_tape + 1 >= tape.shape[0]:
                        return FULL, row
                    a, b = w.node_a[node], w.node_b[node]
                    if kind == EMIT:
                        if a == EMIT_TEXT:
                            tape[n_tape] = b
                        else:
                            at = set_start[stack_sets[b, stack_len[b] - 1]] + w.node_c[node]
                            tape[n_tape] = captured[set_items[at]]
                        n_tape += 1
                        ret_class = cls
                    else:
                        if a == BEGIN:
                            if depth_pending == push_cap:
                                return TOO_DEEP, row
                            pending_start[depth_pending] = n_pending
                            depth_pending += 1
                        elif a == PUSH:
                            depth_pending -= 1
                            first = pending_start[depth_pending]
                            size = n_pending - first
                            if (
                                stack_len[b] == push_cap
                                or n_sets + 1 >= set_start.shape[0]
                                or n_items + size > set_items.shape[0]
                            ):
                                return TOO_DEEP, row
                            set_start[n_sets] = n_items
                            set_items[n_items : n_items + size] = pending[first:n_pending]
                            n_items += size
                            n_pending = first
                            stack_sets[b, stack_len[b]] = n_sets
                            stack_len[b] += 1
                            n_sets += 1
                        elif a == POP and stack_len[b] > 0:
                            stack_len[b] -= 1
                        ret_class = w.next_class[node * w.classes + cls]
                    _clear(vec, seen, used, top + 1)
                    entering = False
                    continue
                if top + 1 == depth_cap:
                    return TOO_DEEP, row
                top += 1
                f_node[top], f_depth[top], f_pos[top] = node, depth, 0
                _clear(vec, seen, used, top)
                if dead_ends:
                    _alive_row(w, alive, top, node, depth, 0)
                if kind == PICK:
                    cfg = _config(w, node, cls, depth)
                    if cfg < 0 or w.opt_ptr[cfg] == w.opt_ptr[cfg + 1]:
                        return BAD, row
                    lo, hi = w.opt_ptr[cfg], w.opt_ptr[cfg + 1]
                    if local:
                        total = 0
                        for k in range(lo, hi):
                            if not dead_ends or _live(w, alive, top, w.opt_node[k], cls, depth - 1):
                                total += w.opt_weight[k]
                        if total == 0:
                            return BAD, row
                        r = _splitmix_below(state, total)
                        k = lo
                        while True:
                            if not dead_ends or _live(w, alive, top, w.opt_node[k], cls, depth - 1):
                                if r < w.opt_weight[k]:
                                    break
                                r -= w.opt_weight[k]
                            k += 1
                    else:
                        k = lo + given[read]
                        read += 1
                    for e in range(w.below_ptr[k], w.below_ptr[k + 1]):
                        _add(vec, seen, used, top, w.below_class[e], w.below_count[e])
                    node, depth = w.opt_node[k], depth - 1
                elif kind == SEQ:
                    node = w.node_items[w.node_ptr[node]]
                else:
                    group_start[groups] = n_tape
                    groups += 1
                    node = w.node_items[w.node_ptr[node]]
                continue
            # a child finished: fold its result into the frame on top
            if top < 0:
                break
            node, depth = f_node[top], f_depth[top]
            kind = w.node_kind[node]
            child = top + 1
            if kind == PICK:
                for k in range(used[child]):
                    c = seen[child, k]
                    _add(vec, seen, used, top, c, vec[child, c])
            elif kind == SEQ:
                item = w.node_items[w.node_ptr[node] + f_pos[top]]
                _clear(vec, seen, used, scratch)
                for k in range(used[top]):
                    m = seen[top, k]
                    cfg = _config(w, item, m, depth)
                    for e in range(w.out_ptr[cfg], w.out_ptr[cfg + 1]):
                        _add(vec, seen, used, scratch, w.out_class[e], vec[top, m] * w.out_count[e])
                for k in range(used[child]):
                    c = seen[child, k]
                    _add(vec, seen, used, scratch, c, vec[child, c])
                _clear(vec, seen, used, top)
                for k in range(used[scratch]):
                    c = seen[scratch, k]
                    _add(vec, seen, used, top, c, vec[scratch, c])
                f_pos[top] += 1
                if f_pos[top] < w.node_ptr[node + 1] - w.node_ptr[node]:
                    if dead_ends:
                        _alive_row(w, alive, top, node, depth, f_pos[top])
                    node = w.node_items[w.node_ptr[node] + f_pos[top]]
                    cls = ret_class
                    entering = True
                    continue
            else:
                groups -= 1
                first = group_start[groups]
                piece = -1
                if kind != CAPTURE or w.node_a[node] == 1:
                    piece = memo_find(memo, node, tape, first, n_tape)
                    if piece < 0:
                        need[0], need[1], need[2] = node, first, n_tape
                        return NEED, row
                n_tape = first
                if kind == CAPTURE:
                    for k in range(used[child]):
                        c = seen[child, k]
                        _add(
                            vec, seen, used, top, w.next_class[node * w.classes + c], vec[child, c]
                        )
                    if w.node_a[node] == 1:
                        if n_pending == pending.shape[0] or n_captures == captured.shape[0]:
                            return TOO_DEEP, row
                        pending[n_pending] = n_captures
                        captured[n_captures] = piece
                        n_pending += 1
                        n_captures += 1
                    ret_class = w.next_class[node * w.classes + ret_class]
                else:
                    if n_tape == tape.shape[0]:
                        return FULL, row
                    tape[n_tape] = piece
                    n_tape += 1
                    for k in range(used[child]):
                        c = seen[child, k]
                        _add(vec, seen, used, top, c, vec[child, c])
            _clear(vec, seen, used, child)
            top -= 1
        rank = 0
        for k in range(used[0]):
            rank += vec[0, seen[0, k]]
        ranks[row] = rank
        if local:
            states[row] = state[0]
        tape_ptr[row + 1] = n_tape
    return OK, rows
