"""Python source of the `space_*` kernels of any space, for generated connector modules.

The engine writes this source into a content-addressed module (compile/connector.py), so
numba caches it and inlines the type kernels, which it imports by module-level name. `S` is
`space_kernel_args(space)`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from epcg_spec.spaces.base import RankedSpace


class _Part(NamedTuple):
    """One lone space of the state as the generated code sees it.

    Offsets and sizes are read from the layout array (the last element of S), never written
    into the source, so one compiled module serves a space shape at every size.
    """

    off: str
    size: str
    after: str  # product of the sizes of the parts after this one
    unrank: str
    rank: str
    skip: str
    subtree: str
    first: str
    next: str
    candidates: str
    args: str  # "S[2f], S[2f+1]"


def space_kernel_source(space: RankedSpace) -> tuple[list[str], str]:
    """(import lines, source) defining, for `space` (lone or product):

    space_unrank(r, x, S), space_rank(x, S) -> int64,
    space_skip(x, depth, S) -> lowest changed position or -1,
    space_subtree(x, depth, S) -> int64,
    space_first(x, p, S) -> bool and space_next(x, p, S) -> bool (set / advance x[p] after
    the prefix x[:p], for a depth-first walk; prefix-ordered spaces only),
    space_candidates(x, p, S) -> uint64 (the values x[p] can take after the prefix, as a
    mask; for spaces whose values are all below 64, see RankedSpace.mask_walkable),
    space_uniform(x, p, S) -> bool (the subtree under x[:p+1] has the same size whatever
    x[p] is),
    with positions and depths over the whole state (see `Kernels` for the contracts).
    """
    space.check_fits()
    modules: dict[str, set[str]] = {}
    parts = []
    lone_parts = space.lone_parts()
    layout = f"S[{2 * len(lone_parts)}]"
    for f, (_, lone) in enumerate(lone_parts):
        k = lone.kernels
        funcs = [k.unrank, k.rank, k.skip, k.subtree, k.first, k.next, k.candidates]
        names = [func.__name__ for func in funcs]
        for func, name in zip(funcs, names, strict=True):
            modules.setdefault(func.__module__, set()).add(name)
        args = f"S[{2 * f}], S[{2 * f + 1}]"
        off, size, after = (f"{layout}[{3 * f + i}]" for i in range(3))
        parts.append(_Part(off, size, after, *names, args))
    imports = ["import numpy as np", "from numba import njit"] + [
        f"from {module} import {', '.join(sorted(names))}"
        for module, names in sorted(modules.items())
    ]
    functions = [
        ("space_unrank(r, x, S)", _unrank_body(parts)),
        ("space_rank(x, S)", _rank_body(parts)),
        ("space_skip(x, depth, S)", _skip_body(parts)),
        ("space_subtree(x, depth, S)", _subtree_body(parts)),
        ("space_first(x, p, S)", _walk_body(parts, "first")),
        ("space_next(x, p, S)", _walk_body(parts, "next")),
        ("space_candidates(x, p, S)", _walk_body(parts, "candidates", "np.uint64(0)")),
        ("space_uniform(x, p, S)", _uniform_body(parts, [lone for _, lone in lone_parts])),
    ]
    source = "\n\n\n".join(
        "\n".join(
            [
                '@njit(cache=True, inline="always")',
                f"def {signature}:",
                *(f"    {line}" for line in body),
            ]
        )
        for signature, body in functions
    )
    return imports, source + "\n"


def _unrank_body(parts: list[_Part]) -> list[str]:
    body = []
    for p in reversed(parts[1:]):
        body += [f"{p.unrank}(r % {p.size}, x, {p.off}, {p.args})", f"r //= {p.size}"]
    return [*body, f"{parts[0].unrank}(r, x, 0, {parts[0].args})"]


def _rank_body(parts: list[_Part]) -> list[str]:
    body = [f"r = {parts[0].rank}(x, 0, {parts[0].args})"]
    body += [f"r = r * {p.size} + {p.rank}(x, {p.off}, {p.args})" for p in parts[1:]]
    return [*body, "return r"]


def _skip_body(parts: list[_Part]) -> list[str]:
    # From the last part back: a part after the prefix gets local depth 0 (back to its first
    # state); a part that wraps carries into the part before it, at that part's full length.
    body = ["d = depth"]
    for part in reversed(parts[1:]):
        body += [
            f"c = {part.skip}(x, {part.off}, max(d - {part.off}, 0), {part.args})",
            "if c >= 0:",
            f"    return c + {part.off}",
            f"d = min(d, {part.off})",
        ]
    return [*body, f"return {parts[0].skip}(x, 0, d, {parts[0].args})"]


def _subtree_body(parts: list[_Part]) -> list[str]:
    body = []
    for part in reversed(parts[1:]):
        call = f"{part.subtree}(x, {part.off}, depth - {part.off}, {part.args})"
        body += [f"if depth > {part.off}:", f"    return {_scaled(call, part.after)}"]
    call = f"{parts[0].subtree}(x, 0, depth, {parts[0].args})"
    return [*body, f"return {_scaled(call, parts[0].after)}"]


def _walk_body(parts: list[_Part], kernel: str, none: str = "False") -> list[str]:
    body = ["if p >= x.shape[0]:", f"    return {none}"]
    for part in reversed(parts[1:]):
        call = f"{getattr(part, kernel)}(x, {part.off}, p - {part.off}, {part.args})"
        body += [f"if p >= {part.off}:", f"    return {call}"]
    return [*body, f"return {getattr(parts[0], kernel)}(x, 0, p, {parts[0].args})"]


def _uniform_body(parts: list[_Part], lones: list) -> list[str]:
    body = []
    for part, lone in reversed(list(zip(parts[1:], lones[1:], strict=True))):
        body += [f"if p >= {part.off}:", f"    return {lone.uniform_subtrees}"]
    return [*body, f"return {lones[0].uniform_subtrees}"]


def _scaled(call: str, factor: str) -> str:
    return f"{call} * {factor}"


def space_kernel_args(space: RankedSpace) -> tuple[np.ndarray, ...]:
    """The tuple S the generated `space_*` kernels take: each lone part's (prm, tab), then
    the layout array (offset, size, product of the sizes after it) per part."""
    parts = space.lone_parts()
    layout, after = [], space.max_rank
    for off, lone in parts:
        after //= lone.max_rank
        layout += [off, lone.max_rank, after]
    return (*space.kernel_args(), np.array(layout, dtype=np.int64))
