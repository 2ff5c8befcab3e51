"""`errexplain show ID`: one catalog entry."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import open_catalog
from errexplain.errors import ExitCode, InputError

if TYPE_CHECKING:
    from errexplain.app.context import Context
    from errexplain.models import CatalogView, Entry


def entry_by_id(view: CatalogView, entry_id: str) -> Entry:
    pos = view.position(entry_id.strip().lower())
    if pos is None:
        raise InputError(
            f"no catalog entry has the id {entry_id}",
            hint="ids are 16 hex digits; find one with errexplain search WORDS",
        )
    return view.entry(pos)


def run(ctx: Context, entry_id: str) -> ExitCode:
    entry = entry_by_id(open_catalog(ctx), entry_id)
    if ctx.fmt == "json":
        from errexplain.render.json import dumps, entry_dict

        ctx.stdout.write(
            dumps(
                {
                    "entry": {
                        **entry_dict(entry),
                        "examples": list(entry.examples),
                        "related": list(entry.related),
                    }
                }
            )
        )
    elif ctx.fmt == "text":
        from errexplain.render.plain import render_view
        from errexplain.render.view import entry_view

        ctx.write(render_view(entry_view(entry)))
    else:
        from errexplain.render.rich import make_console, print_entry

        print_entry(make_console(ctx.stdout, ctx.opts.color), entry)
    return ExitCode.EXPLAINED
