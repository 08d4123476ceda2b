"""Tile variants on hex and cube grids: orbits under the grid's symmetries, rules closed under them.

A grid's symmetry group acts on its directions: element s < t is s turns counter-clockwise,
element s >= t the mirror after s - t turns (t = 6 on hex, 4 on cube), as the square's
letters number theirs. A symmetry letter names the stabiliser of a tile's base image; its
variants are the cosets, numbered in order of the first element reaching each.

Hex letters (directions 0..5 counter-clockwise, 0 = east pointy / northeast flat):
X all six sides alike (1 variant); I a line through sides 0 and 3 (3); Y sides 0, 2, 4 (2);
T mirror-symmetric about the axis through side 0 (6); L mirror-symmetric about the axis between
sides 0 and 1 (6); F no symmetry (12). Cube tiles turn about the vertical axis and take the
square's letters (X, I, \\, L, T, F), with the same base orientation as on the square.

A rule "b stands in direction d of a" holds in every orientation: its image under element g
allows g(b) in direction g(d) of g(a), and the opposite direction the transposed pair.
"""

from __future__ import annotations

import numpy as np

from .tiles import SYMMETRIES, TileDef, TiledModel, local_actions
from .topology import Topology

HEX_LETTERS = {
    "X": tuple(range(12)),
    "I": (0, 3, 6, 9),
    "Y": (0, 2, 4, 6, 8, 10),
    "T": (0, 6),
    "L": (0, 11),
    "F": (0,),
}


def elements(topology: Topology) -> list[tuple[int, ...]]:
    """The grid's symmetries as permutations of its directions, in the letters' order (with
    `spin: all`, the cube's 24 turns in the order a breadth-first walk over a turn about the
    vertical and one about the east axis meets them), then each after the mirror."""
    turn, mirror = topology.rotation, topology.mirror
    out = []
    perm = tuple(range(len(turn)))
    for _ in range(topology.turns):
        out.append(perm)
        perm = tuple(turn[d] for d in perm)
    if topology.spin == "all":
        for p in out:  # the list grows while the walk goes on
            for step in (turn, topology.tilt):
                nxt = tuple(step[d] for d in p)
                if nxt not in out:
                    out.append(nxt)
    return out + [tuple(mirror[d] for d in p) for p in out]


def letters(topology: Topology) -> dict[str, tuple[int, ...]]:
    """Symmetry letter -> the elements that fix a tile's base image."""
    if topology.grid == "hex":
        return HEX_LETTERS
    return {k: tuple(np.flatnonzero(local_actions(k)[0] == 0)) for k in SYMMETRIES}


def orbit(
    topology: Topology, letter: str, labels: tuple[str, ...] | None = None
) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """(actions (variants, elements): the variant element s makes of variant k, and the
    element that turns the base image into each variant). With `labels` (and no letter) the
    stabiliser is every symmetry that keeps the side labels in place."""
    group = elements(topology)
    if labels is not None and letter not in letters(topology):
        stabiliser = [group[s] for s in sorted(_keeping(topology, labels))]
    else:
        stabiliser = [group[s] for s in letters(topology)[letter]]

    def coset(g):
        return frozenset(tuple(g[h[d]] for d in range(len(g))) for h in stabiliser)

    cosets: dict[frozenset, int] = {}
    makers: list[tuple[int, ...]] = []
    for g in group:
        key = coset(g)
        if key not in cosets:
            cosets[key] = len(makers)
            makers.append(g)
    actions = np.array(
        [[cosets[coset(tuple(g[m[d]] for d in range(len(g))))] for g in group] for m in makers],
        dtype=np.int64,
    )
    return actions, makers


def build_world_variants(tiles: list[TileDef], topology: Topology) -> TiledModel:
    """Variants of every tile (drawn by its one image), with empty rule tables per direction."""
    names, tile_of, weights, images, actions, makers = [], [], [], [], [], []
    first: dict[str, int] = {}
    for index, tile in enumerate(tiles):
        start = len(names)
        first[tile.name] = start
        table, made = orbit(topology, tile.symmetry, tile.labels)
        for k in range(len(table)):
            names.append(f"{tile.name} {k}")
            tile_of.append(index)
            weights.append(tile.weight)
            images.append(tile.images[0])
            actions.append(table[k] + start)
        makers += made
    directions = len(topology.directions)
    return TiledModel.of(names, tile_of, tiles, weights, images, actions, first, directions, makers)


def add_world_rule(model: TiledModel, topology: Topology, a: int, b: int, d: int) -> None:
    """Allow variant b in direction d of variant a, in every orientation of the pair."""
    for s, g in enumerate(elements(topology)):
        ga, gb = model.actions[a, s], model.actions[b, s]
        model.sides[g[d], ga, gb] = True
        model.sides[topology.opposite(g[d]), gb, ga] = True


def _keeping(topology: Topology, labels: tuple[str, ...]) -> frozenset[int]:
    """The symmetries (numbered as `elements` lists them) that map the labels onto themselves."""
    return frozenset(
        s
        for s, g in enumerate(elements(topology))
        if all(labels[g[d]] == labels[d] for d in range(len(labels)))
    )


def labels_fit(topology: Topology, letter: str, labels: tuple[str, ...]) -> bool:
    """True if every symmetry the letter claims maps the side labels onto themselves."""
    return set(letters(topology)[letter]) <= _keeping(topology, labels)


def letter_of(
    topology: Topology, labels: tuple[str, ...]
) -> tuple[str | None, tuple[str, ...] | None]:
    """The letter that names the symmetries of the side labels, and None; where no letter
    does but one names those of the labels turned (a dead end towards side 1: a T turned),
    that letter and the turned labels; else (None, None): only F fits them (on hex grids, a
    half turn alone keeps the labels in place)."""
    named = {frozenset(claimed): letter for letter, claimed in letters(topology).items()}
    for g in elements(topology)[: topology.turns]:  # no turn first
        turned = tuple(labels[g[d]] for d in range(len(labels)))
        letter = named.get(_keeping(topology, turned))
        if letter is not None:
            return letter, None if turned == labels else turned
    return None, None


def add_label_rules(model: TiledModel, topology: Topology) -> None:
    """Allow b in direction d of a wherever a's side d and b's opposite side share a label."""
    count = model.count
    sides = np.empty((count, len(topology.directions)), dtype=object)
    for v in range(count):
        base = model.tiles[model.tile_of[v]].labels
        for d, label in enumerate(base):
            sides[v, model.makers[v][d]] = label
    for d in range(len(topology.directions)):
        facing = sides[:, topology.opposite(d)]
        model.sides[d] |= sides[:, d][:, None] == facing[None, :]


def variant_exits(model: TiledModel, variant: int, exits: set[int]) -> set[int]:
    """The directions a variant opens, from the directions its base tile opens."""
    maker = model.makers[variant]
    return {maker[d] for d in exits}
