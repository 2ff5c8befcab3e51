"""`errexplain search WORDS...`: keyword search over templates, fuzzy and ranked."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import emit_rows, open_catalog
from errexplain.errors import InputError

if TYPE_CHECKING:
    from errexplain.app.context import Context
    from errexplain.errors import ExitCode


def run(ctx: Context, query: str, limit: int) -> ExitCode:
    from errexplain.match.search import POOL, search

    if not query.strip():
        raise InputError("no keywords given", hint='errexplain search "feature length grids"')
    view = open_catalog(ctx)
    found = search(view, query, limit or POOL)
    return emit_rows(ctx, [view.candidate(p) for p, _ in found], [s for _, s in found])
