"""`errexplain list`: entries filtered by project, exception type and path, in source order
(project, path, line)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import emit_rows, open_catalog

if TYPE_CHECKING:
    from errexplain.app.context import Context
    from errexplain.errors import ExitCode


def run(ctx: Context, project: str, exc_type: str, path: str, limit: int) -> ExitCode:
    rows = [
        c
        for c in open_catalog(ctx).candidates()
        if (not project or c.project == project)
        and (not exc_type or exc_type in (c.exception, c.base))
        and (not path or path in (c.path or ""))
    ]
    rows.sort(key=lambda c: (c.project, c.path or "", c.line or 0, c.id))
    return emit_rows(ctx, rows[:limit] if limit else rows)
