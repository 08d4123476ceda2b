"""numba kernels of the layout enumeration: one block is one choice of positions, with every
assignment of values to them; the block is evaluated line by line, not panel by panel.

For a line, the placed symbols fall into independent groups: a triangle or a crossing symbol
alone (its rule reads only the line), and the squares and stars, or the pieces, that share a
region. Each group yields the list of its value assignments that keep its rules; a line
solves exactly the panels whose assignment combines one entry of every list, so the line adds
one solution to each of them. An assignment enters the rank of its panel linearly (value
times the position's weight), so each list entry is stored as its share of the rank.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...compile import connector as _connector  # noqa: F401  (the numba cache of these kernels)
from ...search.blocks import claim, own_lines
from ...spaces.bits import bit_index, lowest_bit, popcount
from ...spaces.sorted_sequence import sorted_unrank
from .kernels import has_slot, insert_sorted
from .model import CANNOT, COLOUR_FAMILY, LOCAL_FAMILY, MUST, NONE, SQUARE, STAR, TRIANGLE

ONE = np.uint64(1)
ZERO = np.uint64(0)
KEY_BITS = 6
KEY_MASK = np.int64(63)


@njit(cache=True)
def _multisets(region, most, place, largest, out):
    """Write the distinct multisets of at most `most` pieces that tile `region` into `out`
    (as keys: sorted piece indices, 6 bits each, index + 1; the keys in increasing order)
    and return how many; -1 if `out` is too small. Pieces go in the order of the lowest
    free cell, each with its first cell there, so every tiling is reached once. (No numpy
    sort nor slice copy here: numba compiles either for seconds.)"""
    count = 0
    if popcount(region) > most * largest:
        return 0
    rest = np.zeros(most + 1, np.uint64)
    tried = np.zeros(most + 1, np.int64)
    chosen = np.zeros(most + 1, np.int64)
    sorted_types = np.zeros(most, np.int64)
    rest[0] = region
    depth = 0
    n_types = place.shape[0]
    while depth >= 0:
        if rest[depth] == ZERO or tried[depth] == n_types or depth == most:
            if rest[depth] == ZERO and depth > 0:
                for k in range(depth):
                    insert_sorted(sorted_types, k, chosen[k])
                key = np.int64(0)
                for k in range(depth):
                    key |= (sorted_types[k] + 1) << (KEY_BITS * k)
                at = count
                while at > 0 and out[at - 1] > key:
                    at -= 1
                if at == 0 or out[at - 1] != key:  # a new multiset
                    if count == out.shape[0]:
                        return -1
                    insert_sorted(out, count, key)
                    count += 1
            tried[depth] = 0
            depth -= 1
            continue
        t = tried[depth]
        tried[depth] = t + 1
        if popcount(rest[depth]) > (most - depth) * largest:
            tried[depth] = n_types
            continue
        cell = bit_index(lowest_bit(rest[depth]))
        mask = place[t, cell]
        if mask == ZERO or (mask & ~rest[depth]) != ZERO:
            continue
        chosen[depth] = t
        rest[depth + 1] = rest[depth] & ~mask
        depth += 1
    return count


@njit(cache=True, nogil=True)
def tilings(lo, hi, masks, most, place, largest, capacity, counts, start, keys):
    """For lo <= u < hi: counts[u], how many multisets of at most `most` pieces tile masks[u]
    (-1: more than `capacity`), and where keys holds them, keys[start[u]:start[u + 1]]: their
    sorted keys (a first pass counts them, with keys empty; a second one writes them)."""
    out = np.empty(capacity, np.int64)
    for u in range(lo, hi):
        n = _multisets(masks[u], most, place, largest, out)
        counts[u] = n
        if n > 0 and start[u] + n <= keys.shape[0]:
            for k in range(n):
                keys[start[u] + k] = out[k]


@njit(cache=True, inline="always")
def _next_permutation(a):
    """Advance `a` to its next permutation in lexicographic order; False after the last."""
    n = a.shape[0]
    i = n - 2
    while i >= 0 and a[i] >= a[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = n - 1
    while a[j] <= a[i]:
        j -= 1
    a[i], a[j] = a[j], a[i]
    lo, hi = i + 1, n - 1
    while lo < hi:
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1
        hi -= 1
    return True


@njit(cache=True, inline="always")
def _piece_group(group, m, reg, region, lab, P, B, T, scratch, out, at):
    """Append to out[at:] the rank shares of the assignments of pieces to the m positions
    `group` that, with the base pieces of the region, tile it; return the new end.
    `reg` is the region's global index, `region` its number within the line."""
    pos_place, pos_weight, digit_of = P[2], P[5], P[8]
    base_param, piece_cells = B[1], B[3]
    reg_unique, til_start, til_keys = T
    u = reg_unique[reg]
    if u < 0:
        return at
    base, types, rest, perm = scratch[0], scratch[1], scratch[2], scratch[3]
    nb = 0
    for k in range(piece_cells.shape[0]):
        if lab[piece_cells[k]] == region:
            insert_sorted(base, nb, base_param[piece_cells[k]])
            nb += 1
    total = m + nb
    for k in range(til_start[u], til_start[u + 1]):
        key = til_keys[k]
        n = 0
        while key != 0 and n <= total:
            if n < total:
                types[n] = (key & KEY_MASK) - 1
            key >>= KEY_BITS
            n += 1
        if n != total:
            continue
        b = 0
        r = 0
        for t in range(n):
            if b < nb and types[t] == base[b]:
                b += 1
            elif r < m:
                rest[r] = types[t]
                r += 1
            else:
                r = m + 1
                break
        if b != nb or r != m:
            continue
        for g in range(m):
            perm[g] = rest[g]
        while True:
            share = 0
            for g in range(m):
                d = digit_of[pos_place[group[g]], perm[g]]
                if d < 0:
                    share = -1
                    break
                share += d * pos_weight[group[g]]
            if share >= 0:
                out[at] = share
                at += 1
            if not _next_permutation(perm[:m]):
                break
    return at


