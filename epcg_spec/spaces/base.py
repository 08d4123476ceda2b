"""The ranked-space interface: Python validation over module-level numba kernels."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from epcg_spec.core.errors import SpaceTooLarge
from epcg_spec.core.sizes import INT64_MAX, count_text


@dataclass(frozen=True)
class Kernels:
    """The module-level njit kernels of one space type; the state is x[off:off+length] and
    (prm, tab) are the type's parameters and table.

    unrank(r, x, off, prm, tab) writes the state of rank r; rank(x, off, prm, tab) -> int64.
    skip(x, off, depth, prm, tab) -> int64 moves x to the first state after every state that
    shares x[off:off+depth] and returns the lowest local position changed, with every later
    position at its smallest completion; or -1 when no such state follows (x is then the
    state of rank 0; depth 0 always gives -1). depth == length is the successor.
    subtree(x, off, depth, prm, tab) -> int64 counts the states sharing x[off:off+depth].
    For a depth-first walk over the prefix tree (prefix-ordered types only), with p a local
    position whose prefix x[off:off+p] is set:
    first(x, off, p, prm, tab) -> bool sets x[off+p] to its smallest value after the prefix;
    next(x, off, p, prm, tab) -> bool advances x[off+p] to its next value after the prefix,
    or returns False (x[off+p] left as it was) when there is none.
    candidates(x, off, p, prm, tab) -> uint64: bit v set if v is a value x[off+p] can take
    after the prefix (only for types whose values are all below 64; see `mask_walkable`).
    """

    unrank: Any
    rank: Any
    skip: Any
    subtree: Any
    first: Any
    next: Any
    candidates: Any


def check_int(name: str, value: object, minimum: int) -> int:
    """`value` as an int, or ValueError if it is not an integer >= minimum."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def values_below(x: np.ndarray, n: int) -> bool:
    """Whether every value of x lies in 0..n-1."""
    return x.size == 0 or (int(x.min()) >= 0 and int(x.max()) < n)


