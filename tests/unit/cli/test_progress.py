"""The progress bar fills the terminal's width, whatever it is, and keeps the ETA whole."""

import io

import pytest
from rich.console import Console

from epcg_spec.cli import progress
from epcg_spec.cli.progress import StderrProgress

LABEL = "fling-7x8 layer 10 [moves]: boards"
TOTAL = 35_607_051_480


def shown(width: int) -> str:
    """The progress line as a terminal `width` columns wide shows it, 3.5% done."""
    bar = StderrProgress()
    bar.console = Console(file=io.StringIO(), width=width, force_terminal=True, color_system=None)
    bar.start(LABEL, TOTAL)
    bar.advance(TOTAL * 35 // 1000)
    table = bar._bar.make_tasks_table(bar._bar.tasks)
    bar.finish()
    out = Console(file=io.StringIO(), width=width, force_terminal=True, color_system=None)
    out.print(table)
    return out.file.getvalue().rstrip("\n")


@pytest.fixture(autouse=True)
def at_once(monkeypatch):
    monkeypatch.setattr(progress, "SHOW_AFTER_SECONDS", 0.0)


@pytest.mark.parametrize("width", [36, 60, 80, 120, 200])
def test_the_line_fills_the_width_and_keeps_the_percentage_and_eta(width):
    line = shown(width)
    assert len(line) == width
    assert " 3% " in line and line.endswith("ETA -:--:--")


def test_a_wide_terminal_shows_everything_and_a_long_bar():
    line = shown(200)
    assert line.startswith(LABEL + " ")
    assert f"{TOTAL * 35 // 1000}/{TOTAL}" in line
    assert line.count("━") >= 3  # 3.5% of a bar of about 110 cells


def test_a_narrow_terminal_drops_the_count_then_shortens_the_label():
    assert f"/{TOTAL}" not in shown(80) and shown(80).startswith(LABEL)
    assert shown(36).startswith(LABEL[:4]) and "…" in shown(36)


def test_work_of_unknown_size_is_not_shown_as_done(monkeypatch, capsys):
    """A backtracking count has no total (its job weighs 0): the plain line said
    '100.0% done, about 0 s left' every 10 s while the count went on for minutes."""
    monkeypatch.setattr(progress, "PLAIN_EVERY_SECONDS", 0.0)
    line = StderrProgress()
    line.console = Console(file=io.StringIO(), force_terminal=False)
    line.start("counting", 0)
    line.advance(0)
    err = capsys.readouterr().err
    assert err.startswith("counting: running for ") and "left is not known" in err
    bar = StderrProgress()
    bar.console = Console(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
    bar.start("counting", 0)
    bar.advance(0)
    (task,) = bar._bar.tasks
    bar.finish()
    assert task.total is None and task.percentage == 0.0  # a pulsing bar, no ETA
