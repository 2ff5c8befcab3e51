"""A paste that quotes an error (an issue's title, a sentence) and holds its traceback cut
before the exception line: the cut traceback's frames are the quoted error's when its innermost
frame shows the statement that raises it, and they pick among the sites that raise the same
text; a frame path whose directories the paster elided (`.../pool.py`) still names its file."""

from __future__ import annotations

import pytest

from errexplain.catalog.index import Index
from errexplain.catalog.index_build import build_bytes
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.match.rank import in_file
from errexplain.models import Entry, Frame, Project, Source, make_id
from errexplain.parse.traceback import parse_traceback

PROJECT = Project("pkg", "1.0")
TEXT = "slot <key> is missing from its parent"


def _entry(path: str, function: str, kind: str = "assert") -> Entry:
    return Entry(
        id=make_id("pkg", path, function, TEXT),
        project="pkg",
        exception="AssertionError",
        kind=kind,
        template=TEXT,
        source=Source("pkg", "1.0", path, 40, function, None),
        derived=True,
    )


TREE = _entry("pkg/cache/tree.py", "Tree.remove_leaf")
POOL = _entry("pkg/cache/pool.py", "Pool.drop_leaf")
ENTRIES = (TREE, POOL)


@pytest.fixture(params=["memory", "index"])
def view(request):
    if request.param == "memory":
        return MemoryCatalog(ENTRIES, projects=[PROJECT])
    return Index.from_bytes(build_bytes(ENTRIES, [PROJECT], "k"))


def _paste(shown: str, path: str = ".../pool.py") -> str:
    return (
        "Under load the pool dies with `AssertionError: slot 12 is missing from its parent`.\n"
        "\n"
        "```\n"
        f'  File "{path}", line 301, in evict\n'
        "    self.drop_leaf(node)\n"
        f'  File "{path}", line 355, in drop_leaf\n'
        f"    {shown}\n"
        "```\n"
    )


def test_the_cut_tracebacks_frames_are_the_quoted_errors(view):
    (err,) = parse_traceback(_paste("assert v == node,"))
    assert err.form == "prose" and err.type == "AssertionError"
    assert [f.function for f in err.frames] == ["evict", "drop_leaf"]
    (exp,) = explain_text(_paste("assert v == node,"), view)
    assert exp.matches[0].entry.id == POOL.id  # the frames pick the site, not the tie
    assert not any("look-alike" in n for n in exp.notes)


@pytest.mark.parametrize("shown", ["return self.release(node)", "raise KeyError(node)"])
def test_a_frame_showing_another_statement_lends_nothing(shown):
    (err,) = parse_traceback(_paste(shown))
    assert err.frames == ()


@pytest.mark.parametrize(
    ("shown", "fits"),
    [("raise AssertionError(", True), ("raise Asser", True), ("raise AssertionErrorX(", False)],
)
def test_a_raise_cut_by_the_paster_still_names_its_type(shown, fits):
    (err,) = parse_traceback(_paste(shown))
    assert bool(err.frames) is fits


@pytest.mark.parametrize(
    ("frame_path", "inside"),
    [
        (".../pool.py", True),
        ("…/cache/pool.py", True),
        (".../che/pool.py", False),  # a cut directory name is not the directory
        ("...", False),
        ("/env/site-packages/pkg/cache/pool.py", True),
        ("/env/site-packages/other/cache/pool.py", False),
    ],
)
def test_a_path_with_elided_directories_names_its_file(frame_path, inside):
    assert in_file(Frame(frame_path, 3, "f"), "pkg/cache/pool.py") is inside
