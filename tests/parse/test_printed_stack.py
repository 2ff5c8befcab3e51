"""A stack a program printed on purpose (Python logging's `stack_info=True`, a record followed
by `Stack trace:` and `traceback.format_stack()`) is no error's traceback: it is not read as
a traceback cut before its exception line, and the record above it is what the paste reports."""

from __future__ import annotations

import io
import logging
import traceback

from tests.views import one_entry

from errexplain._startup import replace
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.parse import parse_traceback

WARNING = "Widget buffers are not pinned: <count> found"


def _inner_log(logger: logging.Logger) -> None:
    logger.warning("Widget buffers are not pinned: 3 found", stack_info=True)


def _logged_with_stack() -> str:
    """What logging prints for a record logged with stack_info=True (run, not written)."""
    out = io.StringIO()
    logger = logging.getLogger("errexplain-test-stack")
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("[%(asctime)s TP0] %(message)s"))
    logger.addHandler(handler)
    logger.propagate = False
    try:
        _inner_log(logger)
    finally:
        logger.removeHandler(handler)
    return out.getvalue()


def _record_then_stack() -> str:
    """A record, its detail line, `Stack trace:` and the stack format_stack() gives."""
    stack = "".join(traceback.format_stack())
    return (
        "[2026-03-01 10:00:00 TP0] Widget buffers are not pinned: 1 found\n"
        "  - 'input' (shape=[512, 2048])\n"
        f"Stack trace:\n{stack}"
    )


VIEW = MemoryCatalog([replace(one_entry(WARNING, "warning", "pkg/pinning.py"), kind="log")])


def test_logging_stack_info_is_no_cut_traceback():
    text = _logged_with_stack()
    assert "Stack (most recent call last):" in text  # (what logging really prints)
    assert parse_traceback(text) == ()
    (exp,) = explain_text(text, VIEW)
    assert exp.error.message.startswith("Widget buffers are not pinned: 3 found")
    assert exp.matches and exp.matches[0].entry.template == WARNING


def test_a_records_stack_trace_line_announces_a_printed_stack():
    text = _record_then_stack()
    assert parse_traceback(text) == ()
    (exp,) = explain_text(text, VIEW)
    assert exp.matches and exp.matches[0].entry.template == WARNING


def test_a_traceback_a_person_labels_stack_trace_is_still_a_cut_traceback():
    # no log record above the label: the frames of an error whose last line was not pasted
    frames = "".join(traceback.format_stack()[-2:])
    for text in (f"Stack trace:\n{frames}", f"I got this.\n\nStack trace:\n{frames}"):
        (err,) = parse_traceback(text)
        assert err.truncated and err.frames


def test_a_printed_stack_followed_by_an_exception_line_is_its_traceback():
    frames = "".join(traceback.format_stack()[-2:])
    text = (
        "[2026-03-01 10:00:00 TP0] Widget buffers are not pinned: 1 found\n"
        f"Stack trace:\n{frames}RuntimeError: pinning failed\n"
    )
    errors = parse_traceback(text)
    assert [e.message for e in errors] == ["pinning failed"]
    assert errors[0].frames
