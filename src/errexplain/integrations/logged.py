"""Errors a program logs itself (`install(logs=True)`, `ERREXPLAIN_HOOK=logs`).

A framework that catches an exception and logs it (``logger.exception(...)``, or
``logger.error(f"... {traceback}")`` as sglang's scheduler does before it exits) never reaches
an excepthook. For a record at ERROR or above that carries ``exc_info``, or a traceback in its
text, the explanation is written to stderr after the record has gone through every handler that
would have seen it, and only then: the record itself is never changed, hidden or delayed.

It is not a handler on the root logger, because configuring logging removes those
(``logging.basicConfig(force=True)``, which sglang's ``configure_logger`` and many scripts call
at start-up, after a ``.pth`` switch has run) and a handler added later runs after one added
earlier. Instead ``logging.Logger.callHandlers`` (the step that hands a record to the handlers
of its logger and its parents, the last resort included) is wrapped: the original runs first,
unchanged, then the explanation. Each exception is explained once per process, whichever of
the log and the excepthook sees it first (:func:`errexplain.integrations.report.first_time`).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # as in errexplain._startup, which is not imported at start-up here
if TYPE_CHECKING:
    import logging
    from collections.abc import Callable
    from typing import Any

HEADER_TEXT = "Traceback (most recent call last)"
_state: dict[str, Any] = {"redact": False, "busy": None}


def _wanted(record: logging.LogRecord) -> bool:
    return record.levelno >= 40 and (  # logging.ERROR, without importing logging here
        bool(record.exc_info and record.exc_info[1] is not None)
        or (isinstance(record.msg, str) and HEADER_TEXT in record.msg)
        or any(isinstance(a, str) and HEADER_TEXT in a for a in _args(record))
    )


def _args(record: logging.LogRecord) -> tuple[object, ...]:
    args = record.args
    if isinstance(args, tuple):
        return args
    return tuple(args.values()) if isinstance(args, dict) else ()


def _explain_record(record: logging.LogRecord) -> None:
    from errexplain.integrations.report import first_time, write_explanation, write_text

    stream = sys.stderr
    if stream is None:
        return
    redact = _state["redact"]
    if record.exc_info and record.exc_info[1] is not None:
        exc_type, value, tb = record.exc_info
        if first_time(value):
            write_explanation(stream, exc_type, value, tb, redact=redact)
        return
    handling = sys.exc_info()[1]  # logged inside `except`: the exception the text shows
    if handling is None or first_time(handling):
        write_text(stream, record.getMessage, redact=redact)


def _after_handlers(record: logging.LogRecord) -> None:
    """The explanation of one record, once its handlers have run; never re-entered (a log call
    made while explaining is not explained) and never raising."""
    busy = _state["busy"]
    if getattr(busy, "on", False):
        return
    busy.on = True
    try:
        if _wanted(record):
            _explain_record(record)
    except BaseException as exc:  # the program's own logging must go on, whatever we do
        from errexplain.integrations.report import note

        try:
            if sys.stderr is not None:
                sys.stderr.write(note(exc))
        except Exception:
            pass
    finally:
        busy.on = False


def _wrap(original: Callable[[Any, logging.LogRecord], None]) -> Callable[..., None]:
    def call_handlers(self: logging.Logger, record: logging.LogRecord) -> None:
        try:
            original(self, record)
        finally:
            _after_handlers(record)

    call_handlers.__wrapped__ = original  # type: ignore[attr-defined]
    call_handlers.__module__ = __name__
    return call_handlers


def install(*, redact: bool = False) -> None:
    """Explain logged errors (again: a second call changes nothing but the option)."""
    import logging
    import threading

    _state["redact"] = redact
    if _state["busy"] is None:
        _state["busy"] = threading.local()
    if getattr(logging.Logger.callHandlers, "__module__", "") != __name__:
        logging.Logger.callHandlers = _wrap(logging.Logger.callHandlers)  # type: ignore[method-assign]


def uninstall() -> None:
    """Put back the logging module's own `callHandlers`."""
    if "logging" not in sys.modules:
        return
    import logging

    current = logging.Logger.callHandlers
    if getattr(current, "__module__", "") == __name__:
        logging.Logger.callHandlers = current.__wrapped__  # type: ignore[attr-defined,method-assign]


def installed() -> bool:
    """Whether logged errors are explained in this process."""
    mod = sys.modules.get("logging")
    return mod is not None and getattr(mod.Logger.callHandlers, "__module__", "") == __name__
