"""Locating errors without a message (or with an assert statement as message) by frames."""

from __future__ import annotations

import pytest

from errexplain.catalog.index import Index
from errexplain.catalog.index_build import build_bytes
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_error, explain_text
from errexplain.match.sites import (
    CONDITION_SCORE,
    FUNCTION_SCORE,
    MOVED,
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
    entry(
        "Other.check",
        20,
        "assert self.chunked is None",
        exception="AssertionError",
        kind="assert",
        condition="self.chunked is None",
        path="pkg/models/other.py",
    ),
    entry(
        "Other.check_again",
        30,
        template="chunked must be None here",
        exception="AssertionError",
        kind="assert",
        condition="self.chunked is None",
        path="pkg/models/other.py",
    ),
    entry(
        "LlamaForCausalLM.load_weights",
        120,
        "param = params_dict[name]",
        exception="KeyError",
        kind="lookup",
        path="pkg/models/llama.py",
    ),
    entry(
        "LlamaForCausalLM.load_weights",
        130,
        "param = params_dict[other]",
        exception="KeyError",
        kind="lookup",
        path="pkg/models/llama.py",
    ),
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
    # the statement's own message, or prose put after a comma, is not part of the test
    assert assert_test('assert x is None, "busy"') == "x is None"
    assert assert_test("assert req is None, related to `chunked_prefill_size`") == "req is None"
    assert assert_test("assert f(a, b) == {'k': [1, 2]}, (a, b)") == "f(a, b) == {'k': [1, 2]}"
    assert assert_test("assert s == ', ', s") == "s == ', '"
    assert wants_sites("") and wants_sites("  ") and wants_sites("assert x")
    assert not wants_sites("x must be positive")
    assert wants_sites("'lm_head.weight'", "KeyError") and wants_sites("37", "builtins.KeyError")
    assert not wants_sites("'lm_head.weight'", "ValueError")
    assert not wants_sites("'a' and 'b'", "KeyError") and not wants_sites("no key", "KeyError")
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
    # a frame that names only the file (prose: "line 40 of llama.py") fits any of its sites,
    # below the cutoff unless its code is shown
    unnamed = error("NotImplementedError", "", Frame("/x/llama.py", 40, None, None))
    hits = locate(view, unnamed)
    assert hits and all(h.score < 0.8 for h in hits)
    assert "names pkg/models/llama.py, not the function" in hits[0].reasons[0]


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


def test_an_assert_statement_without_frames_is_found_by_its_test(view):
    """Only one message-less site asserts it: found anywhere; an assert with its own message
    (which Python would print instead) comes second."""
    hits = locate(view, error("AssertionError", "assert self.chunked  is None"))
    assert [h.cand.line for h in hits] == [20]
    assert hits[0].score == pytest.approx(0.92) and hits[0].kind == "exact"
    exp = explain_error(error("AssertionError", "assert self.chunked is None"), view)
    assert exp.matches[0].entry.source.line == 20


@pytest.mark.parametrize(
    "message",
    [
        "self.chunked is None",  # the test written without `assert`
        "chunked is None",  # and without the attribute's owner
        "assert chunked  is None",  # the statement, `self.` left out
    ],
)
def test_an_assertion_error_whose_message_is_the_test_is_found_by_it(view, message):
    """A report quotes the check that failed as `AssertionError: <test>`, often without the
    `self.` the source has: found as the statement, a little lower when `self.` was left out."""
    exp = explain_error(error("AssertionError", message), view)
    assert exp.matches and exp.matches[0].entry.source.line == 20
    assert exp.matches[0].score < 0.92 or "self." in message
    assert any("assert statement" in r for r in exp.matches[0].reasons)


@pytest.mark.parametrize(
    "type_, message",
    [
        ("AssertionError", "self.other is None"),  # a test no site asserts
        ("ValueError", "self.chunked is None"),  # not an AssertionError
        ("AssertionError", "chunked is None and the server stops"),  # prose, no expression
        ("AssertionError", "chunked"),  # a bare name: no operator, call or attribute
    ],
)
def test_other_messages_are_not_read_as_a_test(view, type_, message):
    exp = explain_error(error(type_, message), view)
    assert not any("assert statement" in r for m in exp.matches for r in m.reasons) and not any(
        m.entry.source.line == 20 for m in exp.matches
    )


def _weight_loaders(n: int, test: str) -> tuple[Entry, ...]:
    return tuple(
        entry(
            f"Loader{i}.weight_loader",
            100 + i,
            f"assert {test}",
            exception="AssertionError",
            kind="assert",
            condition=test,
            path=f"pkg/layers/loader{i}.py",
        )
        for i in range(n)
    )


def test_a_specific_test_asserted_at_a_few_sites_is_offered_as_their_tie():
    """`AssertionError: assert <test>` with no frames, the test asserted by six loaders: all six
    are listed (tied, ambiguous), not "no match"; the tie costs what three sites would."""
    test = "loaded_shard_id < len(self.output_sizes)"
    view = MemoryCatalog(_weight_loaders(6, test))
    exp = explain_error(error("AssertionError", f"assert {test}"), view)
    assert exp.ambiguous and len(exp.matches) == 5  # (the five shown of six)
    assert exp.matches[0].score == pytest.approx(0.92 - 2 * 0.04)
    assert "6 sites assert the same test" in exp.matches[0].reasons[1]


def test_a_short_test_shared_by_many_sites_stays_unmatched():
    """`assert x is not None` in many places, or a specific test in very many: no answer."""
    short = MemoryCatalog(_weight_loaders(6, "x is not None"))
    assert not explain_error(error("AssertionError", "assert x is not None"), short).matches
    test = "loaded_shard_id < len(self.output_sizes)"
    many = MemoryCatalog(_weight_loaders(13, test))
    assert not explain_error(error("AssertionError", f"assert {test}"), many).matches


def test_a_prose_mention_of_the_file_and_the_assert_is_an_exact_hit(view):
    text = "The assertion `assert self.chunked is None` in line 19 of pkg/models/other.py fails.\n"
    (exp,) = explain_text(text, view)
    assert exp.error.type == "AssertionError" and exp.error.form == "prose"
    assert exp.matches[0].entry.source.line == 20 and exp.matches[0].score >= 0.9
    assert exp.matches[1].entry.source.line == 30  # has its own message: second
    assert exp.matches[0].score > exp.matches[1].score


@pytest.mark.parametrize(
    "line",
    [
        "When two requests race, the hard `assert` in `other.check()` fires and the server dies.",
        "The assertion in other.check failed on rank 3.",
    ],
)
def test_an_assert_named_by_its_module_and_function_is_found_there(view, line):
    """Prose that names the assert that failed by where it is, not by its statement: the
    message-less assert of that function, found as a frame there would find it (not sure)."""
    (exp,) = explain_text(line + "\n", view)
    assert exp.error.type == "AssertionError" and exp.error.form == "prose"
    assert exp.matches[0].entry.source.line == 20 and exp.matches[0].score < 0.9


@pytest.mark.parametrize(
    "line",
    [
        "The assertion in other.check is fine now.",  # not said to fail
        "The assert in Other.check fires.",  # a class, not a module
        "It fires an assertion error somewhere.",  # nothing named
    ],
)
def test_an_assert_mentioned_without_where_it_failed_is_no_error(view, line):
    assert explain_text(line + "\n", view) == ()


def test_a_key_error_with_only_its_key_is_located_at_the_parameter_lookup(view):
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/site-packages/pkg/models/llama.py", line 118, in load_weights\n'
        "    param = params_dict[name]\n"
        "            ~~~~~~~~~~~^^^^^^\n"
        "KeyError: 'model.layers.0.mlp.gate_up_proj.weight'\n"
    )
    (exp,) = explain_text(text, view)
    top = exp.matches[0]
    assert (top.entry.source.line, top.kind) == (120, "exact")
    assert top.score >= 0.9
    assert all(m.entry.source.line != 130 or m.score < top.score for m in exp.matches)


