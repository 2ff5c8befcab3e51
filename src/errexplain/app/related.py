"""`errexplain related ID|MESSAGE`: the entries related to an entry or a message's best match."""

from __future__ import annotations

import re

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import emit_rows, open_catalog
from errexplain.app.show import entry_by_id
from errexplain.errors import InputError

if TYPE_CHECKING:
    from errexplain.app.context import Context
    from errexplain.errors import ExitCode

_ID = re.compile(r"[0-9a-f]{6,16}")


def run(ctx: Context, what: str) -> ExitCode:
    from errexplain.explainer import explain_message

    view = open_catalog(ctx)
    if _ID.fullmatch(what.strip().lower()):
        entry = entry_by_id(view, what)
    else:
        exp = explain_message(what, "", view, cutoff=ctx.opts.cutoff)
        if not exp.matches:
            raise InputError(
                "no catalog entry matches that message, so nothing is related",
                hint="try errexplain search WORDS",
            )
        entry = exp.matches[0].entry
    pos = view.position(entry.id)
    related = view.related(pos) if pos is not None else ()
    positions = [p for p in (view.position(r.id) for r in related) if p is not None]
    return emit_rows(
        ctx,
        [view.candidate(p) for p in positions],
        title=f"Related to {entry.id} ({entry.exception}):",
        whys=[r.why for r in related if view.position(r.id) is not None],
    )
