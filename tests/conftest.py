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
PREBUILT_ENV = "ERREXPLAIN_TESTS_PREBUILT"
"""A directory holding the bundled catalog's index and parts file, built once per test run
(by the xdist controller, or the only process) for every worker's cache dir."""


def pytest_configure(config):
    """Build the bundled catalog's index once per run, in a subprocess (nothing of errexplain
    is imported here, before coverage starts), for the workers to copy (`seed_cache`): each
    worker used to build its own, and so did each test that starts errexplain on an empty cache
    dir (10 s each)."""
    if hasattr(config, "workerinput") or os.environ.get(PREBUILT_ENV):
        return  # an xdist worker (the controller built it), or a test run inside a test run
    import shutil
    import subprocess
    import sys
    import tempfile

    prebuilt = tempfile.mkdtemp(prefix="errexplain-tests-")
    env = {k: v for k, v in os.environ.items() if k != "ERREXPLAIN_CATALOG"}
    subprocess.run(
        [sys.executable, "-c", "from errexplain.catalog import store; store.load()"],
        env={**env, "ERREXPLAIN_CACHE_DIR": prebuilt},
        check=True,
    )
    os.environ[PREBUILT_ENV] = prebuilt  # (xdist workers inherit the environment)
    config.add_cleanup(lambda: shutil.rmtree(prebuilt, ignore_errors=True))
    config.add_cleanup(lambda: os.environ.pop(PREBUILT_ENV, None))


def seed_cache(directory: Path) -> Path:
    """Put the run's prebuilt bundled index and parts file into a cache dir (copies: tests may
    damage what they find there), so that errexplain started with it builds nothing."""
    import shutil

    directory.mkdir(parents=True, exist_ok=True)
    prebuilt = os.environ.get(PREBUILT_ENV)
    for f in Path(prebuilt).iterdir() if prebuilt else ():
        if f.name.startswith(("index-", "parts-")) and f.suffix in (".idx", ".bin"):
            shutil.copy2(f, directory / f.name)
    return directory


@pytest.fixture
def seeded():
    """`seeded(directory)`: :func:`seed_cache`, for tests that start errexplain with a cache dir
    of their own."""
    return seed_cache


@pytest.fixture(scope="session")
def _session_cache(tmp_path_factory):
    return seed_cache(tmp_path_factory.getbasetemp() / "cache")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch, _session_cache):
    for var in ("FORCE_COLOR", "NO_COLOR", "COLUMNS", "ERREXPLAIN_CATALOG", "TERM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("ERREXPLAIN_CACHE_DIR", str(_session_cache))


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