def test_older_sites_follow_the_at_text():
    from errexplain.models import at_sites as _older_sites

    at = "0.4.6 pkg/a.py:12 A.f; 0.5.0..0.5.2 :14; 0.5.3 pkg/b.py:9 B.g; 0.5.4 :10"
    assert _older_sites(at) == [("pkg/a.py", "A.f"), ("pkg/b.py", "B.g")]
    assert _older_sites(None) == [] and _older_sites("0.4.6") == []


def test_a_frame_in_the_function_of_an_older_release_finds_the_site():
    """The lookup moved from load_weights to _legacy_load_weights: a frame of the old release
    names the old function."""
    moved = Entry(
        id=make_id("pkg", "pkg/models/qwen.py", "Q._legacy_load_weights#90", "param = d[name]"),
        project="pkg",
        exception="KeyError",
        template="",
        source=Source("pkg", "1.0", "pkg/models/qwen.py", 90, "Q._legacy_load_weights", None),
        kind="lookup",
        statement="param = d[name]",
        derived=True,
        at="0.1 pkg/models/qwen.py:40 Q.load_weights; 1.0 :90 Q._legacy_load_weights",
    )
    for view in (
        MemoryCatalog((moved,)),
        Index.from_bytes(build_bytes((moved,), [Project("pkg", "1.0")], "k")),
    ):
        f = Frame("/x/pkg/models/qwen.py", 40, "load_weights", "param = d[name]")
        (top,) = locate(view, error("KeyError", "'lm_head.weight'", f))
        assert (top.cand.line, top.kind) == (90, "exact")


