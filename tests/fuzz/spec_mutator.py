"""Mutated copies of the shipped specs, each run through `validate` in a guarded worker.

A seeded mutator (byte flips, deletions, duplicated and deeply nested nodes, alias bombs,
huge, negative and float numbers, hostile texts, control characters) makes each input; a
worker process runs `epcg_spec.cli.main.main(["validate", "-q", path])` (or another
command: `explain`) on it under a memory limit, and the parent kills it when an input
takes longer than the time limit. An input passes when it exits 0, or exits 1 printing
only located `file:line:col: message` lines.
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import random
import re
import resource
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

SPECS = Path(__file__).resolve().parents[2] / "specs"
LOCATED = re.compile(r"^.+:\d+:\d+: \S")
# a mutant of a file read as a format (a samples.xml, a Tracery .json) that no longer reads
# as one is no spec at all, which the tool says as it does of any such file (exit 2)
NOT_A_FORMAT = re.compile(r"^usage error: .+: not a spec file: a \.(xml|json) file is read as ")
_NUMBER = re.compile(r"(?<![\w.#])-?\d+(\.\d+)?(?![\w.])")
_ODD_NUMBERS = (
    "2147483648",
    "-2147483649",
    "9223372036854775808",
    "1" + "0" * 40,
    "-1",
    "0",
    "2000",
    "100000",
    "3.5",
    "2.0",
    "1e308",
    "-0.0",
    "1e-300",
    "1e999",  # read as infinity
    "9" * 5000,  # past the 4,300 digits Python reads
)
_ODD_TEXTS = (  # in place of a name, a rule text, a tile's name
    '"' + "[k:" * 600 + "x" + "]" * 600 + '"',  # Tracery actions nested 600 deep
    '"' + "#a" * 3000 + '"',
    '"' + "." * 3000 + '"',
    '"' + "\\u0000" + '"',
    '"' + "\\ud800" + '"',
    '"../../x"',
    '"a/b"',
    '"' + "é" * 200 + '"',
)
_CONTROL = ("\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\ufffe")
_FLIP = "{}[]():,;-&*!|>'\"#%@`?\\\n\t 0123456789azAZ_." + "".join(_CONTROL)


def shipped_specs() -> list[Path]:
    """Every spec file under specs/ (the same walk `validate specs/` makes)."""
    from epcg_spec.spec.load import discover

    return [path for path, _ in discover([SPECS])]


def _alias_bomb(rng: random.Random) -> str:
    levels = rng.choice((6, 9, 12))
    lines = ["bomb0: &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        refs = ", ".join([f"*b{i - 1}"] * 10)
        lines.append(f"bomb{i}: &b{i} [{refs}]")
    return "\n".join(lines) + "\n"


def _nest(rng: random.Random, yaml: bool) -> str:
    depth = rng.choice((60, 500, 5_000, 100_000))
    opener, closer = rng.choice((("[", "]"), ("{", "}"), ("(", ")"))) if not yaml else ("[", "]")
    inner = "1" if opener != "{" else "a: 1"
    closing = closer * depth if rng.random() < 0.7 else ""
    return opener * depth + inner + closing


def mutate_once(text: str, suffix: str, rng: random.Random) -> str:
    """`text` changed once, as a fuzzer would: one of the mutations the module docstring lists."""
    yaml = suffix in (".yaml", ".yml")
    pos = rng.randrange(len(text) + 1)
    op = rng.randrange(13)
    if op == 0:  # flip one character
        return text[:pos] + rng.choice(_FLIP) + text[pos + 1 :]
    if op == 1:  # delete a span
        return text[:pos] + text[pos + rng.randint(1, 40) :]
    if op == 2:  # duplicate a run of lines (duplicated nodes)
        lines = text.splitlines(keepends=True)
        if not lines:
            return text
        i = rng.randrange(len(lines))
        j = min(len(lines), i + rng.randint(1, 6))
        return "".join(lines[:j] + lines[i:j] * rng.randint(1, 3) + lines[j:])
    if op in (3, 10):  # a number becomes huge, negative or a float
        numbers = list(_NUMBER.finditer(text))
        if not numbers:
            return text
        m = rng.choice(numbers)
        return text[: m.start()] + rng.choice(_ODD_NUMBERS) + text[m.end() :]
    if op == 4:  # a control character
        return text[:pos] + rng.choice(_CONTROL) + text[pos:]
    if op == 5:  # deep nesting, in place of a value
        return _replace_value(text, _nest(rng, yaml), rng)
    if op == 6 and yaml:  # an alias bomb, used by a value
        bomb = _alias_bomb(rng)
        used = _replace_value(text, f"*b{bomb.count('&b') - 1}", rng)
        return bomb + used
    if op == 7 and yaml:  # a recursive alias, or a merge of itself
        return _replace_value(text, rng.choice(("&r [*r]", "&r {a: *r}", "&m {<<: *m}")), rng)
    if op == 8:  # a block of the file moved elsewhere (a node copied into another)
        a, b = sorted((rng.randrange(len(text) + 1), rng.randrange(len(text) + 1)))
        return text[:pos] + text[a : min(b, a + 400)] + text[pos:]
    if op == 12:  # a value becomes hostile text
        return _replace_value(text, rng.choice(_ODD_TEXTS), rng)
    if op == 9:  # a whole line deleted (a key left out)
        lines = text.splitlines(keepends=True)
        if lines:
            del lines[rng.randrange(len(lines))]
        return "".join(lines)
    # a whole value replaced by an odd number
    return _replace_value(text, rng.choice(_ODD_NUMBERS), rng)


def _replace_value(text: str, new: str, rng: random.Random) -> str:
    """Replace what follows a random ': ' on a line (a value) with `new`."""
    spots = [m.end() for m in re.finditer(r": ", text)]
    if not spots:
        return text + new
    at = rng.choice(spots)
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    return text[:at] + new + text[end:]


def mutants(seed: int, count: int, specs: list[Path] | None = None) -> Iterator[tuple[Path, str]]:
    """`count` (original spec, mutated text) pairs, the same for the same seed."""
    rng = random.Random(seed)
    specs = specs or shipped_specs()
    texts = {p: p.read_text(encoding="utf-8") for p in specs}
    for i in range(count):
        spec = specs[i % len(specs)]
        text = texts[spec]
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            text = mutate_once(text, spec.suffix, rng)
        yield spec, text


@dataclass
class Outcome:
    """What validate did with one input."""

    spec: str
    code: int | str
    output: str
    seconds: float
    text: str

    @property
    def ok(self) -> bool:
        """Exit 0, or exit 1 with only located lines (at least one); or, for a file read as
        a format, exit 2 saying it is not one (NOT_A_FORMAT)."""
        if self.code == 0:
            return True
        lines = self.output.splitlines()
        if self.code == 2 and Path(self.spec).suffix in (".xml", ".json"):
            return len(lines) == 1 and bool(NOT_A_FORMAT.match(lines[0]))
        return self.code == 1 and bool(lines) and all(LOCATED.match(s) for s in lines)


@dataclass
class Figures:
    """Totals over a run."""

    tried: int = 0
    exits: dict = field(default_factory=dict)
    slowest: Outcome | None = None
    peak_rss_mib: float = 0.0
    failures: list = field(default_factory=list)


def _worker(conn, folder: str, memory_bytes: int, command: tuple[str, ...]) -> None:
    os.environ["EPCG_CACHE_DIR"] = str(Path(folder) / ".cache")  # crash logs stay here
    from epcg_spec.cli.main import main

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as f:
        base = int(f.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (base + memory_bytes, hard))
    while True:
        job = conn.recv()
        if job is None:
            return
        argv, spec = job  # spec: (name, text) of a spec file to write first, named last
        original = None
        if spec is not None:
            name, text = spec
            path = Path(folder) / name
            original = path.resolve() if path.is_symlink() else None
            path.unlink(missing_ok=True)  # never write through the link to a shipped spec
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            argv = [*command, str(path)]
        out = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = main(argv)
            except BaseException as exc:
                code = f"raised {type(exc).__name__}"
        seconds = time.perf_counter() - start
        if original is not None:  # the other specs see the shipped one again
            path.unlink()
            path.symlink_to(original)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        conn.send((code, out.getvalue(), seconds, rss))


class Runner:
    """A worker process fed one input at a time, replaced when it hangs or dies."""

    def __init__(
        self,
        folder: Path,
        time_limit: float,
        memory_mib: int = 1024,
        command: tuple[str, ...] = ("validate", "-q"),
    ) -> None:
        self.folder, self.time_limit, self.memory = folder, time_limit, memory_mib << 20
        self.command = command
        for child in SPECS.iterdir():  # specs and sample folders that specs name
            if not (folder / child.name).exists():
                (folder / child.name).symlink_to(child)
        self.proc = None

    def _start(self) -> None:
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=_worker, args=(child, str(self.folder), self.memory, self.command)
        )
        self.proc.start()

    def run(self, spec: Path, text: str) -> tuple[Outcome, float]:
        """Validate one mutated copy of `spec`; the outcome and the worker's peak RSS (MiB)."""
        code, output, seconds, rss = self._ask(None, (spec.name, text))
        return Outcome(spec.name, code, output, seconds, text), rss

    def run_argv(self, argv: list[str]) -> tuple[int | str, str, float]:
        """Run the command line `argv`: its exit code ("hang", "died", "raised ..." if it
        had none), its output and its seconds."""
        code, output, seconds, _ = self._ask(argv, None)
        return code, output, seconds

    def _ask(self, argv: list[str] | None, spec: tuple[str, str] | None) -> tuple:
        if self.proc is None or not self.proc.is_alive():
            self._start()
        start = time.perf_counter()
        self.conn.send((argv, spec))
        if not self.conn.poll(self.time_limit):
            self.close(kill=True)
            return "hang", "", time.perf_counter() - start, 0.0
        try:
            return self.conn.recv()
        except EOFError:
            self.close(kill=True)
            return "died", "", time.perf_counter() - start, 0.0

    def close(self, kill: bool = False) -> None:
        """Stop the worker (politely unless `kill`); a shipped spec's link is put back."""
        if self.proc is None:
            return
        for spec in SPECS.iterdir():
            link = self.folder / spec.name
            if spec.is_file() and not link.is_symlink():
                link.unlink(missing_ok=True)
                link.symlink_to(spec)
        if kill:
            self.proc.kill()
        else:
            with contextlib.suppress(OSError):
                self.conn.send(None)
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.proc = None


