"""`errexplain lookup MESSAGE [--type T]`: one message, no traceback needed."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import emit_explanations, open_catalog, stated_releases
from errexplain.errors import InputError

if TYPE_CHECKING:
    from errexplain.app.context import Context
    from errexplain.errors import ExitCode


def split_type(message: str, exc_type: str) -> tuple[str, str]:
    """`ValueError: msg` -> (`ValueError`, `msg`) unless a type is given; else unchanged."""
    if exc_type:
        return exc_type, message
    import re

    typed = re.match(
        r"([A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt|Exit)):(?:\s(.*))?\Z",
        message.strip(),
        re.S,
    )
    return (typed.group(1), typed.group(2) or "") if typed else ("", message)


def run(ctx: Context, message: str, exc_type: str) -> ExitCode:
    """Explain one message; a whole traceback or log given as the message is read as `explain`
    reads it (every error in it), unless a type is given."""
    from errexplain.explainer import explain_error, explain_message, pasted_errors

    if ctx.opts.redact:
        from errexplain.input.machine import local_redactor

        scrub = local_redactor(ctx.opts.redact_extra)
        message, exc_type = scrub(message), scrub(exc_type)
    errors = () if exc_type else pasted_errors(message)
    if errors:
        view = open_catalog(ctx)
        release = stated_releases(ctx, view)
        exps = tuple(
            explain_error(e, view, cutoff=ctx.opts.cutoff, text=message, release=release)
            for e in errors
        )
        return emit_explanations(ctx, exps)
    exc_type, message = split_type(message, exc_type)
    if not message.strip():
        raise InputError("the message is empty", hint='errexplain lookup "SomeError: message"')
    view = open_catalog(ctx)
    release = stated_releases(ctx, view)
    exp = explain_message(message, exc_type, view, cutoff=ctx.opts.cutoff, release=release)
    return emit_explanations(ctx, (exp,))