@njit(cache=True, inline="always")
def _colour_group(group, m, region, lab, P, B, C, scratch, out, at):
    """Append to out[at:] the rank shares of the colour assignments of the squares and stars
    at the m positions `group` (one region) that keep the colour rules of that region; C:
    the cells of the base panel's squares and stars."""
    pos_place, pos_weight, values, n_values = P[2], P[5], P[6], P[7]
    digits, colours = scratch[0], scratch[1]
    digits[:m] = 0
    while True:
        for g in range(m):
            colours[g] = values[pos_place[group[g]], digits[g]]
        if _colours_ok(group, m, region, lab, colours, P[3], B, C):
            share = 0
            for g in range(m):
                share += digits[g] * pos_weight[group[g]]
            out[at] = share
            at += 1
        g = m - 1
        while g >= 0:
            digits[g] += 1
            if digits[g] < n_values[pos_place[group[g]]]:
                break
            digits[g] = 0
            g -= 1
        if g < 0:
            return at


@njit(cache=True, inline="always")
def _colour_symbol(k, m, group, colours, pos_kind, B, C):
    """(kind, colour, cell) of the k-th colour symbol of a region: the placed ones first
    (cell -1), then every base square or star (whatever its region)."""
    if k < m:
        return pos_kind[group[k]], colours[k], -1
    cell = C[k - m]
    return B[0][cell], B[1][cell], cell


@njit(cache=True, inline="always")
def _colours_ok(group, m, region, lab, colours, pos_kind, B, C):
    """Whether the placed squares and stars of one region, with its base ones, keep the
    rules: squares of one colour; each star with exactly one other symbol of its colour."""
    every = m + C.shape[0]
    square = -1
    for k in range(every):
        kind, colour, cell = _colour_symbol(k, m, group, colours, pos_kind, B, C)
        if cell >= 0 and lab[cell] != region:
            continue
        if kind == SQUARE:
            if square == -1:
                square = colour
            elif square != colour:
                return False
    for k in range(every):
        kind, colour, cell = _colour_symbol(k, m, group, colours, pos_kind, B, C)
        if kind != STAR or (cell >= 0 and lab[cell] != region):
            continue
        same = 0
        for h in range(every):
            _, other, there = _colour_symbol(h, m, group, colours, pos_kind, B, C)
            if other == colour and (there < 0 or lab[there] == region):
                same += 1
        if same != 2:
            return False
    return True


@njit(cache=True, inline="always")
def _local_position(q, line, target, P, side, out, at):
    """Append the rank shares of the values of position q that the line alone satisfies."""
    j, kind, weight = P[2][q], P[3][q], P[5][q]
    values, n_values = P[6], P[7]
    if kind == TRIANGLE:
        on = 0
        for d in range(4):
            if has_slot(line, side[target[q], d]):
                on += 1
        for t in range(n_values[j]):
            if values[j, t] == on:
                out[at] = t * weight
                at += 1
        return at
    crossed = has_slot(line, target[q])
    if (kind == MUST and crossed) or (kind == CANNOT and not crossed):
        for t in range(n_values[j]):
            out[at] = t * weight
            at += 1
    return at


