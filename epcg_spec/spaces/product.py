"""Product of lone spaces: factors concatenated, factor 0 most significant."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate, chain
from math import prod

import numpy as np

from epcg_spec.spaces.base import LoneSpace, RankedSpace


class ProductSpace(RankedSpace):
    """Named lone spaces side by side: rank = r0 * size1 * size2 ... + r1 * size2 ... + ...,
    and the state is the factors' states concatenated in factor order."""

    type_name = "product"

    def __init__(self, factors: Sequence[tuple[str, RankedSpace]]):
        self.factors = tuple(_check_factors(factors))
        spaces = [space for _, space in self.factors]
        self.offsets = (0, *accumulate(space.length for space in spaces))[:-1]
        self._after = [
            prod(space.max_rank for space in spaces[f + 1 :]) for f in range(len(spaces))
        ]
        self.prefix_ordered = all(space.prefix_ordered for space in spaces)
        label = " x ".join(f"{name}: {space.label}" for name, space in self.factors)
        length = sum(space.length for space in spaces)
        super().__init__(length, prod(space.max_rank for space in spaces), f"product {label}")

    def lone_parts(self) -> tuple[tuple[int, LoneSpace], ...]:
        return tuple(zip(self.offsets, (space for _, space in self.factors), strict=True))

    def slice_of(self, name: str) -> slice:
        """Where factor `name` lies in the state array."""
        for (factor, space), off in zip(self.factors, self.offsets, strict=True):
            if factor == name:
                return slice(off, off + space.length)
        raise ValueError(f"no factor {name!r}; factors: {', '.join(n for n, _ in self.factors)}")

    def value_range(self, pos: int) -> tuple[int, int]:
        f = bisect_right(self.offsets, self._check_pos(pos)) - 1
        return self.factors[f][1].value_range(pos - self.offsets[f])

    def rising_from(self, pos: int) -> tuple[int, int] | None:
        f = bisect_right(self.offsets, self._check_pos(pos)) - 1
        rising = self.factors[f][1].rising_from(pos - self.offsets[f])
        return None if rising is None else (rising[0] + self.offsets[f], rising[1])

    def kernel_args(self) -> tuple[np.ndarray, ...]:
        """The factors' (prm, tab) pairs, concatenated in factor order."""
        self.check_fits()
        return tuple(chain.from_iterable(space.kernel_args() for _, space in self.factors))

    def _factor_of_prefix(self, depth: int) -> int:
        """The factor holding the last position of a prefix of length depth >= 1."""
        return bisect_right(self.offsets, depth - 1) - 1

    def _depth_supported(self, depth: int) -> bool:
        if depth == 0:
            return True
        f = self._factor_of_prefix(depth)
        return self.factors[f][1]._depth_supported(depth - self.offsets[f])

    def _contains(self, x: np.ndarray) -> bool:
        return all(space.contains(x[off : off + space.length]) for off, space in self.lone_parts())

    def _rule(self) -> str:
        return "; ".join(f"{name}: {space._rule()}" for name, space in self.factors if space.length)

    def _unrank(self, r: int, x: np.ndarray, off: int) -> None:
        for part_off, space in reversed(self.lone_parts()):
            r, local = divmod(r, space.max_rank)
            space._unrank(local, x, off + part_off)

    def _rank(self, x: np.ndarray, off: int) -> int:
        r = 0
        for part_off, space in self.lone_parts():
            r = r * space.max_rank + space._rank(x, off + part_off)
        return r

    def _skip(self, x: np.ndarray, off: int, depth: int) -> int:
        # From the last factor back: a factor after the prefix gets local depth 0 (back to its
        # first state); a factor that wraps carries into the one before it, at full length.
        for part_off, space in reversed(self.lone_parts()):
            changed = space._skip(x, off + part_off, max(depth - part_off, 0))
            if changed >= 0:
                return part_off + changed
            depth = min(depth, part_off)
        return -1

    def _subtree(self, x: np.ndarray, off: int, depth: int) -> int:
        if depth == 0:
            return self.max_rank
        f = self._factor_of_prefix(depth)
        part_off = self.offsets[f]
        return self.factors[f][1]._subtree(x, off + part_off, depth - part_off) * self._after[f]

    def __repr__(self) -> str:
        return f"ProductSpace({list(self.factors)!r})"


def _check_factors(factors: Sequence[tuple[str, RankedSpace]]) -> list[tuple[str, LoneSpace]]:
    if isinstance(factors, str | bytes) or not isinstance(factors, Sequence) or not factors:
        raise ValueError(
            f"a product needs a non-empty list of (name, space) pairs, not {factors!r}"
        )
    checked: list[tuple[str, LoneSpace]] = []
    for item in factors:
        if not (isinstance(item, tuple | list) and len(item) == 2):
            raise ValueError(f"a product factor must be a (name, space) pair, got {item!r}")
        name, space = item
        if not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(f"factor name {name!r} is not an identifier")
        if name in (seen for seen, _ in checked):
            raise ValueError(f"factor name {name!r} is used twice")
        if not isinstance(space, LoneSpace):
            raise ValueError(f"factor {name!r} must be a lone space (not a product), got {space!r}")
        checked.append((name, space))
    return checked
