"""A message that runs on over the next line, when that line is an error of its own: the
catalog knows the line as a message read there (a record logged under the exception, or a
paster who listed two lines), so the first error's message stops before it."""

from __future__ import annotations

from tests.views import demo_entry

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text


def _entry(letter: str, exception: str, template: str, path: str, kind: str):
    return demo_entry(letter, exception, kind, template, f"demo/{path}:3")


VIEW = MemoryCatalog(
    [
        _entry("a", "ImportError", "Missing plugin <name>", "plug.py", "raise"),
        _entry("b", "warning", "Cannot start the responses endpoint, error: <e>", "http.py", "log"),
    ]
)


def test_a_known_message_on_the_next_line_is_not_the_message_run_on():
    text = (
        "Warnings at start:\n\n```\nImportError: Missing plugin 'harmony'\n"
        "Cannot start the responses endpoint\n```\n"
    )
    first, second = explain_text(text, VIEW)
    assert first.error.message == "Missing plugin 'harmony'"
    assert first.matches[0].entry.id == "a" * 16 and first.matches[0].score >= 0.9
    assert second.error.message == "Cannot start the responses endpoint"
    assert second.matches[0].entry.id == "b" * 16


def test_a_continuation_line_the_catalog_does_not_know_stays_in_the_message():
    text = "ImportError: Missing plugin 'harmony'\nthe wheel was built without it\n"
    (exp,) = explain_text(text, VIEW)
    assert exp.error.message == "Missing plugin 'harmony'\nthe wheel was built without it"


def test_a_record_the_project_logs_under_an_exception_line_is_not_its_message():
    # the record's log prefix left out by the paster: its whole text is a logged message
    view = MemoryCatalog(
        [
            _entry("c", "RuntimeError", "Pool exhausted for layer <n>", "pool.py", "raise"),
            _entry(
                "d",
                "warning",
                "Scheduler got a quit signal, a child process failed.",
                "m.py",
                "log",
            ),
        ]
    )
    text = (
        "RuntimeError: Pool exhausted for layer 3\n"
        "Scheduler got a quit signal, a child process failed.\n"
    )
    exp = explain_text(text, view)[0]
    assert exp.error.message == "Pool exhausted for layer 3"
    assert exp.matches[0].entry.id == "c" * 16 and exp.matches[0].score >= 0.9
