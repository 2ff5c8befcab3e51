"""pytest's failure reports (`--tb=auto`, `short`, `line`) read as the tracebacks they stand for.

The reports in tests/data/pytest/ were printed by pytest 8 on Python 3.11 for a small package
of our own (pkg/cache/pool.py: an `assert` without a message, a `raise ValueError(` over three
lines) and its tests (a chained RuntimeError, a failed assert in the test itself).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.models import Entry, Source, make_id
from errexplain.parse.lines import Line, clean_lines
from errexplain.parse.pytest import pytest_lines
from errexplain.parse.traceback import _PYTEST, parse_traceback

DATA = Path(__file__).resolve().parent.parent / "data" / "pytest"


def report(style: str) -> str:
    return (DATA / f"tb_{style}.txt").read_text(encoding="utf-8")


def frames(err):
    return [(f.path.rsplit("/", 3)[-1], f.line, f.function, f.code) for f in err.frames]


@pytest.mark.parametrize("style", ["auto", "short"])
def test_each_failure_is_one_error_with_its_entries_as_frames(style):
    errors = parse_traceback(report(style))
    assert [(e.type, e.message) for e in errors] == [
        ("AssertionError", ""),
        ("ValueError", "pool size must be >= 0, got -2"),
        ("RuntimeError", "allocation step failed"),
        ("AssertionError", ""),  # pytest's `assert 2 == 3` stands for the statement below
    ]
    alloc, resize, chained, count = errors
    assert frames(alloc) == [
        ("test_pool.py", 10, "test_alloc", "grab(pool)"),
        ("test_pool.py", 5, "grab", "return pool.alloc(3)"),
        ("pool.py", 6, "alloc", "assert n <= len(self.free)"),
    ]
    assert frames(resize)[-1] == ("pool.py", 11, "resize", "raise ValueError(")
    (cause,) = chained.chain
    assert chained.chain_relation == "cause"
    assert frames(cause)[-1] == ("pool.py", 6, "alloc", "assert n <= len(self.free)")
    assert frames(count) == [("test_pool.py", 26, "test_count", "assert len(xs) == 3")]
    assert all(e.form == "traceback" for e in errors)


def test_long_entries_keep_the_statement_below_the_marked_line():
    resize = parse_traceback(report("auto"))[1]
    assert resize.frames[-1].more == 'f"pool size must be >= 0, got {size}"\n)'


def test_line_style_gives_file_and_line_only():
    alloc, chained, count = parse_traceback(report("line"))
    assert (alloc.type, alloc.message) == ("AssertionError", "")
    assert [(f.path, f.line, f.function) for f in alloc.frames] == [
        ("/home/ci/repo/pkg/cache/pool.py", 6, None)
    ]
    assert chained.message == "allocation step failed"
    assert (count.type, count.message) == ("AssertionError", "assert 2 == 3")


def test_summary_lines_repeat_the_reports_and_stand_alone_without_them():
    # the summary alone (a paste of its last lines): each line is its error
    summary = report("auto").split("short test summary info", 1)[1]
    alone = parse_traceback(summary)
    assert [(e.type, e.message) for e in alone] == [
        ("AssertionError", ""),
        ("ValueError", "pool size must be >= 0, ..."),
        ("RuntimeError", "allocation step failed"),
        ("AssertionError", "assert 2 == 3"),
    ]
    # beside the reports they repeat, nothing is added (a cut `...` message included)
    assert len(parse_traceback(report("short"))) == 4


def test_a_log_prefix_before_every_line_is_read_through():
    prefixed = "".join(
        f"2026-03-01T10:00:00.1234567Z {line}\n" for line in report("auto").splitlines()
    )
    errors = parse_traceback(prefixed)
    assert [e.message for e in errors][:3] == [
        "",
        "pool size must be >= 0, got -2",
        "allocation step failed",
    ]
    assert errors[0].frames[-1].code == "assert n <= len(self.free)"


def test_only_reports_are_rewritten():
    text = "pkg/x.py:3: in f\n    g()\nE   KeyError: 'k'\nplain text after"
    assert _PYTEST.search(text)
    out = pytest_lines(clean_lines(text), set())
    assert [ln.text for ln in out] == [
        "Traceback (most recent call last):",
        '  File "pkg/x.py", line 3, in f',
        "    g()",
        "KeyError: 'k'",
        "",
        "plain text after",
    ]
    assert [ln.no for ln in out] == [1, 1, 2, 3, 3, 4]
    # lone `E` lines (no location) are left as they are
    lone = [Line(1, "E       AssertionError: 3 != 4")]
    assert pytest_lines(lone, set()) == lone
    assert not _PYTEST.search("Traceback (most recent call last):\nValueError: x\n")


def entry(line: int, function: str, kind: str, exception: str, **kw) -> Entry:
    path = "pkg/cache/pool.py"
    return Entry(
        id=make_id("pkg", path, f"{function}#{line}", kw.get("template", "")),
        project="pkg",
        exception=exception,
        template=kw.pop("template", ""),
        source=Source("pkg", "1.0", path, line, function, None),
        kind=kind,
        derived=True,
        **kw,
    )


CATALOG = MemoryCatalog(
    (
        entry(
            6,
            "Pool.alloc",
            "assert",
            "AssertionError",
            condition="n <= len(self.free)",
            statement="assert n <= len(self.free)",
        ),
        entry(
            9, "Pool.alloc", "assert", "AssertionError", condition="n > 0", statement="assert n > 0"
        ),
        entry(
            11, "Pool.resize", "raise", "ValueError", template="pool size must be >= 0, got {size}"
        ),
    )
)


@pytest.mark.parametrize("style", ["auto", "short", "line"])
def test_reports_find_their_sites(style):
    found = {
        (e.error.type, e.matches[0].entry.source.line)
        for e in explain_text(report(style), CATALOG)
        if e.matches
    }
    assert ("AssertionError", 6) in found and ("ValueError", 11) in found


def test_e_lines_without_a_location_leave_the_lines_around_them_alone():
    text = (
        "Traceback (most recent call last):\n"
        '  File "pkg/x.py", line 3, in f\n'
        "    run()\n"
        "E   an operator's note in the log\n"
        "ValueError: boom\n"
    )
    (err,) = parse_traceback(text)
    assert (err.type, err.message) == ("ValueError", "boom")
    assert [(f.path, f.code) for f in err.frames] == [("pkg/x.py", "run()")]


PIECES = [
    "E   ",
    "E",
    ">       ",
    "    ",
    "pkg/x.py:12: ",
    "pkg/x.py:3: in f",
    "a.py:9: ValueError",
    "ValueError: m",
    "FAILED t.py::test_x - ",
    "...",
    "_ _ _ _ _",
    "____ test_x ____",
    "def f():",
    "assert x",
    "self = <X>",
    "╭── Traceback (most recent call last) ──╮",
    "│ ",
    " │",
    "│ /p/a.py:5 in f │",
    "❱ 5 │ raise X",
    "╰──╯",
    "The above exception was the direct cause of the following exception:",
    "\n",
    "\n",
]


@given(st.lists(st.sampled_from(PIECES), max_size=60))
def test_the_pytest_and_rich_readers_are_total(parts):
    """Any mix of the pieces these readers look for gives errors, never an exception."""
    text = "".join(parts)
    errors = parse_traceback(text)
    assert all(isinstance(e.message, str) for e in errors)
