"""Every example in the README and docs/ works: specs validate, runnable commands run.

A spec example is a fenced block labelled `yaml` or `epcg` holding a `kind:` key; a fenced block
with a `kind:` and any other label fails here, so an example cannot escape the check. A command
block is runnable when the line before its fence is `<!-- run -->`: each of its `epcg-spec`
lines is run in-process from a folder that holds `specs/`, so `--out out/...` lands there;
in a block of `$ ` prompts, the lines under a command are its output, checked. Every other
`epcg-spec` line shown (too slow to run, or an illustration) is parsed as the command line
would read it, and the files under `specs/` it names must exist.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from epcg_spec.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUN_MARK = "<!-- run -->"
FENCE = re.compile(r"^\s*```(\S*)\s*$")
KIND_KEY = re.compile(r"^\s*kind\s*:", re.M)
SUFFIX = {"yaml": ".yaml", "epcg": ".epcg"}


@dataclass(frozen=True)
class Block:
    """One fenced block of a Markdown file."""

    file: Path
    line: int  # of the opening fence, 1-based
    label: str
    text: str
    runnable: bool

    @property
    def where(self) -> str:
        return f"{self.file.relative_to(ROOT)}:{self.line}"


def fenced_blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, with the label and run mark of each."""
    lines = path.read_text("utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip().startswith("```"))
            runnable = i > 0 and lines[i - 1].strip() == RUN_MARK
            body = "\n".join(lines[i + 1 : end]) + "\n"
            blocks.append(Block(path, i + 1, opening.group(1), body, runnable))
            i = end
        i += 1
    return blocks


ALL_BLOCKS = [block for path in DOCS for block in fenced_blocks(path)]
SPECS = [b for b in ALL_BLOCKS if KIND_KEY.search(b.text)]
RUNNABLE = [b for b in ALL_BLOCKS if b.runnable]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A folder with the repository's specs/ in it (examples name files relative to it)."""
    (tmp_path / "specs").symlink_to(ROOT / "specs")
    for entry in (ROOT / "specs").iterdir():
        (tmp_path / entry.name).symlink_to(entry)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_docs_hold_examples_of_every_kind():
    kinds = {m.group(1) for b in SPECS for m in re.finditer(r"^kind\s*:\s*(\w+)", b.text, re.M)}
    assert kinds == {
        "space", "fling", "witness", "wfc", "sudoku", "ppg", "rooms", "tracery", "nested"
    }  # fmt: skip
    assert len(SPECS) >= 16 and RUNNABLE


@pytest.mark.parametrize("block", SPECS, ids=lambda b: b.where)
def test_every_spec_example_validates(block, workdir, capsys):
    assert block.label in SUFFIX, f"{block.where}: label a spec example ```yaml or ```epcg"
    example = workdir / f"example{SUFFIX[block.label]}"
    example.write_text(block.text, "utf-8")
    code = main(["validate", str(example)])
    out = capsys.readouterr()
    assert code == 0, f"{block.where}: the example does not validate:\n{out.out}{out.err}"


def commands(block: Block) -> list[tuple[list[str], list[str] | None]]:
    """The `epcg-spec` command lines of a block, as argument lists (comments dropped), each
    with the output shown under it: in a block of `$ ` prompts, the lines up to the next."""
    lines = block.text.splitlines()
    prompted = any(line.startswith("$ ") for line in lines)
    found: list[tuple[list[str], list[str] | None]] = []
    for line in lines:
        if prompted and not line.startswith("$ "):
            if found:
                found[-1][1].append(line)
            continue
        words = shlex.split(line.removeprefix("$ "), comments=True)
        if words and words[0] == "epcg-spec":
            found.append((words[1:], [] if prompted else None))
    return found


@pytest.mark.parametrize("block", RUNNABLE, ids=lambda b: b.where)
def test_every_runnable_command_runs(block, workdir, capsys):
    argvs = commands(block)
    assert argvs, f"{block.where}: a block marked {RUN_MARK} holds no epcg-spec command"
    for argv, shown in argvs:
        code = main(argv)
        out = capsys.readouterr()
        assert code == 0, f"{block.where}: `epcg-spec {shlex.join(argv)}` exit {code}:\n{out.err}"
        assert shown is None or out.out.splitlines() == shown, f"{block.where}: {out.out}"


PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]+(\.\.\.)?$|\|")  # SPEC, SHARD..., dsl|yaml: a synopsis
SHOWN = [b for b in ALL_BLOCKS if not b.runnable and b.label not in (*SUFFIX, "python")]


def shown_commands() -> list:
    """The command lines shown but not run: optional parts (`[--seed N]`) dropped, synopses
    (lines with placeholders) left out."""
    found = []
    for block in SHOWN:
        for line in block.text.splitlines():
            if "epcg-spec " not in line:
                continue
            line = re.sub(r"\[[^]]*\]", "", line.split("$ ", 1)[-1])
            words = shlex.split(line, comments=True)
            if words[:1] == ["epcg-spec"] and not any(PLACEHOLDER.search(w) for w in words):
                found.append(pytest.param(block, words[1:], id=f"{block.where} {words[1]}"))
    return found


@pytest.mark.parametrize(("block", "argv"), shown_commands())
def test_every_command_shown_parses(block, argv, monkeypatch):
    """Flags, values and the specs named exist, as the command line reads them (nothing runs)."""
    from epcg_spec.cli.main import cli

    monkeypatch.chdir(ROOT)
    named = [w for w in argv if w.startswith("specs/")]
    assert all((ROOT / w).exists() for w in named), f"{block.where}: {shlex.join(argv)}"
    with cli.make_context("epcg-spec", list(argv), resilient_parsing=False) as group:
        command = cli.get_command(group, argv[0])
        command.make_context(argv[0], list(argv[1:]), parent=group)


def quick_start() -> list[str]:
    """The README's two quick-start commands."""
    (block,) = [b for b in fenced_blocks(ROOT / "README.md") if b.text.startswith("pip install")]
    return block.text.splitlines()


def test_the_quick_start_builds_ten_queens(workdir, capsys):
    install, _ = quick_start()
    argv = shlex.split(install.split(" && ", 1)[1])
    assert argv[0] == "epcg-spec"
    assert main([*argv[1:], "--out", "ten", "-q"]) == 0
    capsys.readouterr()
    assert '"count": 724' in (workdir / "ten" / "result.json").read_text()


def test_the_quick_start_test_command_is_what_ci_runs():
    _, tests = quick_start()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    # CI's own set-up (the browser the gallery tests need, Tiled, CI=1) is not the user's command
    setup = ("#", "set ", "cd ", "python -m pip", "command -v ", "export CI=")
    steps = [line for line in ci if line and not line.startswith(setup)]
    assert tests.split(" && ") == steps


def test_the_api_example_prints_the_numbers_its_comments_give(workdir, capsys):
    """docs/api.md's example, run as it stands (after the quick start: its kernels are cached)."""
    block, _ = [b for b in fenced_blocks(ROOT / "docs" / "api.md") if b.label == "python"]
    exec(compile(block.text, block.where, "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out.splitlines()
    comments = [line.partition("#")[2] for line in block.text.splitlines() if "print(" in line]
    assert len(printed) == len(comments) == 6
    said = [(out, re.match(r"\s*(\d+)", c)) for out, c in zip(printed, comments, strict=True)]
    claims = [(out, number[1]) for out, number in said if number]
    assert len(claims) == 3 and all(out == number for out, number in claims), claims
    assert printed[0] == "space n-queens"


def test_the_usage_errors_api_md_quotes_are_the_messages_raised(workdir):
    """docs/api.md's `CALL` raises `MESSAGE` examples, each message whole."""
    import epcg_spec

    calls = {
        "build(seed=-1)": lambda: epcg_spec.load("specs/n-queens.yaml").build(seed=-1),
        'load(params={"m": 3})': lambda: epcg_spec.load("specs/n-queens.yaml", params={"m": 3}),
        'options={"steps": 2.5}': lambda: epcg_spec.load(
            "specs/rooms-house.yaml", options={"steps": 2.5}
        ),
    }
    text = " ".join((ROOT / "docs" / "api.md").read_text("utf-8").split())
    quoted = dict(re.findall(r"`([^`]+)` raises `(--[^`]+)`", text))
    assert quoted.keys() == calls.keys()
    for call, message in quoted.items():
        with pytest.raises(epcg_spec.UsageError) as refused:
            calls[call]()
        assert str(refused.value) == message, call


def test_the_api_merge_example_gives_one_builds_count(workdir, capsys):
    """docs/api.md's merge example, run as it stands: two shards merged into 92 solutions."""
    _, block = [b for b in fenced_blocks(ROOT / "docs" / "api.md") if b.label == "python"]
    exec(compile(block.text, block.where, "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out == "92\n"
    assert (workdir / "out" / "queens" / "best-0.svg").is_file()
