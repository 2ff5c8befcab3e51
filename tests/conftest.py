from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=300, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

pytest_plugins = ["pytester"]

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, tmp_path_factory):
    for var in ("FORCE_COLOR", "NO_COLOR", "COLUMNS", "ERREXPLAIN_CATALOG", "TERM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("ERREXPLAIN_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(scope="session")
def small_catalog():
    from errexplain.catalog.load import load_catalog

    return load_catalog([DATA / "catalog"])


@pytest.fixture(scope="session")
def small_index(small_catalog):
    from errexplain.catalog.memory import MemoryCatalog

    return MemoryCatalog(small_catalog.entries)


@pytest.fixture(scope="session")
def bundled_catalog():
    from errexplain.catalog.load import load_catalog
    from errexplain.catalog.locate import bundled_dir

    return load_catalog([bundled_dir()])


@pytest.fixture(scope="session")
def bundled_index(bundled_catalog):
    from errexplain.catalog.memory import MemoryCatalog

    return MemoryCatalog(bundled_catalog.entries)


@pytest.fixture
def console():
    from rich.console import Console

    return Console(
        file=io.StringIO(),
        width=100,
        no_color=True,
        color_system=None,
        legacy_windows=False,
        force_terminal=False,
    )


@pytest.fixture
def untraced():
    """Timing tests measure the code, not the coverage tracer: coverage is paused around them
    (coverage's public Coverage.current(); nothing to do when coverage is off)."""
    import coverage

    cov = coverage.Coverage.current()
    if cov is None:
        yield
        return
    cov.stop()
    try:
        yield
    finally:
        cov.start()
