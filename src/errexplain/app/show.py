"""`errexplain show ID`: one catalog entry."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import draw_rich, open_catalog, show
from errexplain.errors import ExitCode, InputError

if TYPE_CHECKING:
    from errexplain.app.context import Context
    from errexplain.models import CatalogView, Entry


MIN_PREFIX = 6
"""The shortest id prefix `show` and `related` accept (as git's short hashes, but longer:
the catalog holds tens of thousands of ids)."""


def _is_hex(text: str) -> bool:
    return bool(text) and all(ch in "0123456789abcdef" for ch in text)


def _wanted(entry_id: str) -> str:
    return entry_id.strip().lower()


def entry_by_id(view: CatalogView, entry_id: str) -> Entry:
    """The entry with this id, or with this unique prefix of 6 or more hex digits (or a former
    id, which names the wording it became)."""
    wanted = _wanted(entry_id)
    pos = view.position(wanted)
    if pos is None and MIN_PREFIX <= len(wanted) < 16 and _is_hex(wanted):
        found = sorted({c.id for c in view.candidates() if c.id.startswith(wanted)})
        if len(found) > 1:
            shown = ", ".join(found[:10]) + (
                f" and {len(found) - 10} more" if len(found) > 10 else ""
            )
            raise InputError(
                f"the id prefix {wanted} is ambiguous: {shown}",
                hint="give more hex digits of the id",
            )
        pos = view.position(found[0]) if found else None
    if pos is None:
        raise InputError(
            f"no catalog entry has the id {entry_id}",
            hint=f"ids are 16 hex digits (a unique prefix of {MIN_PREFIX} or more will do); "
            "find one with errexplain search WORDS",
        )
    return view.entry(pos)


def run(ctx: Context, entry_id: str) -> ExitCode:
    from errexplain.app.snippets import for_entry

    entry = entry_by_id(open_catalog(ctx), entry_id)
    snippet = for_entry(entry)
    wanted = _wanted(entry_id)
    alias = wanted if len(wanted) == 16 and wanted != entry.id else None
    if alias and ctx.fmt != "json":  # (on stderr: the entry's view stays what stdout holds)
        ctx.stderr.write(
            f"note: {alias} is a former id: that wording is now part of {entry.id}, shown here\n"
        )
    if ctx.fmt == "json":
        from errexplain.render.json import dumps, entry_dict, snippet_dict

        ctx.stdout.write(
            dumps(
                {
                    "entry": {
                        **entry_dict(entry),
                        "examples": list(entry.examples),
                        "related": list(entry.related),
                        "snippet": snippet_dict(snippet),
                    },
                    "alias_of": entry.id if alias else None,
                }
            )
        )
    elif ctx.fmt == "text":
        from errexplain.render.plain import render_view
        from errexplain.render.view import entry_view

        show(ctx, render_view(entry_view(entry, snippet)))
    else:
        from errexplain.render.rich import print_entry

        draw_rich(ctx, lambda console: print_entry(console, entry, snippet))
    return ExitCode.EXPLAINED