def test_a_bare_assert_in_a_renamed_file_is_found_by_the_statement_its_frame_shows(view):
    """The release renamed the file (`other_v2.py`): no site has that file name, but the
    innermost frame shows the recorded statement in the recorded function."""
    moved = "/srv/pkg/models/other_v2.py"
    hits = locate(
        view, error("AssertionError", "", frame("check", 25, "assert self.chunked is None", moved))
    )
    assert (hits[0].cand.line, hits[0].kind) == (20, "exact")
    assert hits[0].score == pytest.approx(STATEMENT_SCORE - MOVED)
    assert "moved from pkg/models/other.py" in hits[0].reasons[-1]
    # the statement shown in another function: the same test, weaker than a located site
    (elsewhere,) = locate(
        view, error("AssertionError", "", frame("run", 9, "assert self.chunked is None", moved))
    )
    assert elsewhere.cand.line == 20 and elsewhere.score < hits[0].score
    # an assert with a message of its own would have printed it: not a bare assert's site
    assert all(h.cand.line != 30 for h in hits)
    # a message, or a line that is no assert, is not looked up by statement
    assert locate(view, error("AssertionError", "", frame("check", 25, "x = f()", moved))) == []


def test_a_paste_that_starts_at_the_code_line_is_found_by_the_statement_shown(view):
    """No frame line: the paste starts at the innermost frame's code line (its caret line
    under it), then a message-less `AssertionError`. The statement is read from the line above
    the exception line and looked up by its test; one with a message of its own would have
    printed it, so it is not offered."""
    for caret in ("", "           ^^^^^^^^^^^^^^^^^\n"):
        text = f"lost the top of the log\n    assert self.chunked is None\n{caret}AssertionError\n"
        (exp,) = explain_text(text, view)
        assert exp.error.message == "" and exp.error.shown == "assert self.chunked is None"
        assert [m.entry.source.line for m in exp.matches] == [20]
        assert exp.matches[0].score == pytest.approx(CONDITION_SCORE)
        assert "the line above the exception shows" in exp.matches[0].reasons[0]
    # only an assert right above: a blank line, other code or a message breaks the link
    for text in (
        "    assert self.chunked is None\n\nAssertionError\n",
        "    x = self.chunked\nAssertionError\n",
        "    assert self.chunked is None\nAssertionError: chunked must be None here\n",
    ):
        (exp,) = explain_text(text, view)
        assert exp.error.shown == "" and all(m.entry.source.line != 20 for m in exp.matches)


# A traceback cut before its exception line (a paste or an issue excerpt that stops at the
# raise) still shows where the message was raised: the raise line under the innermost frame.
def test_a_cut_message_is_found_by_the_raise_line_its_frame_shows(view):
    shown = frame("load", 96, 'raise ValueError(f"load failed: {e}")')
    (top, *_) = locate(view, error("", "", shown))
    assert top.cand.line == 95 and top.kind == "exact" and top.score >= STATEMENT_SCORE
    assert "raises this message" in " ".join(top.reasons)
    # the raise line names no text (the message is on the lines below): the exception decides
    (top, *_) = locate(view, error("", "", frame("load", 96, "raise ValueError(")))
    assert top.cand.line == 95 and top.kind == "fuzzy" and top.score == FUNCTION_SCORE
    # cut inside the exception's name
    (top, *_) = locate(view, error("", "", frame("load", 96, "raise Valu")))
    assert top.cand.line == 95 and "cut inside the name" in " ".join(top.reasons)


def test_a_cut_message_is_not_pinned_on_a_site_the_frame_does_not_show(view):
    other_text = frame("load", 96, 'raise ValueError(f"could not open {path}")')
    assert all(h.score < 0.8 for h in locate(view, error("", "", other_text)))
    other_type = frame("load", 96, "raise KeyError(")
    assert all(h.score < 0.8 for h in locate(view, error("", "", other_type)))
    # the frame's line is no raise: the exception came from deeper code, not from a raise here
    lookup = frame("load", 96, "value = table[key]")
    assert all(not h.cand.template for h in locate(view, error("", "", lookup)))
    # only the innermost frame shows where a message was raised
    outer = error("", "", frame("load", 96, "raise ValueError("), frame("g", 3, "x()", "/t/nn.py"))
    assert all(not h.cand.template for h in locate(view, outer))


