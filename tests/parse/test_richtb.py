"""Rich's traceback panels (`rich.traceback`, Typer's pretty exceptions) read as tracebacks.

Each test has Rich (a dependency of ours) draw the traceback of code of our own, as a user's
terminal would show it, at a few console widths."""

from __future__ import annotations

import importlib.util
import io

import pytest
from rich.console import Console
from rich.traceback import Traceback

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.models import Entry, Source, make_id
from errexplain.parse.traceback import parse_traceback

POOL = """\
class Pool:
    def __init__(self):
        self.free = []

    def alloc(self, n):
        assert n <= len(self.free)
        return [self.free.pop() for _ in range(n)]

    def resize(self, size):
        if size < 0:
            raise ValueError(f"pool size must be >= 0, got {size} (a negative size is a bug)")


def grow(pool):
    try:
        pool.resize(-2)
    except ValueError as e:
        raise RuntimeError("resizing failed") from e
"""


def _pool_module(root, name: str):
    """The pool module written at `root/pkg/cache/pool.py` and imported as `name`."""
    root = root / "pkg" / "cache"
    root.mkdir(parents=True)
    (root / "pool.py").write_text(POOL, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, root / "pool.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    return _pool_module(tmp_path_factory.mktemp("site"), "richtb_pool")


def drawn(call, width: int, locals_: bool = False) -> str:
    try:
        call()
    except Exception:
        console = Console(width=width, color_system=None, record=True, file=io.StringIO())
        console.print(Traceback(show_locals=locals_, width=width))
        return console.export_text()
    raise AssertionError("no exception")


@pytest.mark.parametrize(
    ("width", "locals_"), [(120, False), (60, False), (44, False), (100, True)]
)
def test_a_panel_gives_the_frames_and_the_marked_code(pool, width, locals_):
    (err,) = parse_traceback(drawn(lambda: pool.Pool().alloc(3), width, locals_))
    assert (err.type, err.message) == ("AssertionError", "")
    inner = err.frames[-1]
    assert inner.path.endswith("pkg/cache/pool.py") and inner.line == 6
    assert inner.function == "alloc"  # (at 60 columns, wrapped onto the next line)
    assert inner.code.startswith("assert n <=")


@pytest.fixture(scope="module")
def deep_pool(tmp_path_factory):
    """The pool module under a long path, as an installed package's (`site-packages/...`): its
    location line is wider than a narrow panel, which folds it."""
    site = tmp_path_factory.mktemp("site") / "lib" / "python3.12" / "site-packages"
    return _pool_module(site, "richtb_deep_pool")


def test_a_location_folded_at_any_character_is_read_whole(deep_pool):
    """Whatever the panel's width, the folded location line gives the frame: folded inside
    the path, just after `.py:`, inside the line number or between the words."""
    location = f"{deep_pool.__file__}:6 in alloc"
    widths = range(40, len(location) + 6)
    for width in widths:
        (err,) = parse_traceback(drawn(lambda: deep_pool.Pool().alloc(3), width))
        inner = err.frames[-1]
        got = (inner.path, inner.line, inner.function)
        assert got == (deep_pool.__file__, 6, "alloc"), width


def test_a_chain_of_panels_keeps_its_cause(pool):
    (err,) = parse_traceback(drawn(lambda: pool.grow(pool.Pool()), 100))
    assert (err.type, err.message) == ("RuntimeError", "resizing failed")
    (cause,) = err.chain
    assert cause.type == "ValueError" and cause.message.startswith("pool size must be >= 0")
    assert [f.function for f in cause.frames][-1] == "resize"


def test_the_site_is_found_by_the_frames_of_a_panel(pool):
    path = "pkg/cache/pool.py"
    entry = Entry(
        id=make_id("pkg", path, "Pool.alloc#6", ""),
        project="pkg",
        exception="AssertionError",
        template="",
        source=Source("pkg", "1.0", path, 6, "Pool.alloc", None),
        kind="assert",
        condition="n <= len(self.free)",
        statement="assert n <= len(self.free)",
        derived=True,
    )
    (exp,) = explain_text(drawn(lambda: pool.Pool().alloc(3), 80), MemoryCatalog((entry,)))
    assert exp.matches and exp.matches[0].entry.id == entry.id
    assert exp.matches[0].score >= 0.9


def test_a_panel_that_is_not_a_traceback_is_left_alone():
    text = "╭─ Error ─────────╮\n│ Invalid value   │\n╰─────────────────╯\n"
    assert parse_traceback(text) == ()
