"""`errexplain.install()`: explain uncaught exceptions after Python has printed them.

The hook calls the hook it replaces (``sys.__excepthook__`` unless someone else installed one)
first and flushes stderr, so the original traceback comes out byte for byte as Python prints it,
and no later; the explanation follows on stderr. The same goes for ``threading.excepthook``
and, when a loop is given, for that asyncio loop's exception handler. Importing this module
costs nothing more than ``sys``: the explainer is imported when an exception arrives.

``ERREXPLAIN_HOOK=1`` installs it in every Python process of an environment where
``errexplain hook install`` wrote its ``.pth`` file (:func:`install_from_env`).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # as in errexplain._startup, which is not imported at start-up here
if TYPE_CHECKING:
    import asyncio
    import threading
    from collections.abc import Callable
    from types import TracebackType
    from typing import Any

    Handler = Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object]

ENV = "ERREXPLAIN_HOOK"
_state: dict[str, Any] = {"redact": False}


def _explain(exc_type: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    stream = sys.stderr
    if stream is None or issubclass(exc_type, KeyboardInterrupt):
        return
    from errexplain.integrations.report import first_time, write_explanation

    if not first_time(value):  # already explained where it was logged
        return

    write_explanation(stream, exc_type, value, tb, redact=_state["redact"])


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except Exception:
            pass


def excepthook(
    exc_type: type[BaseException], value: BaseException, tb: TracebackType | None
) -> None:
    """``sys.excepthook``: the previous hook, then the explanation."""
    try:
        _state.get("sys", sys.__excepthook__)(exc_type, value, tb)
    finally:
        _flush()
        _explain(exc_type, value, tb)


def threading_excepthook(args: threading.ExceptHookArgs) -> None:
    """``threading.excepthook``: the previous hook, then the explanation."""
    import threading

    try:
        _state.get("threading", threading.__excepthook__)(args)
    finally:
        _flush()
        if args.exc_value is not None and not issubclass(args.exc_type, SystemExit):
            _explain(args.exc_type, args.exc_value, args.exc_traceback)


def asyncio_handler(previous: Handler | None = None) -> Handler:
    """An exception handler for an asyncio loop: `previous` (else the loop's default handler),
    then the explanation of the context's exception, if it has one."""

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        try:
            if previous is not None:
                previous(loop, context)
            else:
                loop.default_exception_handler(context)
        finally:
            _flush()
            exc = context.get("exception")
            if isinstance(exc, BaseException):
                _explain(type(exc), exc, exc.__traceback__)

    return handler


def install(
    *,
    threads: bool = True,
    loop: asyncio.AbstractEventLoop | None = None,
    redact: bool = False,
    logs: bool = False,
) -> None:
    """Install the hooks (again: a second call changes nothing but the options); `logs`: also
    explain errors the program logs (errexplain.integrations.logged)."""
    _state["redact"] = redact
    if logs:
        from errexplain.integrations import logged

        logged.install(redact=redact)
    if sys.excepthook is not excepthook:
        _state["sys"] = sys.excepthook
        sys.excepthook = excepthook
    if threads:
        import threading

        if threading.excepthook is not threading_excepthook:
            _state["threading"] = threading.excepthook
            threading.excepthook = threading_excepthook
    if loop is not None:
        loop.set_exception_handler(asyncio_handler(loop.get_exception_handler()))


def uninstall() -> None:
    """Put back the hooks that were there before :func:`install`."""
    from errexplain.integrations import logged

    logged.uninstall()
    if sys.excepthook is excepthook:
        sys.excepthook = _state.pop("sys", sys.__excepthook__)
    if "threading" not in sys.modules:
        return
    import threading

    if threading.excepthook is threading_excepthook:
        threading.excepthook = _state.pop("threading", threading.__excepthook__)


def install_from_env() -> None:
    """What the ``.pth`` line calls when ``ERREXPLAIN_HOOK`` is set: install (``logs``: logged
    errors too), and never let a failure stop the interpreter from starting."""
    import os

    try:
        install(logs=os.environ.get(ENV, "").strip().lower() == "logs")
    except Exception as exc:
        from errexplain.integrations.report import note

        sys.stderr.write(note(exc))
