"""The API called from several threads at once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from epcg_spec.compile import connector

IMPORTING = threading.Event()
# a module that says when its import has begun, then takes a while: the window in which a
# second thread found it half-imported in sys.modules (a build of one spec in each of two
# threads: "module 'epcg_k_...' has no attribute 'run_pruned'")
SLOW = "from tests.api.test_threads import IMPORTING\nIMPORTING.set()\nimport time\n"
SLOW += "time.sleep(0.3)\nVALUE = 7"


def test_threads_importing_one_kernel_module_each_get_it_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("EPCG_CACHE_DIR", str(tmp_path))
    what = f"a module imported by two threads at once ({tmp_path.name})"

    def imported(second: bool):
        if second:
            IMPORTING.wait(10)
        module = connector.generated_module(what, [], [SLOW])
        return module, getattr(module, "VALUE", None)  # as the thread got it

    with ThreadPoolExecutor(2) as pool:
        (first, value), (second, other) = pool.map(imported, (False, True))
    assert (value, other) == (7, 7) and first is second


STOPS = [KeyboardInterrupt()]
STOPPED = "from tests.api.test_threads import STOPS\nif STOPS:\n    raise STOPS.pop()\nVALUE = 7"


def test_a_kernel_module_whose_import_was_stopped_is_imported_again(tmp_path, monkeypatch):
    # Ctrl-C while a build imported its kernels left the half-imported module in
    # sys.modules: the next build in the process failed with an AttributeError
    monkeypatch.setenv("EPCG_CACHE_DIR", str(tmp_path))
    what = f"a module whose import is stopped ({tmp_path.name})"
    with pytest.raises(KeyboardInterrupt):
        connector.generated_module(what, [], [STOPPED])
    assert connector.generated_module(what, [], [STOPPED]).VALUE == 7
