"""Groups the tests by the kind whose kernels they compile, for `pytest -n N --dist loadgroup`.

On a cold kernel cache most of the suite's time is numba compiling each kind's kernels. Two
workers that reach the same kind at once both compile it; a kind's tests kept on one worker
compile it once, and the cache then serves every later test of that kind wherever it runs.
"""

from __future__ import annotations

import gc
import re
from collections import Counter

import pytest

KINDS = ("space", "fling", "witness", "wfc", "sudoku", "ppg", "rooms", "tracery", "nested")
# words in a test's id that name the kind it builds, for tests outside tests/domains/<kind>/
WORDS = re.compile(
    r"(sudoku|wfc|ppg|rooms|fling|witness|tracery|nested|queens|golomb|magic|langford|costas)"
)
SPACE_WORDS = {"queens", "golomb", "magic", "langford", "costas"}
# folders kept whole on one worker: tests/cluster shares a module fixture across kinds, and
# tests/unit/spaces compiles modules its two large files share (test_properties)
WHOLE = ("tests/cluster/", "tests/unit/spaces/")
# groups heaviest first (seconds of test time in a cold run on 2 cores, mostly compiling, in
# the comments), so the work handed out last is small and the workers finish together; the
# other groups follow, those of most tests first. tests/cluster builds a spec of every kind: it
# comes after the kinds, whose kernels its workers then load (before them, it took 72 s, not 33,
# compiling them as the other worker did).
HEAVY_FIRST = (
    *("space", "fling", "tests-unit-spaces", "wfc"),  # 66, 46, 42, 32
    *("witness", "rooms", "tracery", "ppg", "sudoku", "nested"),  # 31, 30, 21, 8, 6, 4
    *("tests-cluster", "tests/acceptance/test_trust.py"),  # 33, 18
    *("tests/backends/test_gpu_compile.py", "tests/backends/test_propagate.py"),  # 16, 15
    *("tests/acceptance/test_run_effects.py", "tests/backends/test_gpu.py"),  # 13, 13
    "tests/fuzz/test_folder_fuzz.py",  # 13
    *("tests/fuzz/test_vox_fuzz.py", "tests/fuzz/test_dsl_fuzz.py"),  # 8, 8
    *("tests/unit/expr/test_codegen_against_oracle.py", "tests/gallery/test_browser.py"),  # 7, 5
    *("tests/unit/spec/test_dsl_roundtrip.py", "tests/backends/test_retrograde.py"),  # 5, 5
    "tests/backends/test_backtrack.py",  # 4
)


# Python's full collections walk every object alive, and numba's compiles leave millions alive
# (its caches, the kernels' IR): with the default threshold (10) the workers spent 77 s of a
# cold run in them; with each test's survivors frozen (below) and full collections ten times
# rarer within a test, 24 s.
FULL_COLLECTION_THRESHOLD = 100


def collect_rarely() -> None:
    """Collect the oldest generation ten times more rarely (a test process that compiles)."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_THRESHOLD)


def pytest_configure(config: pytest.Config) -> None:
    collect_rarely()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """After each test, collect what it left and freeze the rest: what outlives a test (the
    kernels, module fixtures) is then never walked again, by any later collection."""
    result = yield
    gc.collect()
    gc.freeze()
    return result


def kind_group(nodeid: str) -> str:
    """The group a test belongs to: its kind, a whole folder, else its module (module fixtures
    are then made once)."""
    for folder in WHOLE:
        if nodeid.startswith(folder):
            return folder.strip("/").replace("/", "-")
    parts = nodeid.split("/")
    if parts[:2] == ["tests", "domains"] and parts[2] in KINDS:
        return parts[2]
    found = WORDS.search(nodeid.lower())
    if not found:
        return nodeid.split("::")[0]
    word = found.group(1)
    return "space" if word in SPACE_WORDS else word


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its group, and order the groups for `--no-loadscope-reorder`."""
    groups = {item.nodeid: kind_group(item.nodeid) for item in items}
    sizes = Counter(groups.values())

    def weight(item: pytest.Item) -> tuple[int, int]:
        group = groups[item.nodeid]
        if group in HEAVY_FIRST:
            return 0, HEAVY_FIRST.index(group)
        return 1, -sizes[group]

    items.sort(key=weight)
    for item in items:
        item.add_marker(pytest.mark.xdist_group(groups[item.nodeid]))
