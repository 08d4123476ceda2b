from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def module_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory for generated kernel modules: pytest's cache where it is enabled, so that
    numba's on-disk cache of them is reused across runs."""
    cache = getattr(request.config, "cache", None)
    if cache is None:
        return tmp_path_factory.mktemp("epcg_spaces_generated")
    return Path(cache.mkdir("epcg_spaces_generated"))
