"""Plain-Python references for the ranked spaces.

A prefix-ordered space is described by the values a position may take after a prefix and the
number of completions of a prefix (exact Python integers, math.comb and friends); rank, unrank
and skip are walks down that prefix tree, independent of the kernels' formulas (mixed radix
and products rank by divmod instead, as one radix may be too wide to walk).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb, perm, prod

Prefix = tuple[int, ...]


class Oracle:
    """A prefix-ordered space: choices(prefix) ascending, count(prefix) completions."""

    def __init__(
        self,
        length: int,
        choices: Callable[[Prefix], Sequence[int]],
        count: Callable[[Prefix], int],
    ):
        self.length = length
        self.choices = choices
        self.count = count
        self.size = count(())

    def unrank(self, r: int) -> Prefix:
        prefix: Prefix = ()
        while len(prefix) < self.length:
            for v in self.choices(prefix):
                c = self.count((*prefix, v))
                if r < c:
                    prefix = (*prefix, v)
                    break
                r -= c
        return prefix

    def rank(self, state: Sequence[int]) -> int:
        state = tuple(state)
        r = 0
        for i, value in enumerate(state):
            for v in self.choices(state[:i]):
                if v == value:
                    break
                r += self.count((*state[:i], v))
        return r

    def first(self, prefix: Sequence[int]) -> Prefix:
        """The smallest state starting with `prefix`."""
        state = tuple(prefix)
        while len(state) < self.length:
            state = (*state, next(v for v in self.choices(state) if self.count((*state, v))))
        return state

    def skip(self, state: Sequence[int], depth: int) -> tuple[Prefix, int]:
        """(the first state after the subtree of state[:depth], lowest changed position or -1)."""
        state = tuple(state)
        after = self.rank(self.first(state[:depth])) + self.count(state[:depth])
        if after == self.size:
            return self.unrank(0), -1
        new = self.unrank(after)
        return new, next(i for i in range(self.length) if new[i] != state[i])


def combination(n: int, k: int) -> Oracle:
    def choices(p: Prefix) -> range:
        return range(p[-1] + 1 if p else 0, n)

    def count(p: Prefix) -> int:
        return comb(n - 1 - p[-1], k - len(p)) if p else comb(n, k)

    return Oracle(k, choices, count)


def multiset(n: int, k: int) -> Oracle:
    def choices(p: Prefix) -> range:
        return range(p[-1] if p else 0, n)

    def count(p: Prefix) -> int:
        values = n - p[-1] if p else n
        return comb(values + k - len(p) - 1, k - len(p))

    return Oracle(k, choices, count)


def kpermutation(n: int, k: int) -> Oracle:
    def choices(p: Prefix) -> list[int]:
        return sorted(set(range(n)) - set(p))

    def count(p: Prefix) -> int:
        return perm(n - len(p), k - len(p))

    return Oracle(k, choices, count)


def permutation(n: int) -> Oracle:
    return kpermutation(n, n)


class RadixOracle(Oracle):
    """Mixed radix; rank and unrank by divmod, as a radix may be too large to walk."""

    def __init__(self, radices: Sequence[int]):
        self.radices = list(radices)
        super().__init__(
            len(radices), lambda p: range(radices[len(p)]), lambda p: prod(radices[len(p) :])
        )

    def unrank(self, r: int) -> Prefix:
        digits = []
        for radix in reversed(self.radices):
            r, digit = divmod(r, radix)
            digits.append(digit)
        return tuple(reversed(digits))

    def rank(self, state: Sequence[int]) -> int:
        r = 0
        for radix, digit in zip(self.radices, state, strict=True):
            r = r * radix + digit
        return r


def radix(radices: Sequence[int]) -> Oracle:
    return RadixOracle(radices)


class ProductOracle(Oracle):
    """Factors side by side, factor 0 most significant."""

    def __init__(self, factors: Sequence[Oracle]):
        self.factors = list(factors)
        self.offsets = [sum(f.length for f in factors[:i]) for i in range(len(factors))]
        self.after = [prod(f.size for f in factors[i + 1 :]) for i in range(len(factors))]
        super().__init__(sum(f.length for f in factors), self._choices, self._count)

    def _filling(self, p: Prefix) -> int:
        """The factor that the next position belongs to."""
        return next(i for i, f in enumerate(self.factors) if self.offsets[i] + f.length > len(p))

    def _choices(self, p: Prefix) -> Sequence[int]:
        f = self._filling(p)
        return self.factors[f].choices(p[self.offsets[f] :])

    def _count(self, p: Prefix) -> int:
        if len(p) == sum(f.length for f in self.factors):
            return 1
        f = self._filling(p)
        return self.factors[f].count(p[self.offsets[f] :]) * self.after[f]

    def unrank(self, r: int) -> Prefix:
        parts = []
        for factor in reversed(self.factors):
            r, local = divmod(r, factor.size)
            parts.append(factor.unrank(local))
        return sum(reversed(parts), ())

    def rank(self, state: Sequence[int]) -> int:
        r = 0
        for factor, off in zip(self.factors, self.offsets, strict=True):
            r = r * factor.size + factor.rank(tuple(state[off : off + factor.length]))
        return r


def product(factors: Sequence[Oracle]) -> Oracle:
    return ProductOracle(factors)


def myrvold_ruskey_unrank(n: int, r: int) -> list[int]:
    """unrank1 of Myrvold & Ruskey (2001), as published (recursive)."""
    pi = list(range(n))

    def unrank1(m: int, r: int) -> None:
        if m > 0:
            pi[m - 1], pi[r % m] = pi[r % m], pi[m - 1]
            unrank1(m - 1, r // m)

    unrank1(n, r)
    return pi


def myrvold_ruskey_rank(state: Sequence[int]) -> int:
    """rank1 of Myrvold & Ruskey (2001), as published (recursive)."""
    pi = list(state)
    inverse = [0] * len(pi)
    for i, v in enumerate(pi):
        inverse[v] = i

    def rank1(m: int) -> int:
        if m == 1:
            return 0
        s = pi[m - 1]
        j = inverse[m - 1]
        pi[m - 1], pi[j] = pi[j], pi[m - 1]
        inverse[s], inverse[m - 1] = inverse[m - 1], inverse[s]
        return s + m * rank1(m - 1)

    return rank1(len(pi)) if pi else 0
