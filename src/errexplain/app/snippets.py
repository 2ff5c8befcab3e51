"""The code around an answer's raise site: from the user's installed copy of the file when a
traceback frame names it and its line still raises, else the catalog's snippet of the pinned
release (errexplain.catalog.snippets)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, replace

if TYPE_CHECKING:
    from errexplain.models import Entry, Explanation, RaisedError, Snippet


def _longest_literal(template: str) -> str:
    from errexplain.match.template import TemplateSyntaxError, compile_template

    try:
        return max(compile_template(template).literals, key=len)
    except TemplateSyntaxError:
        return ""


def installed(error: RaisedError, entry: Entry) -> Snippet | None:
    """The lines around the innermost frame in the entry's file, read from this machine."""
    from errexplain.input.source import installed_snippet

    src = entry.source.path
    if not src:
        return None
    for frame in reversed(error.frames):
        if frame.line and frame.path.replace("\\", "/").endswith("/" + src.lstrip("/")):
            return installed_snippet(frame.path, frame.line, _longest_literal(entry.template))
    return None


def for_entry(entry: Entry, error: RaisedError | None = None) -> Snippet | None:
    from errexplain.catalog.snippets import catalog_snippet

    live = installed(error, entry) if error is not None else None
    return live or catalog_snippet(entry.project, entry.id)


def with_snippet(exp: Explanation) -> Explanation:
    """The explanation with the code around its best match's raise site, when there is any."""
    if not exp.matches or exp.snippet is not None:
        return exp
    snip = for_entry(exp.matches[0].entry, exp.error)
    return replace(exp, snippet=snip) if snip is not None else exp
