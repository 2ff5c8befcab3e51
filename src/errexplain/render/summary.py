"""The summary table of `errexplain scan`: one row per distinct error, as plain text rows that
the plain and Rich renderers both draw (the one source of its wording)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from errexplain.triage import Group

HEADERS = ("#", "count", "error", "first seen", "last seen", "ranks", "files")
ERROR_WIDTH = 60


def _short(items: Sequence[str], most: int = 3) -> str:
    if not items:
        return "-"
    more = f" +{len(items) - most}" if len(items) > most else ""
    return ",".join(items[:most]) + more


def rows(groups: Sequence[Group]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for k, g in enumerate(groups, start=1):
        e = g.error
        what = f"{e.type}: {e.message}" if e.type else e.message
        what = " ".join(what.split())
        if len(what) > ERROR_WIDTH:
            what = what[: ERROR_WIDTH - 3] + "..."
        names = [f.replace("\\", "/").rsplit("/", 1)[-1] for f in g.files]
        out.append(
            (
                str(k),
                str(e.count),
                what,
                g.first_seen or "-",
                g.last_seen or "-",
                _short(e.ranks),
                _short(names, 2),
            )
        )
    return out


def table(groups: Sequence[Group]) -> str:
    """The table as aligned plain text."""
    body = rows(groups)
    widths = [max(len(r[i]) for r in [HEADERS, *body]) for i in range(len(HEADERS))]
    right = {0, 1}

    def fmt(r: tuple[str, ...]) -> str:
        cells = (
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        return "  ".join(cells).rstrip()

    return "\n".join(fmt(r) for r in [HEADERS, *body]) + "\n"


def heading(groups: Sequence[Group], files: int, size: int) -> str:
    n = sum(g.error.count for g in groups)
    return (
        f"{len(groups)} distinct error(s), {n} occurrence(s) in {files} file(s), "
        f"{size / 1e6:,.1f} MB read\n"
    )