def test_a_paste_cut_at_a_frame_header_tells_no_statement_of_its_function(view):
    """The paste stops at a frame's `File ... in load` line, before its source line: the call
    may go on into frames cut away, so no assert or raise of `load` is told; once the
    exception line is there (an AssertionError without a message) the function's asserts are
    the candidates again."""
    header = frame("load", 96, None)
    assert locate(view, error("", "", header)) == []
    assert locate(view, error("", "", frame("g", 3, "x()", "/t/nn.py"), header)) == []
    assert any(not h.cand.template for h in locate(view, error("AssertionError", "", header)))


def test_explain_a_traceback_cut_at_the_raise(view):
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/pkg/models/llama.py", line 97, in load\n'
        '    raise ValueError(f"load failed: {e}")\n'
    )
    (exp,) = explain_text(text, view)
    assert exp.matches[0].entry.source.line == 95 and exp.matches[0].kind == "exact"


def test_an_exception_line_printed_without_a_message_was_raised_without_one(view):
    # `ValueError` alone under the frames: Python printed no message, so no message was cut
    shown = frame("load", 96, 'raise ValueError(f"load failed: {e}")')
    assert all(not h.cand.template for h in locate(view, error("ValueError", "", shown)))


def test_a_cut_assert_is_found_by_its_test(view):
    shown = frame("load", 91, 'assert x.shape[0] == len(y), f"shapes differ: {a}"')
    (top, *_) = locate(view, error("", "", shown))
    assert top.cand.line == 90 and top.kind == "exact"
    other = frame("load", 91, "assert x.shape[1] == len(z), msg")
    assert all(h.cand.line != 90 or h.score < 0.8 for h in locate(view, error("", "", other)))


def _loader(cls: str, at: str, line: int) -> Entry:
    stmt = "assert param_data.shape == loaded_weight.shape"
    return Entry(
        id=make_id("pkg", "pkg/layers/linear.py", f"{cls}.weight_loader", stmt),
        project="pkg",
        exception="AssertionError",
        template="",
        source=Source("pkg", "1.0", "pkg/layers/linear.py", line, f"{cls}.weight_loader", None),
        kind="assert",
        condition="param_data.shape == loaded_weight.shape",
        statement=stmt,
        derived=True,
        releases=("0.1", "1.0"),
        at=f"0.1 pkg/layers/linear.py:{at}; 1.0 :{line}",
    )


def test_of_same_statement_sites_the_one_at_the_frames_line_in_some_release_comes_first():
    # four weight loaders assert the same test; the frame names only `weight_loader`: the line
    # tells them apart, in whichever release the paste comes from (a build may shift it a bit)
    column = _loader("Column", "416 Column.weight_loader", 579)
    merged = _loader("Merged", "572 Merged.weight_loader", 761)
    entries = (merged, column)
    for v in (
        MemoryCatalog(entries, projects=[Project("pkg", "1.0")]),
        Index.from_bytes(build_bytes(entries, [Project("pkg", "1.0")], "k")),
    ):
        shown = "assert param_data.shape == loaded_weight.shape"
        f = Frame("/x/pkg/layers/linear.py", 416, "weight_loader", shown)
        first, second = locate(v, error("AssertionError", "", f))
        assert first.cand.id == column.id and first.raw > second.raw
        assert "at the recorded line 416 (0.1)" in first.reasons
        near = Frame("/x/pkg/layers/linear.py", 418, "weight_loader", shown)
        first, second = locate(v, error("AssertionError", "", near))
        assert first.cand.id == column.id and first.raw == second.raw


def test_reading_release_lines_only_for_sites_that_can_rank_changes_nothing(bundled_index):
    """locate reads a site's lines in every release only when they could lift it into the best
    `limit`; over message-less sites of the bundled catalog (frames at their line, shifted,
    showing their statement or another line, at each depth) the best five are those of a
    locate that reads every site's lines."""
    import random

    rng = random.Random(7)
    sites = [
        c
        for c in bundled_index.candidates()
        if not c.template and c.path and c.function and c.line and c.project == "sglang"
    ]
    checked = 0
    for cand in rng.sample(sites, 300):
        e = bundled_index.entry(cand.pos)
        func = cand.function.rsplit(".", 1)[-1]
        line = cand.line + rng.choice((0, 0, 3, -40))
        code = rng.choice((e.statement, "x = y", None))
        frames = [Frame(f"/site-packages/{cand.path}", line, func, code)]
        if rng.random() < 0.3:
            frames.insert(0, Frame(f"/site-packages/{cand.path}", 1, "caller", None))
        err = RaisedError(e.exception, "", tuple(frames[::-1][::-1]))
        pruned = locate(bundled_index, err)
        full = locate(bundled_index, err, limit=10**6)[:5]
        assert [(h.id, h.raw, h.reasons) for h in pruned] == [
            (h.id, h.raw, h.reasons) for h in full
        ]
        checked += bool(full)
    assert checked > 250