@njit(cache=True, inline="always")
def _collides(x, target, P, B, slots):
    """Set target[q] for every position; True if two symbols, or a symbol and a base
    symbol, share a cell or a slot (`slots`: scratch)."""
    pos_offset, pos_slot = P[0], P[1]
    base_kind = B[0]
    cells = ZERO
    for w in range(slots.shape[0]):
        slots[w] = B[2][w]
    for q in range(x.shape[0]):
        t = pos_offset[q] + x[q]
        target[q] = t
        if pos_slot[q]:
            if has_slot(slots, t):
                return True
            slots[t >> 6] |= ONE << np.uint64(t & 63)
        else:
            bit = ONE << np.uint64(t)
            if base_kind[t] != NONE or (cells & bit) != ZERO:
                return True
            cells |= bit
    return False


def layout_scratch(values: int, n: int, L: tuple, B: tuple) -> tuple:
    """The work arrays of one thread's layout_blocks for blocks of `values` panels of `n`
    positions, reused block after block (made by numpy: numba would compile each array's
    allocation for 0.1 s; on cache lines of their own), and last the positions of the
    block."""
    arrays = own_lines(
        (n, np.int64),  # target: the cell or slot of each position
        ((n, L[7].shape[0]), np.uint64),  # levels: candidate lines, see _candidates
        (n, np.int64),  # known: the target each row of levels was made for
        (values + n + 1, np.int64),  # out: each group's rank shares
        (n + 1, np.int64),  # starts of the groups in out
        (n, np.int64),  # group
        (n, np.bool_),  # grouped
        (n, np.int64),  # pick
        ((4, n + B[3].shape[0] + 1), np.int64),  # the groups' own scratch
        (B[2].shape[0], np.uint64),  # slots taken
        (n, np.int64),  # x: the positions of the block
    )
    arrays[2][...] = -1  # no row of levels made yet
    return arrays


@njit(cache=True, inline="always")
def positions_unrank(r, x, Q):
    """Write the positions of layout block r into x. Q, per placement: the size of its
    domain, how many positions it places, where they start in x, and C(size, count) (the
    ranks of its positions; the last placement varies fastest); then a binomial table."""
    domain, count, start, choices, tab = Q
    for j in range(domain.shape[0] - 1, -1, -1):
        sorted_unrank(r % choices[j], x, start[j], domain[j], count[j], 1, tab)
        r //= choices[j]


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def layout_blocks(following, size, first, counts, bits, Q, L, P, B, T, C, work):
    """Evaluate the runs of `size` blocks this thread claims (search/blocks.py) until
    blocks 0..counts.shape[0] - 1 are all taken. Block b is the positions of rank first + b
    (Q: see positions_unrank) with every assignment of values: counts[b, s], the number of
    lines solving the panel of value rank s (-1 for every s when two symbols collide);
    bits[b, s] gets the bit of each such line when bits has rows. L: the lines (bits, ids,
    labels, first region, base colour and piece failures); P: per position (offset, on a
    slot, placement, kind, family, weight), per placement (values, number of values, digit
    of each value); B: the base panel (cell kinds, cell values, slots, piece cells, cell
    sides); T: the piece tilings of regions, and C: the cells of the base panel's squares
    and stars, each None where the layout places no piece, or no square or star (numba
    then compiles no code for those symbols); work: layout_scratch's arrays."""
    lines, line_ids, labels, reg_first, fail_colour, fail_piece = L[0], L[1], L[2], L[3], L[4], L[5]
    through, every = L[6], L[7]
    target, levels, known, out, starts, group, grouped, pick, scratch, slots, x = work
    pos_family = P[4]
    side = B[4]
    n = x.shape[0]
    record = bits.shape[1] > 0
    b = end = 0
    while True:
        if b == end:  # claim the next run
            b = claim(following, size)
            end = min(b + size, counts.shape[0])
            if b >= end:
                return
        positions_unrank(first + b, x, Q)
        block_counts, block_bits = counts[b], bits[b]
        b += 1
        if _collides(x, target, P, B, slots):
            block_counts[:] = -1
            continue
        block_counts[:] = 0
        _candidates(target, P, through, every, levels, known, n)
        candidates = levels[n - 1]
        for w in range(candidates.shape[0]):
            word = candidates[w]
            while word != ZERO:
                low = lowest_bit(word)
                word ^= low
                i = w * 64 + bit_index(low)
                line = lines[i]
                lab = labels[i]
                groups = 0
                at = 0
                grouped[:] = False
                touched_colour = ZERO
                touched_piece = ZERO
                for q in range(n):
                    if grouped[q]:
                        continue
                    starts[groups] = at
                    family = pos_family[q]
                    if family == LOCAL_FAMILY:
                        at = _local_position(q, line, target, P, side, out, at)
                    else:
                        region = lab[target[q]]
                        m = 0
                        for p in range(q, n):
                            if (
                                not grouped[p]
                                and pos_family[p] == family
                                and lab[target[p]] == region
                            ):
                                grouped[p] = True
                                group[m] = p
                                m += 1
                        if C is not None and family == COLOUR_FAMILY:
                            touched_colour |= ONE << np.uint64(region)
                            at = _colour_group(group, m, region, lab, P, B, C, scratch, out, at)
                        elif T is not None:  # a piece
                            touched_piece |= ONE << np.uint64(region)
                            reg = reg_first[i] + region
                            at = _piece_group(group, m, reg, region, lab, P, B, T, scratch, out, at)
                    if at == starts[groups]:
                        break
                    groups += 1
                    starts[groups] = at
                else:
                    if (fail_colour[i] & ~touched_colour) != ZERO:
                        continue
                    if (fail_piece[i] & ~touched_piece) != ZERO:
                        continue
                    _combine(
                        groups, starts, out, pick, block_counts, block_bits, record, line_ids[i]
                    )


