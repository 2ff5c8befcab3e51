"""The explanation of one live exception, as the integrations show it after the original
traceback: plain text or HTML. :func:`guarded` is their error boundary: errexplain's own
failure becomes one line, and the user's error output is never hidden or changed."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType
    from typing import TextIO

    from errexplain.models import Explanation

HEADER = "\n--- errexplain " + "-" * 25 + "\n"
"""Printed between the original traceback and the explanation."""


def exception_text(
    exc_type: type[BaseException], value: BaseException, tb: TracebackType | None
) -> str:
    """The traceback as Python prints it (chained and grouped exceptions included)."""
    import traceback

    return "".join(traceback.format_exception(exc_type, value, tb))


def explain_text_of(text: str, *, redact: bool = False) -> tuple[Explanation, ...]:
    """Every distinct error of a traceback's text (a logged one), explained."""
    from errexplain.catalog.store import load
    from errexplain.explainer import explain_text

    if redact:
        from errexplain.input.machine import local_redactor

        text = local_redactor()(text)
    return explain_text(text, load())


def explain_exception(
    exc_type: type[BaseException],
    value: BaseException,
    tb: TracebackType | None,
    *,
    redact: bool = False,
) -> tuple[Explanation, ...]:
    """Every distinct error of the exception (its chain included), explained."""
    return explain_text_of(exception_text(exc_type, value, tb), redact=redact)


def plain(exps: tuple[Explanation, ...]) -> str:
    from errexplain.render.plain import render_explanations

    return render_explanations(exps) if exps else "(no Python error found to explain)\n"


def html(exps: tuple[Explanation, ...]) -> str:
    from errexplain.render.rich import render_html

    return render_html(exps)


def note(exc: BaseException) -> str:
    """The one line shown when errexplain itself fails."""
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    return f"errexplain: could not explain this error ({type(exc).__name__}: {text})\n"


def guarded(call: Callable[[], object], stream: TextIO | None) -> None:
    """Run `call`; whatever it raises (even KeyboardInterrupt) becomes one line on `stream`."""
    try:
        call()
    except BaseException as exc:  # the user's own error must stay the last word, not ours
        if stream is not None:
            try:
                stream.write(note(exc))
                stream.flush()
            except Exception:
                pass


def write_explanation(
    stream: TextIO,
    exc_type: type[BaseException],
    value: BaseException,
    tb: TracebackType | None,
    *,
    redact: bool = False,
) -> None:
    """The header and the plain-text explanation on `stream` (the excepthooks)."""

    def show() -> None:
        text = plain(explain_exception(exc_type, value, tb, redact=redact))
        stream.write(HEADER + text)
        stream.flush()

    guarded(show, stream)


def write_text(stream: TextIO, text: Callable[[], str], *, redact: bool = False) -> None:
    """The header and the explanation of a traceback given as text (a logged record's
    message, made by `text` inside the boundary) on `stream`."""

    def show() -> None:
        out = plain(explain_text_of(text(), redact=redact))
        stream.write(HEADER + out)
        stream.flush()

    guarded(show, stream)


MARK = "__errexplain_explained__"


def first_time(exc: BaseException) -> bool:
    """True the first time an exception is seen by any integration (then it is marked), so that
    an error both logged and uncaught is explained once."""
    if getattr(exc, MARK, False):
        return False
    from contextlib import suppress

    with suppress(Exception):  # a type without a __dict__: explained every time it shows
        setattr(exc, MARK, True)
    return True
