"""A guess-and-test search's saved state, written and read back.

A checkpoint may come from anyone (a build folder handed over, then `--resume`d), and its
seal proves no more than that its bytes were not edited after it was sealed. The search
kernels trust their state: an index they read from it is not checked against the arrays it
indexes (numba compiles no bounds checks). So `read` lets through only a state the kernels
could have left: the arrays the model's fresh state has, of its types and shapes, and every
array the kernels read an index from consistent with the rest (the trail, the guess frames,
the heap, the touched set, the group queue). What a forged state can still change is what
the search goes on to find, as a forged tally can; it can no longer make a kernel read or
write outside its arrays, nor loop for ever.
"""

from __future__ import annotations

import io
import zipfile

import numpy as np

from .propagate import (
    ALL_RULES,
    DEPTH,
    FAILED,
    GQHEAD,
    GQLEN,
    HEURISTICS,
    HSIZE,
    NTOUCHED,
    QHEAD,
    TRAIL_LEN,
    Model,
    State,
    new_state,
)
from .resumed import NotResumable

SETTINGS = "settings"  # heuristic, rules, max_backtracks, count_limit, status
# the .npy header readers of the formats numpy writes (2.0: headers over 64 KiB)
HEADERS = {
    (1, 0): np.lib.format.read_array_header_1_0,
    (2, 0): np.lib.format.read_array_header_2_0,
}


def write(state: State, settings: tuple[int, ...]) -> bytes:
    """The state and the search's settings as bytes (numpy .npz)."""
    buffer = io.BytesIO()
    np.savez(buffer, **{SETTINGS: np.array(settings, dtype=np.int64)}, **state._asdict())
    return buffer.getvalue()


def read(model: Model, blob: bytes, statuses: range) -> tuple[tuple[int, ...], State]:
    """(settings, state) from `write`'s bytes, for a search of `model`; NotResumable if the
    bytes are not a state of its search."""
    fresh = new_state(model)
    expected = {SETTINGS: np.zeros(5, dtype=np.int64), **fresh._asdict()}
    try:
        with zipfile.ZipFile(io.BytesIO(blob)) as archive:
            names = sorted(archive.namelist())
            if names != sorted(f"{name}.npy" for name in expected):
                raise NotResumable("its search state does not hold the arrays a search has")
            arrays = {name: _array(archive, name, array) for name, array in expected.items()}
    except NotResumable:
        raise
    except Exception as exc:  # whatever the zip, zlib, lzma or .npy readers make of them
        raise NotResumable(f"its search state cannot be read ({exc!r})") from None
    settings = tuple(int(x) for x in arrays.pop(SETTINGS))
    state = State(**arrays)
    fault = _setting_fault(settings, statuses) or _state_fault(model, state)
    if fault:
        raise NotResumable(f"its search state is not one a search leaves: {fault}")
    return settings, state


def _array(archive: zipfile.ZipFile, name: str, like: np.ndarray) -> np.ndarray:
    """One array of the archive, its type and shape checked before its data is read."""
    with archive.open(f"{name}.npy") as member:
        version = np.lib.format.read_magic(member)
        if version not in HEADERS:
            raise NotResumable(f"its search state's {name} has .npy format {version}")
        shape, fortran, dtype = HEADERS[version](member)  # at most 10,000 bytes read
        if dtype != like.dtype or shape != like.shape or (fortran and like.ndim > 1):
            raise NotResumable(
                f"its search state's {name} is {dtype}{list(shape)}, where this search has "
                f"{like.dtype}{list(like.shape)}"
            )
        data = member.read(like.nbytes)
    if len(data) != like.nbytes:
        raise NotResumable(f"its search state's {name} is cut short")
    return np.frombuffer(data, dtype=like.dtype).reshape(like.shape).copy()


def _setting_fault(settings: tuple[int, ...], statuses: range) -> str | None:
    heuristic, rules, max_backtracks, count_limit, status = settings
    if heuristic not in HEURISTICS.values():
        return f"heuristic {heuristic}"
    if not 0 <= rules <= ALL_RULES:
        return f"rules {rules}"
    if max_backtracks < -1 or count_limit < 0:
        return "a negative limit"
    if status not in statuses:
        return f"status {status}"
    return None


def _state_fault(model: Model, s: State) -> str | None:
    """What in `s` the kernels could not have left, or None."""
    n, nv = model.n_vars, model.n_values
    ctr = s.ctr
    trail, depth, hsize = int(ctr[TRAIL_LEN]), int(ctr[DEPTH]), int(ctr[HSIZE])
    touched, queued = int(ctr[NTOUCHED]), int(ctr[GQLEN])
    groups = len(model.group_lo)
    bounds = (
        (trail, len(s.trail_var)),
        (int(ctr[QHEAD]), trail),
        (depth, n),
        (hsize, n),
        (touched, n),
        (queued, groups),
        (int(ctr[GQHEAD]), len(s.gqueue) - 1),
        (int(ctr[FAILED]), 1),
    )
    if any(not 0 <= count <= most for count, most in bounds):
        return "a counter out of its range"
    if nv % 64 and np.any(s.dom[:, -1] >> np.uint64(nv % 64)):
        return "a value beyond the last one"
    if np.any(s.size != np.bitwise_count(s.dom).sum(axis=1)):
        return "a domain size that is not its count of values"
    return (
        _trail_fault(s, n, nv, trail)
        or _frame_fault(s, n, nv, depth, trail)
        or _touched_fault(s, n, touched)
        or _heap_fault(s, n, hsize)
        or _queue_fault(s, groups, queued)
        or _mask_fault(model, s)
    )