class RankedSpace(ABC):
    """A finite set of int64 state arrays of one length, each with a rank in 0..max_rank-1.

    Every method that works with int64 ranks first calls `check_fits`, so a space too large
    for 64-bit ranks can still be built and described, and is refused only when used.
    """

    type_name: ClassVar[str]
    prefix_ordered: bool = True
    uniform_subtrees: ClassVar[bool] = False
    """True if a prefix's subtree size does not depend on the value at its last position."""

    def __init__(self, length: int, max_rank: int, label: str):
        self.length = length
        self.max_rank = max_rank
        self.label = label

    def describe(self) -> str:
        """e.g. 'combination C(56, 8) = 1,420,494,075 states'."""
        return f"{self.label} = {count_text(self.max_rank, 10**1000)} states"

    def check_fits(self) -> None:
        """Raise SpaceTooLarge if the ranks do not fit in an int64."""
        if self.max_rank > INT64_MAX:
            raise SpaceTooLarge(self.label, self.max_rank)

    @abstractmethod
    def value_range(self, pos: int) -> tuple[int, int]:
        """Inclusive bounds of the values that position `pos` can hold."""

    def rising_from(self, pos: int) -> tuple[int, int] | None:
        """(first, step) where every state has x[pos] >= x[q] + step * (pos - q) for each
        position q in first..pos-1 (a sorted run, step 0 non-decreasing, 1 increasing);
        None where the values of earlier positions bound x[pos] from below in no such way."""
        return None

    @property
    def mask_walkable(self) -> bool:
        """True if every value is below 64, so the values a position can take fit a mask."""
        return self.prefix_ordered and all(self.value_range(p)[1] < 64 for p in range(self.length))

    @abstractmethod
    def lone_parts(self) -> tuple[tuple[int, LoneSpace], ...]:
        """The lone spaces this space is made of, each with its offset in the state."""

    @abstractmethod
    def kernel_args(self) -> tuple[np.ndarray, ...]:
        """The arrays the kernels take after the state: (prm, tab) per lone space."""

    def unrank(self, r: int) -> np.ndarray:
        """The state of rank r."""
        self.check_fits()
        if isinstance(r, bool) or not isinstance(r, int | np.integer) or not 0 <= r < self.max_rank:
            raise ValueError(
                f"rank {r!r} is out of range 0..{self.max_rank - 1} for {self.describe()}"
            )
        x = np.empty(self.length, dtype=np.int64)
        self._unrank(int(r), x, 0)
        return x

    def rank(self, state: Any) -> int:
        """The rank of a state (any integer sequence)."""
        self.check_fits()
        return int(self._rank(self._state(state), 0))

    def increment(self, state: np.ndarray) -> bool:
        """Move `state` in place to its successor; at the last state wrap to rank 0 and
        return False."""
        return self.skip(state, self.length) >= 0

    def skip(self, state: np.ndarray, depth: int) -> int:
        """Move `state` in place past every state sharing state[:depth]; return the lowest
        changed position, or -1 (state wrapped to rank 0) when no such state follows."""
        self.check_fits()
        if not (
            isinstance(state, np.ndarray) and state.dtype == np.int64 and state.flags.writeable
        ):
            raise ValueError(
                f"state must be a writeable int64 numpy array to be updated in place, got {state!r}"
            )
        x = self._state(state)
        return int(self._skip(x, 0, self._depth(depth)))

    def subtree_size(self, state: Any, depth: int) -> int:
        """The number of states whose first `depth` positions equal state[:depth]."""
        self.check_fits()
        return int(self._subtree(self._state(state), 0, self._depth(depth)))

    def contains(self, state: Any) -> bool:
        """Whether `state` is a state of this space."""
        return not isinstance(self._coerce(state), str)

    def _state(self, state: Any) -> np.ndarray:
        x = self._coerce(state)
        if isinstance(x, str):
            raise ValueError(f"{state!r} is not a state of {self.label}: {x}")
        return x

    def _coerce(self, state: Any) -> np.ndarray | str:
        """`state` as an int64 array (the same object where it already is one), or why not."""
        try:
            arr = np.asarray(state)
        except ValueError as error:
            return str(error)
        if arr.shape != (self.length,):
            return f"it has shape {arr.shape}, expected ({self.length},)"
        if arr.size == 0:
            return np.empty(0, dtype=np.int64) if arr.dtype != np.int64 else arr
        if arr.dtype.kind not in "iu" or int(arr.max()) > INT64_MAX:
            return "its values are not 64-bit integers"
        x = arr.astype(np.int64, copy=False)
        return x if self._contains(x) else f"it must hold {self._rule()}"

    def _depth(self, depth: int) -> int:
        depth = check_int("depth", depth, 0)
        if depth > self.length:
            raise ValueError(f"depth must be in 0..{self.length}, got {depth}")
        if not self._depth_supported(depth):
            raise ValueError(
                f"{self.label} is not prefix-ordered: depth must be 0 or {self.length}, got {depth}"
            )
        return depth

    def _depth_supported(self, depth: int) -> bool:
        return self.prefix_ordered or depth in (0, self.length)

    def _check_pos(self, pos: int) -> int:
        pos = check_int("pos", pos, 0)
        if pos >= self.length:
            raise ValueError(f"position must be in 0..{self.length - 1}, got {pos}")
        return pos

    @abstractmethod
    def _contains(self, x: np.ndarray) -> bool:
        """Whether a non-empty int64 array of the right length is a state."""

    @abstractmethod
    def _rule(self) -> str:
        """What a state holds, for error messages: e.g. 'increasing values in 0..9'."""

    @abstractmethod
    def _unrank(self, r: int, x: np.ndarray, off: int) -> None: ...

    @abstractmethod
    def _rank(self, x: np.ndarray, off: int) -> int: ...

    @abstractmethod
    def _skip(self, x: np.ndarray, off: int, depth: int) -> int: ...

    @abstractmethod
    def _subtree(self, x: np.ndarray, off: int, depth: int) -> int: ...


class LoneSpace(RankedSpace):
    """A space of one type, served by that type's `Kernels`."""

    kernels: Kernels

    def __init__(self, length: int, max_rank: int, label: str):
        super().__init__(length, max_rank, label)
        self._args: tuple[np.ndarray, np.ndarray] | None = None

    def lone_parts(self) -> tuple[tuple[int, LoneSpace], ...]:
        return ((0, self),)

    def kernel_args(self) -> tuple[np.ndarray, np.ndarray]:
        """(prm, tab): the parameters and the table the kernels take."""
        self.check_fits()
        if self._args is None:
            self._args = self._tables()
        return self._args

    @abstractmethod
    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        """(prm, tab), built only for a space that fits in int64 ranks."""

    def _unrank(self, r: int, x: np.ndarray, off: int) -> None:
        self.kernels.unrank(r, x, off, *self.kernel_args())

    def _rank(self, x: np.ndarray, off: int) -> int:
        return int(self.kernels.rank(x, off, *self.kernel_args()))

    def _skip(self, x: np.ndarray, off: int, depth: int) -> int:
        return int(self.kernels.skip(x, off, depth, *self.kernel_args()))

    def _subtree(self, x: np.ndarray, off: int, depth: int) -> int:
        return int(self.kernels.subtree(x, off, depth, *self.kernel_args()))
