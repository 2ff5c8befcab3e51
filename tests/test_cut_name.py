"""A paste that stops inside its exception line, in the class's name (`AssertionErro`): the
class is the builtin exception whose name the line starts, the message is lost, and the site is
found by the frames as for a traceback cut before its exception line; an assert written over
several lines is named by the line of its test that Python 3.10 and 3.11 show."""

from __future__ import annotations

import pytest
from tests.views import catalog_view

from errexplain.explainer import explain_text
from errexplain.models import Entry, Project, Source, make_id
from errexplain.parse.lines import cut_exception_name
from errexplain.parse.traceback import parse_traceback

PROJECT = Project("pkg", "1.0")
PATH = "pkg/runner/engine.py"


def _assert(line: int, condition: str, message: str) -> Entry:
    return Entry(
        id=make_id("pkg", PATH, f"Engine.__init__#{line}", message),
        project="pkg",
        exception="AssertionError",
        kind="assert",
        template=message,
        condition=condition,
        statement=f"assert {condition}, (",
        source=Source("pkg", "1.0", PATH, line, "Engine.__init__", None),
        derived=True,
    )


STAGES = _assert(80, "self.supports_stages", "Staged execution is not compatible with this model.")
SHARDS = _assert(90, "self.shard_count % self.world == 0", "Shards must divide the world size.")
ENTRIES = (STAGES, SHARDS)


@pytest.fixture(params=["memory", "index"])
def view(request):
    return catalog_view(request.param, ENTRIES, [PROJECT])


def _paste(shown: str, last: str) -> str:
    return (
        "When I start it with two stages I get:\n"
        "```\n"
        '  File "/srv/app/pkg/runner/worker.py", line 31, in start\n'
        "    self.engine = Engine(\n"
        "                  ^^^^^^^\n"
        f'  File "/srv/app/pkg/runner/engine.py", line 77, in __init__\n'
        f"    {shown}\n"
        f"{last}\n"
    )


@pytest.mark.parametrize(
    ("cut", "name"),
    [
        ("AssertionErro", "AssertionError"),
        ("AssertionE", "AssertionError"),
        ("NotImplementedErr", "NotImplementedError"),
        ("ZeroDivision", "ZeroDivisionError"),
        ("Assert", "AssertionError"),
        ("Value", None),  # (too short to name one)
        ("Connection", None),  # (ConnectionError, ConnectionResetError, ...: several)
        ("AssertionError", None),  # (whole: read as an exception line)
        ("Warning", None),  # (whole, though no exception line of its own: not cut)
        ("Foobar", None),
        ("self.x", None),
    ],
)
def test_a_cut_name_is_the_one_builtin_class_it_starts(cut, name):
    assert cut_exception_name(cut) == name


def test_the_cut_line_is_read_as_the_class_with_its_message_lost():
    (err,) = parse_traceback(_paste("self.supports_stages", "AssertionErro"))
    assert (err.type, err.message, err.truncated) == ("AssertionError", "", True)
    assert [f.function for f in err.frames] == ["start", "__init__"]


def test_a_cut_name_is_read_only_right_after_frames():
    # a word of prose on a line of its own is no exception
    assert not [e for e in parse_traceback("It fails with\nAssertionErro\n") if e.type]


def test_the_line_of_a_multiline_asserts_test_names_the_site(view):
    (exp,) = explain_text(_paste("self.supports_stages", "AssertionErro"), view)
    assert exp.matches[0].entry.id == STAGES.id
    assert "part of this assert's test" in " ".join(exp.matches[0].reasons)
    assert any("stops inside its exception line" in n for n in exp.notes)


def test_a_traceback_cut_before_its_exception_line_is_read_so_too(view):
    (exp,) = explain_text(_paste("self.shard_count % self.world == 0", "```"), view)
    assert exp.matches[0].entry.id == SHARDS.id


def test_a_line_of_another_statement_names_no_assert(view):
    (exp,) = explain_text(_paste("self.pipeline = build_pipeline(cfg)", "AssertionErro"), view)
    assert not exp.matches or exp.matches[0].score < 0.9