@njit(cache=True, nogil=True, error_model="numpy", _nrt=False)
def crossing_blocks(following, size, first, counts, Q, L, P, B, work):
    """layout_blocks where every position holds a crossing symbol of one value and no line
    bits are kept (`only_crossings` of layouts.py): block b is one panel, counts[b, 0]."""
    x = work[10]
    lo = claim(following, size)
    while lo < counts.shape[0]:
        for b in range(lo, min(lo + size, counts.shape[0])):
            positions_unrank(first + b, x, Q)
            counts[b, 0] = crossings_count(x, L, P, B, work)
        lo = claim(following, size)


@njit(cache=True, inline="always")
def crossings_count(x, L, P, B, work):
    """The solutions of the one panel with crossing symbols at positions x (see
    `only_crossings` of layouts.py), -1 if two collide: the lines through every must-cross
    and around every cannot-cross slot that the base panel alone never fails, the last
    position's condition applied in the same pass as the count."""
    through, every, clean = L[6], L[7], L[8]
    target, levels, known, slots = work[0], work[1], work[2], work[9]
    n = x.shape[0]
    if _collides(x, target, P, B, slots):
        return -1
    _candidates(target, P, through, every, levels, known, n - 1)
    above, t = every if n == 1 else levels[n - 2], target[n - 1]
    flip = ZERO if P[3][n - 1] == MUST else ~ZERO
    found = 0
    for w in range(above.shape[0]):
        found += popcount(above[w] & (through[t, w] ^ flip) & clean[w])
    return found


@njit(cache=True, inline="always")
def _candidates(target, P, through, every, levels, known, upto):
    """levels[q] for q < upto: the lines (a bit set) that pass every must-cross slot and
    avoid every cannot-cross slot of positions 0..q. Rows whose positions did not move
    since the last call are kept (known[q]: the target row q was made for, -1: none)."""
    kinds, families = P[3], P[4]
    first = upto
    for q in range(upto):
        if known[q] != target[q]:
            first = q
            break
    for q in range(first, upto):
        above = every if q == 0 else levels[q - 1]
        row, t = levels[q], target[q]
        if families[q] == LOCAL_FAMILY and kinds[q] == MUST:
            for w in range(row.shape[0]):
                row[w] = above[w] & through[t, w]
        elif families[q] == LOCAL_FAMILY and kinds[q] == CANNOT:
            for w in range(row.shape[0]):
                row[w] = above[w] & ~through[t, w]
        else:
            for w in range(row.shape[0]):
                row[w] = above[w]
        known[q] = t
    for q in range(upto, target.shape[0]):
        known[q] = -1


@njit(cache=True, inline="always")
def _combine(groups, starts, out, pick, counts, bits, record, line_id):
    """Add the line to every panel that combines one entry of each group's list."""
    for g in range(groups):
        pick[g] = starts[g]
    while True:
        s = 0
        for g in range(groups):
            s += out[pick[g]]
        counts[s] += 1
        if record:
            bits[s, line_id >> 6] |= ONE << np.uint64(line_id & 63)
        g = groups - 1
        while g >= 0:
            pick[g] += 1
            if pick[g] < starts[g + 1]:
                break
            pick[g] = starts[g]
            g -= 1
        if g < 0:
            return