def _has(dom: np.ndarray, v: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Whether value a[i] is in v[i]'s domain."""
    words = dom[v, a >> 6]
    return (words >> (a & 63).astype(np.uint64)) & np.uint64(1) == 1


def _trail_fault(s: State, n: int, nv: int, trail: int) -> str | None:
    """Each ban on the trail a distinct (variable, value), out of its domain: an undo then
    gives back only values that were taken (and the trail never outgrows its n * nv)."""
    v, a = s.trail_var[:trail].astype(np.int64), s.trail_val[:trail].astype(np.int64)
    if np.any(v >= n) or np.any(a >= nv):
        return "a ban of a variable or value the model lacks"
    if len(np.unique(v * nv + a)) != trail or np.any(_has(s.dom, v, a)):
        return "a ban twice, or of a value still in its domain"
    return None


def _frame_fault(s: State, n: int, nv: int, depth: int, trail: int) -> str | None:
    """Each guess on the stack a distinct variable, decided on its value, undone to a
    trail position at or after the guess below it's, and past every ban of the guesses
    below it (so an undo leaves them decided, and the stack never outgrows n)."""
    v, a = s.fr_var[:depth].astype(np.int64), s.fr_val[:depth].astype(np.int64)
    at = s.fr_trail[:depth]
    if np.any((v < 0) | (v >= n) | (a < 0) | (a >= nv)):
        return "a guess of a variable or value the model lacks"
    if len(np.unique(v)) != depth or np.any(s.size[v] != 1) or not np.all(_has(s.dom, v, a)):
        return "a guess that is not its variable's one value"
    if np.any(at < 0) or np.any(at > trail) or np.any(np.diff(at) < 0):
        return "a guess's trail position out of order"
    last = np.full(n, -1, dtype=np.int64)  # each variable's last ban on the trail
    np.maximum.at(last, s.trail_var[:trail].astype(np.int64), np.arange(trail))
    if np.any(last[v[:-1]] >= at[1:]):
        return "a guess that undoing the guess above it would take back"
    return None


def _touched_fault(s: State, n: int, touched: int) -> str | None:
    """The touched list and its flags agree: a variable is listed once, and exactly when
    flagged (so the list never outgrows n, and every change reaches the heap)."""
    listed = s.touched[:touched]
    if np.any((listed < 0) | (listed >= n)) or len(np.unique(listed)) != touched:
        return "a touched variable listed twice or unknown"
    flagged = np.zeros(n, dtype=np.uint8)
    flagged[listed] = 1
    return None if np.array_equal(flagged, s.tflag) else "touched flags that are not the list"


def _heap_fault(s: State, n: int, hsize: int) -> str | None:
    """The heap holds distinct variables at the positions `hpos` gives, and each one the
    touched list does not name still has several values (so a guess always decides one)."""
    heap = s.heap[:hsize]
    if np.any((heap < 0) | (heap >= n)) or len(np.unique(heap)) != hsize:
        return "a heap entry twice or unknown"
    position = np.full(n, -1, dtype=np.int64)
    position[heap] = np.arange(hsize)
    if not np.array_equal(position, s.hpos):
        return "heap positions that are not the heap's"
    settled = heap[s.tflag[heap] == 0]
    return "a decided variable left to guess" if np.any(s.size[settled] < 2) else None


def _queue_fault(s: State, groups: int, queued: int) -> str | None:
    """The group queue and its flags agree, as the touched list and its flags do."""
    slots = (int(s.ctr[GQHEAD]) + np.arange(queued)) % len(s.gqueue)
    ring = s.gqueue[slots].astype(np.int64)
    if np.any(ring >= groups) or len(np.unique(ring)) != queued:
        return "a queued group twice or unknown"
    flagged = np.zeros(len(s.gflag), dtype=np.uint8)
    flagged[ring] = 1
    return None if np.array_equal(flagged, s.gflag) else "group flags that are not the queue"


def _mask_fault(model: Model, s: State) -> str | None:
    """A small group's possible members (bits of `g_mask`) are among its members."""
    members = np.diff(model.group_start.astype(np.int64))
    small = members < 64  # an empty group's mask is 0
    limit = np.left_shift(np.uint64(1), members[small].astype(np.uint64))
    return "a group member beyond its group" if np.any(s.g_mask[small] >= limit) else None
