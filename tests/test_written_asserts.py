"""Assert statements written without quotes around them, in a paste where no error is found:
an issue title that is the statement alone, a fenced line, pytest's `E` line, or prose that
introduces it (`I hit this assertion: assert ...`). A catalogued message-less assert site
that tests it explains it as its AssertionError; prose that merely says `assert` does not."""

from __future__ import annotations

import pytest
from tests.views import catalog_view

from errexplain.explainer import WRITTEN_NOTE, explain_text
from errexplain.match.sites import written_asserts
from errexplain.models import Entry, Source

TEST = "self.pool.backup is not None"


def _assert_site(ident: str, path: str, condition: str) -> Entry:
    return Entry(
        id=ident,
        project="demo",
        exception="AssertionError",
        template="",
        source=Source("demo", "1.0", path, 40, "Pool.restore", None),
        kind="assert",
        condition=condition,
        statement=f"assert {condition}",
        derived=True,
    )


ENTRIES = (
    _assert_site("a" * 16, "demo/pool.py", TEST),
    _assert_site("b" * 16, "demo/batch.py", "len(out) == len(req.ids)"),
)


@pytest.fixture(params=["memory", "index"])
def view(request):
    return catalog_view(request.param, ENTRIES)


@pytest.mark.parametrize(
    "text",
    [
        f"assert {TEST}\n",  # an issue title: the statement alone
        f"```\nassert {TEST}\n```\n",
        f"E       assert {TEST}\n",  # pytest's line for the failed statement
        f"I hit this assertion: assert {TEST}\n",
        f"The retract path fails at assert {TEST} in pool.py after an abort.\n",
        f"- [x] the check assert {TEST}. fires on the second request\n",
    ],
)
def test_a_written_assert_statement_is_explained_as_its_assertion_error(view, text):
    (exp,) = explain_text(text, view)
    assert exp.error.type == "AssertionError" and exp.error.message == f"assert {TEST}"
    assert exp.matches[0].entry.source.path == "demo/pool.py"
    assert WRITTEN_NOTE in exp.notes


@pytest.mark.parametrize(
    "text",
    [
        "We should assert that the pool is empty before a restore.\n",
        "assert pool.other is None\n",  # a statement no site asserts
        "Check that `pool.restore` asserts nothing here.\n",
    ],
)
def test_prose_that_says_assert_or_an_unknown_statement_is_no_error(view, text):
    assert explain_text(text, view) == ()


def test_two_written_statements_are_two_errors_and_a_repeat_is_one(view):
    text = (
        f"First run: assert {TEST}\nSecond run: assert len(out) == len(req.ids)\n"
        f"Third run: assert {TEST}\n"
    )
    exps = explain_text(text, view)
    assert [x.matches[0].entry.source.path for x in exps] == ["demo/pool.py", "demo/batch.py"]


def test_written_asserts_takes_the_longest_catalogued_run(view):
    line = f"fails at assert {TEST} in pool.py, line 40"
    assert written_asserts(view, line) == [TEST]
    assert written_asserts(view, "a quoted `assert " + TEST + "` is the parser's") == []


def test_a_pasted_source_file_is_read_at_its_head_and_tail_only(view):
    """Thousands of asserts (a source file pasted whole) cost a bounded number of parses: the
    first and last WRITTEN_LINES lines that say `assert` are read, the middle is not."""
    from errexplain.explainer import WRITTEN_LINES

    filler = [f"    assert layer_{i}.ready()" for i in range(3 * WRITTEN_LINES)]
    head = "\n".join([f"assert {TEST}", *filler]) + "\n"
    middle = "\n".join([*filler[:WRITTEN_LINES], f"assert {TEST}", *filler]) + "\n"
    assert [x.error.message for x in explain_text(head, view)] == [f"assert {TEST}"]
    assert explain_text(middle, view) == ()
