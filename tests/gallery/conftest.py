"""One small build of every kind with its gallery, and a headless Chromium to look at them.

The browser is Debian's chromium driven through its chromedriver, both at fixed paths, so
selenium never tries to download one. Where neither is installed the browser tests skip
with the reason; in CI (the CI variable set) they fail instead, since .ci/run installs it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from epcg_spec.cli.main import main
from epcg_spec.output.gallery import write_gallery

SPECS = Path(__file__).resolve().parents[2] / "specs"

# The cheapest example of each kind, with --param overrides that keep it small.
BUILDS: dict[str, tuple[str, dict[str, int]]] = {
    "space": ("n-queens.yaml", {"n": 6}),
    "sudoku": ("sudoku-4x4.epcg", {}),
    "witness": ("witness-panel.yaml", {}),
    "fling": ("fling-5x5.yaml", {}),
    "wfc": ("wfc-loop.yaml", {}),
    "ppg": ("ppg-escape-room.yaml", {}),
    "rooms": ("rooms-house.yaml", {}),
    "tracery": ("tracery-weather.epcg", {}),
    "nested": ("nested-dungeon.epcg", {}),
}

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER = ("/usr/bin/chromedriver",)


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict[str, Path]:
    """kind -> an output folder holding its build and index.html (built on first use)."""
    root = tmp_path_factory.mktemp("gallery")

    class Builds(dict):
        def __missing__(self, kind: str) -> Path:
            spec, params = BUILDS[kind]
            folder = root / kind
            flags = [f"--param={k}={v}" for k, v in params.items()]
            assert main(["build", str(SPECS / spec), "--out", str(folder), "-q", *flags]) == 0
            write_gallery(folder, SPECS / spec, params)
            self[kind] = folder
            return folder

    return Builds()


def _first(paths: tuple[str, ...]) -> str | None:
    return next((p for p in paths if Path(p).exists()), None) or shutil.which(Path(paths[0]).name)


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium (selenium WebDriver) with the browser log enabled."""
    binary, driver = _first(CHROMIUM), _first(DRIVER)
    if not (binary and driver):
        reason = "no chromium and chromedriver here (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    options.add_argument("--window-size=1280,900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chrome = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    yield chrome
    chrome.quit()
