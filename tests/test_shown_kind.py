"""One text that one part of a project sends to a request's client (an abort) and another part
writes to the log: the paste's form says which output it shows. A log record was printed by the
site that logs it; an HTTP error body was sent by the site that aborts the request."""

from __future__ import annotations

import pytest
from tests.views import catalog_view

from errexplain.explainer import explain_text
from errexplain.models import Entry, Project, Source, make_id


def _entry(path: str, kind: str, template: str) -> Entry:
    return Entry(
        id=make_id("pkg", path, "f", template),
        project="pkg",
        exception="error" if kind == "log" else "abort",
        kind=kind,
        template=template,
        source=Source("pkg", "1.0", path, 10, "f", None),
        derived=True,
    )


# (the sending site comes first by its shorter path; the logging one names its value otherwise)
SENT = _entry("pkg/pd/pf.py", "abort", "Rule check failed for req <rid> with token <t>: <e>")
LOGGED = _entry(
    "pkg/scheduler/batch_result.py",
    "log",
    "Rule check failed for req <req.rid> with token <ids>: <e>",
)


@pytest.fixture(params=["memory", "index"])
def view(request):
    return catalog_view(request.param, (SENT, LOGGED), [Project("pkg", "1.0")])


def test_a_log_record_answers_the_site_that_logs_it(view):
    line = "[2026-01-02 10:00:00 TP0] Rule check failed for req 9f2c with token [443]: rejected\n"
    (exp,) = explain_text(line, view)
    assert exp.matches[0].entry.id == LOGGED.id
    assert "which this site writes" in " ".join(exp.matches[0].reasons)
    assert {m.entry.id for m in exp.matches} == {SENT.id, LOGGED.id}  # (both still listed)


def test_an_error_body_answers_the_site_that_sends_it(view):
    body = (
        '{"object": "error", "message": "Rule check failed for req 9f2c with token [443]: '
        'rejected", "type": "InternalServerError", "code": 500}\n'
    )
    (exp,) = explain_text(body, view)
    assert exp.matches[0].entry.id == SENT.id
