"""A judged board as result.json reports it, and as its text and SVG files."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...core.sizes import counted
from .expert import Verdict
from .kernels import Geometry
from .render import board_svg, board_text, first_flings, move_text, picture


@dataclass(frozen=True)
class JudgedBoard:
    """A board (its rank among boards of as many pieces, its cells) and its verdict, said
    under the spec's rules (in its order)."""

    rank: int
    cells: list[int]
    verdict: Verdict
    geometry: Geometry
    rules: tuple[str, ...]

    @property
    def unique(self) -> dict[str, bool]:
        """Whether the board is unique under each of the spec's rules."""
        return {rule: self.verdict.unique[rule] for rule in self.rules}

    @cached_property
    def labels(self) -> dict[int, int]:
        g = self.geometry
        return first_flings(self.cells, self.verdict.solution, g.width, g.height)

    def entry(self) -> dict:
        """One board of result.json's `best` (or `samples`)."""
        g, verdict = self.geometry, self.verdict
        return {
            "rank": self.rank,
            "score": round(verdict.ratio, 6),
            "state": {
                "pieces": len(self.cells),
                "cells": self.cells,
                "picture": picture(self.cells, g.width, g.height),
            },
            "solvable": verdict.solvable,
            "unique": self.unique,
            "solution": [move_text(m, g.width) for m in verdict.solution],
            "labelled": board_text(self.cells, self.labels, g.width, g.height).split(),
            "solutions": verdict.solutions,
            "brute_tree": verdict.brute_tree,
            "expert_tree": verdict.expert_tree,
            "expert_follows_solution": verdict.expert_follows,
        }

    def files(self, stem: str) -> dict[str, str]:
        """`stem`.txt (the labelled picture, the verdict, the solution) and `stem`.svg."""
        g, verdict = self.geometry, self.verdict
        unique = ", ".join(f"{rule} {'yes' if ok else 'no'}" for rule, ok in self.unique.items())
        lines = [
            board_text(self.cells, self.labels, g.width, g.height),
            f"pieces: {len(self.cells)}  rank: {self.rank}",
            f"solvable: {'yes' if verdict.solvable else 'no'}  unique: {unique}",
            f"brute-force tree: {counted(verdict.brute_tree, 'node')}; expert's tree: "
            f"{counted(verdict.expert_tree, 'node')}; ratio {verdict.ratio:.3f}",
            "solution (each piece above shows the step at which it is first flung):"
            if verdict.solvable
            else "solution: none (no sequence of moves leaves one piece)",
            *(f"  {i}. {move_text(m, g.width)}" for i, m in enumerate(verdict.solution, 1)),
        ]
        title = f"{stem}: {len(self.cells)} pieces, expert ratio {verdict.ratio:.3f}"
        return {
            f"{stem}.txt": "\n".join(lines) + "\n",
            f"{stem}.svg": board_svg(self.cells, self.labels, g.width, g.height, title),
        }
