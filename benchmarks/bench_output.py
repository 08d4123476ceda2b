"""The cost of writing a large build's result.json and page, against the checks they skip.

    python benchmarks/bench_output.py [--seconds S] [--rounds N] [--browser] [--smoke]

Builds minimal 9 x 9 Sudoku puzzles for S seconds (default 4) into a scratch folder, then
times, in alternating rounds, the best of each:

    result.json    result_json (its own check on a long list's two ends) against the same
                   text with the whole result checked against the schema (before)
    text           jsontext.dumps against the format spelled out plainly (the tests'
                   reference, tests/oracles/jsontext_oracle.py)
    page           the page the build writes (its result.json read unchecked) against the
                   page `epcg-spec gallery` writes (checked against both schemas)
    opening        with --browser: opening the page in Debian's headless Chromium (until
                   its load event, the cards drawn), CARDS_AT_ONCE cards drawn against every
                   card drawn at once (before)

`--smoke`: a tenth of a second of puzzles and one round, to check that it runs.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import epcg_spec  # noqa: E402
from epcg_spec.output import gallery, result  # noqa: E402
from epcg_spec.output.gallery import write_gallery  # noqa: E402
from epcg_spec.output.jsontext import dumps  # noqa: E402
from tests.oracles.jsontext_oracle import pretty  # noqa: E402

SMOKE = "--smoke" in sys.argv[1:]
SPEC = """\
kind: sudoku
name: many-minimal
box: 3
seed: 1
generate: {puzzles: 100000, minimal: true}
"""


def _option(name: str, default: float) -> float:
    return float(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def checked_whole(data: dict) -> str:
    """result.json's text as it was made before: the whole result checked."""
    assert not result.validate_data(data, result.RESULT_SCHEMA)
    return dumps(data) + "\n"


def chromium():
    """A headless Chromium through selenium, at Debian's paths."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    options.add_argument("--window-size=1280,900")
    service = Service(executable_path="/usr/bin/chromedriver")
    return webdriver.Chrome(service=service, options=options)


def page_drawing(folder: Path, cards: int) -> Path:
    """The build's page, drawing `cards` cards at first."""
    gallery.CARDS_AT_ONCE, drawn = cards, gallery.CARDS_AT_ONCE
    try:
        return write_gallery(folder, checked=False).rename(folder / f"page-{cards}.html")
    finally:
        gallery.CARDS_AT_ONCE = drawn


def best_of(rounds: int, pairs: dict[str, tuple[Callable, Callable]]) -> None:
    """Time each pair (now, before) in alternating rounds; print the best of each."""
    for name, (now, before) in pairs.items():
        times: dict[str, list[float]] = {"now": [], "before": []}
        for _ in range(rounds):
            for label, run in (("now", now), ("before", before)):
                start = time.perf_counter()
                run()
                times[label].append(time.perf_counter() - start)
        fast, slow = min(times["now"]), min(times["before"])
        print(f"{name:12} now {fast:.3f} s, before {slow:.3f} s: {slow / fast:.2f}x")


def main() -> int:
    seconds = 0.1 if SMOKE else _option("--seconds", 4)
    rounds = 1 if SMOKE else int(_option("--rounds", 3))
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "out"
        built = epcg_spec.loads(SPEC).build(out=folder, time_limit=seconds)
        data = built.data
        size = (folder / "result.json").stat().st_size
        print(f"{len(data['best']):,} minimal puzzles, result.json {size / 2**20:.1f} MiB")
        best_of(
            rounds,
            {
                "result.json": (lambda: result.result_json(data), lambda: checked_whole(data)),
                "text": (lambda: dumps(data), lambda: pretty(data)),
                "page": (
                    lambda: write_gallery(folder, checked=False),
                    lambda: write_gallery(folder),
                ),
            },
        )
        if "--browser" in sys.argv:
            browser = chromium()
            now = page_drawing(folder, gallery.CARDS_AT_ONCE).resolve().as_uri()
            before = page_drawing(folder, len(data["best"])).resolve().as_uri()
            try:
                opening = (lambda: browser.get(now), lambda: browser.get(before))
                best_of(rounds, {"opening": opening})
            finally:
                browser.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
