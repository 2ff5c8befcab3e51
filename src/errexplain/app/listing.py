"""`errexplain list`: entries filtered by project, exception type and path, in source order
(project, path, line). Filters ignore case."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import emit_rows, open_catalog
from errexplain.errors import ExitCode

if TYPE_CHECKING:
    from errexplain.app.context import Context
    from errexplain.models import Candidate


def _keep(c: Candidate, project: str, exc_type: str, path: str) -> bool:
    return (
        (not project or c.project.lower() == project)
        and (not exc_type or exc_type in (c.exception.lower(), (c.base or "").lower()))
        and (not path or path in (c.path or "").lower())
    )


def run(ctx: Context, project: str, exc_type: str, path: str, limit: int) -> ExitCode:
    every = open_catalog(ctx).candidates()
    wanted = (project.lower(), exc_type.lower(), path.lower())
    rows = [c for c in every if _keep(c, *wanted)]
    rows.sort(key=lambda c: (c.project, c.path or "", c.line or 0, c.id))
    code = emit_rows(ctx, rows[:limit] if limit else rows)
    if not rows and project and not any(c.project.lower() == wanted[0] for c in every):
        known = ", ".join(sorted({c.project for c in every}))
        ctx.stderr.write(f"hint: no project is called {project!r}; the catalog has: {known}\n")
    return code
