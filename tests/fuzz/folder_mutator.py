"""Build folders as a stranger might hand them over, run through `merge` and `gallery`.

Shards of one run (to merge) and single builds (to show in a gallery page, or print as a
booklet) are built once from shipped specs; each input copies one pair or one folder and
damages it: result.json edited at any depth (values of other types, huge, negative, NaN,
hostile texts; keys taken out or added), a file cut short or replaced by other bytes, by a
folder or by a symbolic link, a file added, or one taken away. A guarded worker
(spec_mutator.Runner) runs the command under a memory limit and a time limit. An input
passes when it exits 0, or exits 1 or 2 with one line saying what is wrong, and no page it
wrote holds a hostile text as markup.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .spec_mutator import SPECS, Runner

MARKUP = "<script>alert(1)</script>"
NAMED_MARKUP = "<img src=x onerror=alert(1)>.svg"  # a file name a page would show
MARKS = (MARKUP, NAMED_MARKUP.removesuffix(".svg"))  # either, unescaped on a page, fails
ONE_LINE = ("error: ", "usage error: ")
# spec -> its --param flags: built as two shards each, to merge
SHARDED = {
    "n-queens.yaml": ["--param", "n=6"],
    "sudoku-4x4.epcg": [],
    "tracery-weather.epcg": [],
    "wfc-pipes.yaml": [],
    "witness-must-cross.yaml": ["--param", "hexagons=2"],
    "ppg-escape-room.yaml": [],
}
SINGLE = (  # built whole, for `gallery` and `gallery --print`
    "fling-5x5.yaml",
    "rooms-house.yaml",
    "nested-dungeon.epcg",
    "witness-panel.yaml",
    "ppg-levers.epcg",
    "sicherman-dice.yaml",
    "wfc-hex-pipes.yaml",
    "wfc-voxel-terrain.yaml",
    "tracery-heroes.yaml",
    "sudoku-16.yaml",
)
_VALUES = (
    None, True, 0, -1, 1, 3, 2**63, -(2**63), 10**400, 1.5, float("nan"), float("inf"),
    "", "x", MARKUP, "../../etc/passwd", "/etc/passwd", "a\x00b", "²", "9" * 5000,
    [], [1], [None], {}, {"a": 1}, [[[[[]]]]], {"index": 0, "count": 1, "lo": 0, "hi": 1},
)  # fmt: skip
_KEYS = ("files", "partial", "shard", "best", "outputs", "puzzles", "state", MARKUP)
_NAMES = ("best-0.svg", "puzzle-0.txt", "outputs.txt", "index.html", NAMED_MARKUP, "x.png")


def build_folders(root: Path, sharded: dict[str, list[str]], single: tuple[str, ...]) -> None:
    """Build each sharded spec as root/NAME-0 and root/NAME-1, each single one as root/NAME
    (what the builds print is dropped)."""
    from epcg_spec.cli.main import main

    with contextlib.redirect_stdout(io.StringIO()):
        for name, flags in sharded.items():
            for i in (0, 1):
                out = root / f"{Path(name).stem}-{i}"
                argv = ["build", str(SPECS / name), *flags, "--shard", f"{i}/2", "-q", "--out"]
                assert main([*argv, str(out)]) == 0, name
        for name in single:
            out = root / Path(name).stem
            assert main(["build", str(SPECS / name), "-q", "--out", str(out)]) == 0, name


def _places(node: Any, at: tuple = ()) -> list[tuple]:
    """The path of every value in a JSON document, down to a depth of 40."""
    found = [at]
    if len(at) < 40 and isinstance(node, dict):
        found += [p for key, inner in node.items() for p in _places(inner, (*at, key))]
    elif len(at) < 40 and isinstance(node, list):
        found += [p for i, inner in enumerate(node) for p in _places(inner, (*at, i))]
    return found


def mutate_result(data: Any, rng: random.Random) -> Any:
    """`data` (a result.json's document) edited once to three times, in place."""
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        at = rng.choice(_places(data))
        if not at:
            continue
        parent = data
        for key in at[:-1]:
            parent = parent[key]
        value, roll = parent[at[-1]], rng.random()
        if roll < 0.15 and isinstance(parent, dict):
            del parent[at[-1]]
        elif roll < 0.25 and isinstance(parent, list):
            parent.append(rng.choice((rng.choice(_VALUES), value)))
        elif roll < 0.35 and isinstance(parent, dict):
            parent[rng.choice(_KEYS)] = rng.choice(_VALUES)
        elif isinstance(value, int) and not isinstance(value, bool) and roll < 0.65:
            parent[at[-1]] = value + rng.choice((-1, 1, 7, -1000, 10**6))
        elif isinstance(value, str) and roll < 0.65:
            parent[at[-1]] = rng.choice((value + MARKUP, "../" + value, value * 2, value[:1]))
        else:
            parent[at[-1]] = rng.choice(_VALUES)
    return data


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def mutate_folder(folder: Path, rng: random.Random) -> None:
    """Damage one build folder once (see the module docstring)."""
    files, roll = sorted(folder.iterdir()), rng.random()
    chosen = rng.choice(files) if files else folder / "result.json"
    if roll < 0.6 and (folder / "result.json").is_file():
        path = folder / "result.json"
        try:
            text = json.dumps(mutate_result(json.loads(path.read_text()), rng))
        except ValueError:  # damaged already, by an earlier mutation
            return
        path.write_text(text[: rng.randrange(len(text) + 1)] if rng.random() < 0.05 else text)
    elif roll < 0.7 and chosen.is_file():
        data = chosen.read_bytes()
        cut = data[: rng.randrange(len(data) + 1)]
        chosen.write_bytes(cut if rng.random() < 0.5 else rng.randbytes(64))
    elif roll < 0.78 and chosen.exists():
        _remove(chosen)
        chosen.mkdir()
    elif roll < 0.84 and chosen.exists():
        _remove(chosen)
        chosen.symlink_to("/etc/passwd")
    elif roll < 0.9:
        added = folder / rng.choice(_NAMES)
        if not added.is_dir():
            added.write_text(MARKUP)
    elif chosen.exists() or chosen.is_symlink():
        _remove(chosen)


@dataclass
class FolderOutcome:
    argv: list[str]
    code: int | str
    output: str
    markup_in: list[str] = field(default_factory=list)  # pages written holding MARKS

    @property
    def ok(self) -> bool:
        """Exit 0, or exit 1 or 2 with one line saying so (beside what was written before,
        such as a booklet); no page with hostile markup."""
        if self.markup_in:
            return False
        said = [line for line in self.output.splitlines() if line.startswith(ONE_LINE)]
        return self.code == 0 or (self.code in (1, 2) and len(said) == 1)


@dataclass
class FolderFigures:
    tried: int = 0
    exits: Counter = field(default_factory=Counter)  # (command, code) -> inputs
    failures: list[FolderOutcome] = field(default_factory=list)


def _pages(folder: Path) -> dict[Path, int]:
    return {
        page: page.stat().st_mtime_ns
        for page in folder.rglob("*.html")
        if page.is_file() and not page.is_symlink()
    }


def _next_input(built: Path, work: Path, rng: random.Random) -> list[str]:
    """Copy one pair or folder of `built` into `work`, damage it; the command to run."""
    shards = sorted({p.name[:-2] for p in built.glob("*-[01]") if p.is_dir()})
    singles = sorted(p.name for p in built.iterdir() if p.is_dir() and p.name[:-2] not in shards)
    if singles and rng.random() < 0.4:
        folder = work / "s0"
        shutil.copytree(built / rng.choice(singles), folder, symlinks=True)
        mutate_folder(folder, rng)
        return ["gallery", str(folder), *(["--print"] if rng.random() < 0.5 else [])]
    name = rng.choice(shards)
    folders = [work / f"s{i}" for i in (0, 1)]
    for i, folder in enumerate(folders):
        shutil.copytree(built / f"{name}-{i}", folder, symlinks=True)
    for _ in range(rng.choice((1, 1, 2))):
        mutate_folder(rng.choice(folders), rng)
    command = rng.choice(("merge", "gallery", "gallery of one"))
    if command == "gallery of one":
        return ["gallery", str(rng.choice(folders))]
    return [command, *map(str, folders), "--out", str(work / "out")]


def run_folder_fuzz(
    seed: int, count: int, built: Path, work: Path, time_limit: float = 20.0
) -> FolderFigures:
    """Run `count` damaged copies of the folders in `built` (see build_folders), each in a
    fresh folder under `work`; the figures and every failing input."""
    rng, figures = random.Random(seed), FolderFigures()
    runner = Runner(work, time_limit)
    try:
        for _ in range(count):
            inputs = work / "input"
            shutil.rmtree(inputs, ignore_errors=True)
            inputs.mkdir()
            argv = _next_input(built, inputs, rng)
            before = _pages(inputs)
            code, output, _ = runner.run_argv(argv)
            written = [p for p, stamp in _pages(inputs).items() if before.get(p) != stamp]
            texts = {p: p.read_text(errors="replace") for p in written}
            marked = [str(p) for p, text in texts.items() if any(m in text for m in MARKS)]
            outcome = FolderOutcome(argv, code, output, marked)
            figures.tried += 1
            figures.exits[argv[0] + (" --print" if "--print" in argv else ""), code] += 1
            if not outcome.ok:
                figures.failures.append(outcome)
    finally:
        runner.close()
    return figures