def run_fuzz(
    seed: int,
    count: int,
    folder: Path,
    time_limit: float = 5.0,
    command: tuple[str, ...] = ("validate", "-q"),
) -> Figures:
    """Run `command` (validate) on `count` mutants made from `seed`; the figures and every
    failing input."""
    figures = Figures()
    runner = Runner(folder, time_limit, command=command)
    try:
        for spec, text in mutants(seed, count):
            outcome, rss = runner.run(spec, text)
            figures.tried += 1
            figures.exits[outcome.code] = figures.exits.get(outcome.code, 0) + 1
            figures.peak_rss_mib = max(figures.peak_rss_mib, rss)
            if figures.slowest is None or outcome.seconds > figures.slowest.seconds:
                figures.slowest = outcome
            if not outcome.ok:
                figures.failures.append(outcome)
    finally:
        runner.close()
        for child in folder.iterdir():
            if child.is_symlink() or child.is_file():
                child.unlink()
            else:
                shutil.rmtree(child)
    return figures


def exits_of_mutated_inputs(
    folder: Path, time_limit: float, count: int, mutant: Callable[[int], tuple[str, str, str]]
) -> tuple[Counter, list[str]]:
    """Validate `count` specs whose input files are mutated: mutant(i) writes the files and
    gives (what it changed, the spec's file name, its text). The exit codes counted, and a
    line for each outcome that was not exit 0 or 1 with located lines."""
    runner = Runner(folder, time_limit)
    exits: Counter = Counter()
    failures = []
    try:
        for i in range(count):
            label, name, text = mutant(i)
            outcome, _ = runner.run(Path(name), text)
            exits[outcome.code] += 1
            if not outcome.ok:
                failures.append(f"--- {label}: exit {outcome.code}: {outcome.output[:300]}")
    finally:
        runner.close()
    return exits, failures
