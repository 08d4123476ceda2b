"""The tiled model: tile variants under their symmetry, and neighbour rules closed under it.

Symmetry letters and variant numbering follow the reference (mxgmn/WaveFunctionCollapse):
variant k < 4 of a tile is its base image turned k quarter turns counter-clockwise
(np.rot90), variant k >= 4 (letter F only) is variant k - 4 mirrored left to right. A rule
"A left of B" holds in every orientation: its images under the 8 symmetries of the square
give the allowed horizontal and vertical pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .patterns import check_variants

TILE_FIX = "use fewer tiles, or tiles with fewer symmetries"

# letter -> (cardinality, rotation a(i), reflection b(i)) acting on variant indices
SYMMETRIES = {
    "X": (1, lambda i: i, lambda i: i),
    "I": (2, lambda i: 1 - i, lambda i: i),
    "\\": (2, lambda i: 1 - i, lambda i: 1 - i),
    "L": (4, lambda i: (i + 1) % 4, lambda i: i + 1 if i % 2 == 0 else i - 1),
    "T": (4, lambda i: (i + 1) % 4, lambda i: i if i % 2 == 0 else 4 - i),
    "F": (8, lambda i: (i + 1) % 4 if i < 4 else 4 + (i - 1) % 4, lambda i: (i + 4) % 8),
}
DIRECTIONS = ("right", "up", "left", "down")


def local_actions(letter: str) -> np.ndarray:
    """(cardinality, 8): the variant that symmetry s makes of variant t.

    s = 0..3 are 0..3 quarter turns; s = 4..7 are a reflection after 0..3 quarter turns.
    """
    cardinality, a, b = SYMMETRIES[letter]
    table = np.zeros((cardinality, 8), dtype=np.int64)
    for t in range(cardinality):
        turns = [t, a(t), a(a(t)), a(a(a(t)))]
        table[t] = turns + [b(x) for x in turns]
    return table


@dataclass(frozen=True)
class TileDef:
    """One tile as the tileset declares it."""

    name: str
    symmetry: str
    weight: float
    images: tuple[np.ndarray, ...]  # one base image, or one per variant (unique tilesets)
    air: bool = False  # cube: the voxel stays empty in the .vox and the preview
    code: int | None = None  # the tile's id in the example map it was learned from
    labels: tuple[str, ...] | None = None  # hex, cube: a label per side, in direction order


@dataclass
class TiledModel:
    """Every tile variant, with weights, images and the allowed neighbour pairs."""

    names: list[str]  # "name k"
    tile_of: np.ndarray  # variant -> tile index
    tiles: list[TileDef]
    weights: np.ndarray
    images: np.ndarray  # (variants, S, S, 3) uint8
    actions: np.ndarray  # (variants, 8) global variant indices
    first: dict[str, int]  # tile name -> its first variant
    sides: np.ndarray  # sides[d, a, b]: b may stand in direction d of a (square: right, down)
    makers: list[tuple[int, ...]] | None = None  # hex, cube: the symmetry giving each variant

    @property
    def right(self) -> np.ndarray:
        """right[a, b]: b may stand right of a (square grids)."""
        return self.sides[0]

    @property
    def down(self) -> np.ndarray:
        """down[a, b]: b may stand below a (square grids)."""
        return self.sides[3]

    @property
    def count(self) -> int:
        return len(self.names)

    @classmethod
    def of(
        cls, names, tile_of, tiles, weights, images, actions, first, directions: int, makers=None
    ) -> TiledModel:
        """A model from the lists its builder gathered, with no neighbour pair allowed yet."""
        check_variants(len(names), directions, "tile variants (tiles and their turns)", TILE_FIX)
        return cls(
            names=names,
            tile_of=np.array(tile_of, dtype=np.int64),
            tiles=tiles,
            weights=np.array(weights, dtype=np.float64),
            images=np.ascontiguousarray(np.stack(images)),
            actions=np.stack(actions),
            first=first,
            sides=np.zeros((directions, len(names), len(names)), dtype=bool),
            makers=makers,
        )

    def variants(self, tile: str) -> list[int]:
        """Every variant of a tile name."""
        index = self.tile_of[self.first[tile]]
        return [int(v) for v in np.flatnonzero(self.tile_of == index)]


def build_variants(tiles: list[TileDef]) -> TiledModel:
    """Variants, images and actions; the rules are added by `add_rules`."""
    names: list[str] = []
    tile_of: list[int] = []
    weights: list[float] = []
    images: list[np.ndarray] = []
    actions: list[np.ndarray] = []
    first: dict[str, int] = {}
    for index, tile in enumerate(tiles):
        start = len(names)
        first[tile.name] = start
        table = local_actions(tile.symmetry)
        for t in range(len(table)):
            names.append(f"{tile.name} {t}")
            tile_of.append(index)
            weights.append(tile.weight)
            actions.append(table[t] + start)
            if len(tile.images) > 1:
                images.append(tile.images[t])
            elif t == 0:
                images.append(tile.images[0])
            elif t < 4:
                images.append(np.rot90(images[start + t - 1]))
            else:
                images.append(images[start + t - 4][:, ::-1])
    return TiledModel.of(names, tile_of, tiles, weights, images, actions, first, len(DIRECTIONS))


def add_rule(model: TiledModel, left: int, right: int) -> None:
    """Allow variant `left` left of variant `right`, in every orientation of the pair."""
    act = model.actions
    # the pair's images that stay horizontal: identity, vertical flip, horizontal flip, half turn
    for a, b in ((left, right), (act[left, 6], act[right, 6])):
        model.right[a, b] = True
    for a, b in ((act[right, 4], act[left, 4]), (act[right, 2], act[left, 2])):
        model.right[a, b] = True
    # a quarter turn puts the left tile below the right one
    below, above = act[left, 1], act[right, 1]
    for a, b in ((above, below), (act[below, 6], act[above, 6])):
        model.down[a, b] = True
    for a, b in ((act[above, 4], act[below, 4]), (act[below, 2], act[above, 2])):
        model.down[a, b] = True


def rotate_exits(exits: set[str], variant: int) -> set[str]:
    """The sides (right, up, left, down) a variant opens, from its base tile's sides."""
    turns = variant % 4
    out = {DIRECTIONS[(DIRECTIONS.index(d) + turns) % 4] for d in exits}
    if variant >= 4:
        mirror = {"right": "left", "left": "right", "up": "up", "down": "down"}
        out = {mirror[d] for d in out}
    return out
