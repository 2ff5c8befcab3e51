"""A message-less assert written over several lines, as each Python prints it.

Python 3.9 and 3.12 show the statement's first line (`assert (`), 3.10 and 3.11 the line of the
test that failed (`and cache.pages is not None`, one line below the statement's start or more),
3.13 all of that test's lines, with caret lines and `...<N lines>...` for a long one. The
tracebacks below were printed that way by those interpreters for code of our own making.
"""

from __future__ import annotations

import pytest

from errexplain.catalog.index import Index
from errexplain.catalog.index_build import build_bytes
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.match.sites import FUNCTION_SCORE, STATEMENT_SCORE, locate
from errexplain.models import Entry, Frame, Project, RaisedError, Source, make_id
from errexplain.parse.traceback import parse_traceback as parse

PATH = "pkg/cache/pool.py"


def entry(line: int, condition: str) -> Entry:
    return Entry(
        id=make_id("pkg", PATH, f"Pool.alloc#{line}", condition),
        project="pkg",
        exception="AssertionError",
        template="",
        source=Source("pkg", "1.0", PATH, line, "Pool.alloc", None),
        kind="assert",
        condition=condition,
        statement=f"assert {condition}",
        derived=True,
    )


FIRST = entry(10, "( cache.size > 0 and cache.pages is not None )")
SECOND = entry(14, "( len(reqs) == len(slots) and all(s >= 0 for s in slots) )")
ONE_LINE = entry(19, "cache.size > 0")
ENTRIES = (FIRST, SECOND, ONE_LINE)


@pytest.fixture(params=["memory", "index"])
def view(request):
    if request.param == "memory":
        return MemoryCatalog(ENTRIES)
    return Index.from_bytes(build_bytes(ENTRIES, [Project("pkg", "1.0")], "k"))


def paste(line: int, *code: str) -> str:
    shown = "\n".join(f"    {c}" for c in code)
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/main.py", line 5, in <module>\n'
        "    pool.alloc(reqs)\n"
        f'  File "/opt/venv/lib/python3.12/site-packages/pkg/cache/pool.py", line {line}, '
        "in alloc\n"
        f"{shown}\n"
        "AssertionError\n"
    )


def top_line(view, text: str) -> tuple[int | None, float]:
    (exp,) = explain_text(text, view)
    assert exp.matches, exp.nearest
    return exp.matches[0].entry.source.line, exp.matches[0].score


def test_first_line_only_fits_and_the_line_number_tells(view):
    # 3.9 / 3.12: both statements open with `assert (`; the frame's line names the first
    line, score = top_line(view, paste(10, "assert ("))
    assert line == 10 and score == pytest.approx(FUNCTION_SCORE + 0.02)
    assert top_line(view, paste(14, "assert ("))[0] == 14


def test_a_later_line_of_the_test_identifies_the_statement(view):
    # 3.10 / 3.11: the line of the failing part of the test, below the statement's start
    line, score = top_line(view, paste(12, "and cache.pages is not None"))
    assert line == 10 and score == pytest.approx(STATEMENT_SCORE)
    caret = top_line(view, paste(16, "and all(s >= 0 for s in slots)", "    ^^^^^^^^^^^^^^^^^^"))
    assert caret[0] == 14


def test_python_3_13_shows_every_line_of_the_test(view):
    text = paste(15, "len(reqs) == len(slots)", "and all(s >= 0 for s in slots)")
    assert top_line(view, text)[0] == 14
    elided = paste(11, "cache.size > 0", "...<1 lines>...", "and cache.pages is not None")
    assert top_line(view, elided)[0] == 10


def test_lines_of_another_statement_do_not_fit(view):
    f = Frame("/x/pkg/cache/pool.py", 12, "alloc", "and cache.owner is not None")
    hits = locate(view, RaisedError("AssertionError", "", (f,)))
    assert all(h.score < FUNCTION_SCORE for h in hits)
    # pieces out of order are not the statement either
    f = Frame("/x/pkg/cache/pool.py", 15, "alloc", "and all(s >= 0 for s in slots)", "len(reqs)")
    assert all(h.cand.line != 14 or h.score < FUNCTION_SCORE for h in locate(view, error(f)))


def error(f: Frame) -> RaisedError:
    return RaisedError("AssertionError", "", (f,))


def test_parser_keeps_the_further_lines_and_leaves_out_carets():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/x/pkg/cache/pool.py", line 11, in alloc\n'
        "    assert check(\n"
        "           ~~~~~^\n"
        '        "ValueError: not a message of this traceback"\n'
        "        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    ...<2 lines>...\n"
        "    )\n"
        "    ^\n"
        "AssertionError\n"
    )
    (err,) = parse(text)
    assert err.type == "AssertionError" and err.message == ""
    (f,) = err.frames
    assert f.code == "assert check("
    assert f.more == '"ValueError: not a message of this traceback"\n…\n)'


def test_a_single_code_line_has_no_further_lines():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/x/pkg/cache/pool.py", line 19, in alloc\n'
        "    assert cache.size > 0\n"
        "           ^^^^^^^^^^^^^^\n"
        "AssertionError\n"
    )
    (err,) = parse(text)
    assert err.frames[0].code == "assert cache.size > 0" and err.frames[0].more is None
