"""Locating errors without a message (or with an assert statement as message) by frames."""

from __future__ import annotations

import pytest

from errexplain.catalog.index import Index, build_bytes
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_error, explain_text
from errexplain.match.sites import (
    FUNCTION_SCORE,
    STATEMENT_SCORE,
    ambiguous,
    assert_test,
    code_key,
    locate,
    site_key,
    wants_sites,
)
from errexplain.models import Entry, Frame, Project, RaisedError, Source, make_id


def entry(
    function: str,
    line: int,
    statement: str | None = None,
    template: str = "",
    exception: str = "NotImplementedError",
    kind: str = "raise",
    condition: str | None = None,
    path: str = "pkg/models/llama.py",
) -> Entry:
    return Entry(
        id=make_id("pkg", path, f"{function}#{line}", template or statement or ""),
        project="pkg",
        exception=exception,
        template=template,
        source=Source("pkg", "1.0", path, line, function, None),
        kind=kind,
        condition=condition,
        statement=statement,
        derived=True,
    )


ENTRIES = (
    entry("LlamaModel.forward", 40, "raise NotImplementedError"),
    entry("LlamaModel.forward", 44, "raise NotImplementedError('')"),
    entry(
        "LlamaModel.load",
        80,
        "assert req.prefix_indices is not None",
        exception="AssertionError",
        kind="assert",
        condition="req.prefix_indices is not None",
    ),
    entry(
        "LlamaModel.load",
        90,
        template="shapes differ: <a>",
        exception="AssertionError",
        kind="assert",
        condition="x.shape[0] == len(y)",
    ),
    entry("LlamaModel.load", 95, template="load failed: <e>", exception="ValueError"),
    entry("Other.forward", 12, "raise NotImplementedError", path="pkg/models/other.py"),
)


@pytest.fixture(params=["memory", "index"])
def view(request):
    if request.param == "memory":
        return MemoryCatalog(ENTRIES)
    return Index.from_bytes(build_bytes(ENTRIES, [Project("pkg", "1.0")], "k"))


def error(type_: str, message: str, *frames: Frame) -> RaisedError:
    return RaisedError(type_, message, frames)


def frame(function: str, line: int, code: str | None, path: str | None = None) -> Frame:
    path = path or "/usr/lib/python3/site-packages/pkg/models/llama.py"
    return Frame(path, line, function, code)


def test_helpers():
    assert site_key("a/b/llama.py", "LlamaModel.forward") == "llama.py\0forward"
    assert site_key("C:\\x\\llama.py", "forward") == "llama.py\0forward"
    assert assert_test("assert  x ==\n y") == "x == y"
    assert assert_test("assertion failed") is None and assert_test("assert ") is None
    assert wants_sites("") and wants_sites("  ") and wants_sites("assert x")
    assert not wants_sites("x must be positive")
    assert code_key('assert  x == "a",  # why') == "assertx=='a'"


def test_statement_shown_under_the_frame_is_an_exact_hit(view):
    err = error(
        "NotImplementedError",
        "",
        frame("main", 3, "model.forward(x)", "/app/run.py"),
        frame("forward", 47, "raise NotImplementedError('')"),
    )
    hits = locate(view, err)
    assert hits[0].cand.line == 44 and hits[0].kind == "exact"
    assert hits[0].score >= 0.9
    assert any("this statement" in r for r in hits[0].reasons)
    assert hits[1].score < 0.7  # the frame shows another line than this one


def test_without_source_lines_every_statement_of_the_function_fits(view):
    err = error("NotImplementedError", "", frame("forward", 41, None))
    hits = locate(view, err)
    assert [h.cand.line for h in hits] == [40, 44]
    assert hits[0].kind == "fuzzy"
    assert hits[0].score == pytest.approx(FUNCTION_SCORE)
    assert ambiguous(hits) is False  # different statements
    assert "no source line" in hits[0].reasons[-1]


def test_same_line_is_a_bonus_and_a_moved_file_a_cost(view):
    at_line = locate(view, error("NotImplementedError", "", frame("forward", 40, None)))
    assert at_line[0].score == pytest.approx(FUNCTION_SCORE + 0.02)
    moved = frame("forward", 7, "raise NotImplementedError", "/src/pkg/llama.py")
    (top, *_) = locate(view, error("NotImplementedError", "", moved))
    assert top.cand.line == 40 and top.kind == "exact"
    assert top.score == pytest.approx(STATEMENT_SCORE - 0.05)
    assert any("moved" in r for r in top.reasons)


def test_bare_assert_and_type(view):
    f = frame("load", 83, "assert req.prefix_indices is not None")
    (top,) = locate(view, error("AssertionError", "", f))
    assert (top.cand.line, top.kind) == (80, "exact")
    (wrong,) = locate(view, error("KeyError", "", f))
    assert wrong.score < top.score and "not KeyError" in wrong.reasons[-1]


def test_assert_statement_as_message_is_compared_with_conditions(view):
    err = error(
        "AssertionError", "assert x.shape[0]  == len(y)", frame("load", 91, "assert something")
    )
    hits = locate(view, err)
    assert (hits[0].cand.line, hits[0].kind) == (90, "exact")
    assert "the message is this assert statement" in hits[0].reasons
    assert all(h.cand.kind == "assert" for h in hits)
    assert hits[1].score < 0.7


def test_messages_and_outer_frames(view):
    f = frame("forward", 40, "raise NotImplementedError")
    assert locate(view, error("NotImplementedError", "not implemented", f)) == []
    assert locate(view, error("NotImplementedError", "")) == []
    # only message-less entries are candidates for an empty message
    assert all(not h.cand.template for h in locate(view, error("ValueError", "", f)))
    outer = error("NotImplementedError", "", f, frame("call", 1, "x()", "/usr/lib/torch/nn.py"))
    (top, *_) = locate(view, outer)
    assert top.score == pytest.approx(STATEMENT_SCORE + 0.02 - 0.05)
    unnamed = error("NotImplementedError", "", Frame("/x/llama.py", 40, None, None))
    assert locate(view, unnamed) == []


def test_two_identical_statements_are_ambiguous():
    twins = (
        entry("A.f", 10, "raise NotImplementedError"),
        entry("A.f", 20, "raise NotImplementedError"),
    )
    view = MemoryCatalog(twins)
    exp = explain_error(error("NotImplementedError", "", frame("f", 15, None)), view)
    assert exp.ambiguous and len(exp.matches) == 2


def test_explain_uses_site_hits(view):
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/pkg/models/llama.py", line 47, in forward\n'
        "    raise NotImplementedError('')\n"
        "NotImplementedError\n"
    )
    (exp,) = explain_text(text, view)
    assert exp.matches[0].entry.source.line == 44
    assert exp.matches[0].kind == "exact"
    assert exp.matches[0].entry.statement == "raise NotImplementedError('')"


def test_explain_keeps_low_site_hits_as_nearest(view):
    far = frame("forward", 99, "x = compute()", "/elsewhere/torch/llama.py")
    exp = explain_error(error("KeyError", "", frame("main", 1, "run()", "/app.py"), far), view)
    assert not exp.matches
    assert exp.nearest and exp.nearest[0].entry.source.function == "LlamaModel.forward"
    assert explain_error(error("KeyError", "", frame("main", 1, "x", "/a.py")), view).nearest == ()


def test_message_hits_are_kept_alongside_site_hits(view):
    err = error("AssertionError", "assert x.shape[0] == len(y)", frame("load", 91, None))
    exp = explain_error(err, view)
    assert exp.matches[0].entry.source.line == 90
