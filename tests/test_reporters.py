"""A log record that reports an exception it caught (`Sync failed for job=... with exception
PeerError(job=7): peer gone`): the exception inside it is explained at its own raise site, and
the record, when the whole of it is a catalogued message whose values hold the exception, is an
error of its own at the site that logged it, listed first (read as printed)."""

from __future__ import annotations

from tests.views import demo_entry

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text

_entry = demo_entry


RECORD = _entry(
    "a",
    "error",
    "log",
    "Sync failed for request rank=<rank> job=<job!r> with exception <e>",
    "demo/sync.py:120",
)
INNER = _entry(
    "b", "PeerError", "raise", "The peer went away before the transfer finished", "demo/conn.py:77"
)
GENERIC = _entry("c", "error", "log", "Error: <e>", "demo/util.py:5")
VIEW = MemoryCatalog([RECORD, INNER, GENERIC])
LINE = (
    "[2026-02-01 10:00:00 TP1] Sync failed for request rank=1 job='9f2c' with exception "
    "PeerError(job=7): The peer went away before the transfer finished\n"
)


def _answers(text: str) -> list[tuple[str, str]]:
    return [
        (x.error.message[:10], x.matches[0].entry.id if x.matches else "-")
        for x in explain_text(text, VIEW)
    ]


def test_the_record_and_the_exception_it_reports_are_both_explained():
    got = _answers(f"```\n{LINE}[2026-02-01 10:00:01] INFO: 200 OK\n```\n")
    assert got == [("Sync faile", "a" * 16), ("The peer w", "b" * 16)]


def test_every_rank_printing_the_record_gives_one_answer_each():
    text = LINE + LINE.replace("TP1", "TP2").replace("rank=1", "rank=2")
    got = _answers(text)
    assert [a for _, a in got].count("a" * 16) == 1
    assert ("The peer w", "b" * 16) in got


def test_not_a_record_the_catalog_does_not_know():
    text = LINE.replace("Sync failed for request", "Replication stalled on request")
    assert _answers(text) == [("The peer w", "b" * 16)]


def test_not_a_record_too_short_before_the_exception_or_a_generic_one():
    # a template that is all value (`Error: <e>`) is not the record's own message
    short = (
        "[2026-02-01 10:00:00 TP1] Error: PeerError(job=7): "
        "The peer went away before the transfer finished\n"
    )
    assert _answers(short) == [("The peer w", "b" * 16)]


def test_a_record_its_paster_elided_before_the_exception_is_still_the_record():
    # the paster left the request's values and `with exception` out (`...`): the record is
    # read by its head, and the exception after the ellipsis is explained on its own
    for elided in (
        "Sync failed for request ... PeerError(...): The peer went away before the transfer "
        "finished",
        "Sync failed for request ... with exception PeerError(job=7): The peer went away before "
        "the transfer finished",
    ):
        got = _answers(f"[TP1] {elided}\n")
        assert got == [("Sync faile", "a" * 16), ("The peer w", "b" * 16)], elided


def test_an_ellipsis_after_the_exception_does_not_make_a_record():
    # the record's own words are all there; what the paster elided is inside the message
    text = LINE.replace("job='9f2c'", "job=...").replace("rank=1", "rank=?")
    got = _answers(text.replace("Sync failed for request", "Replication stalled on request"))
    assert got == [("The peer w", "b" * 16)]
