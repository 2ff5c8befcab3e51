"""What every command is given: its options and its streams, plus the few steps they share
(open the catalog, print an answer in the chosen format)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, record
from errexplain.errors import ExitCode, InputError
from errexplain.match.rank import FUZZY_CUTOFF

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, BinaryIO, TextIO

    from errexplain.models import Candidate, CatalogView, Explanation

FORMATS = ("auto", "text", "rich", "json")


@record
class Options:
    fmt: str = "auto"
    """auto (Rich on a terminal, plain text otherwise), text, rich or json."""
    catalogs: tuple[str, ...] = ()
    cutoff: float = FUZZY_CUTOFF
    verbose: bool = False
    color: bool | None = None
    release: tuple[tuple[str, str], ...] = ()
    """(project, release) pairs the user states (--release sglang=0.4.6)."""


@record
class Context:
    """A command's options and streams (tests pass StringIO/BytesIO)."""

    opts: Options
    stdin: BinaryIO
    stdout: TextIO
    stderr: TextIO
    is_tty: bool = False

    @property
    def fmt(self) -> str:
        """The format to draw in, `auto` resolved."""
        if self.opts.fmt == "auto":
            return "rich" if self.is_tty else "text"
        return self.opts.fmt

    def write(self, text: str) -> None:
        self.stdout.write(text if text.endswith("\n") else text + "\n")

    def warn(self, message: str) -> None:
        self.stderr.write(f"errexplain: warning: {message}\n")


def open_catalog(ctx: Context) -> CatalogView:
    from errexplain.catalog.store import load

    return load(ctx.opts.catalogs)


def answer_code(exps: Sequence[Explanation]) -> ExitCode:
    return ExitCode.EXPLAINED if any(e.explained for e in exps) else ExitCode.NO_MATCH


class _Capped:
    """A text stream that passes on the first `limit` characters written and counts the rest
    (Rich draws on it as on the stream it wraps: isatty, fileno, encoding pass through)."""

    def __init__(self, stream: TextIO, limit: int) -> None:
        self._stream, self.left, self.dropped = stream, limit, 0

    def write(self, text: str) -> int:
        if len(text) > self.left:
            self.dropped += len(text) - max(self.left, 0)
            text = text[: max(self.left, 0)]
        self.left -= len(text)
        return self._stream.write(text) if text else 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _render(ctx: Context, exps: Sequence[Explanation], extra: dict[str, Any] | None) -> str:
    if ctx.fmt == "json":
        from errexplain.render.json import render_explanations

        return render_explanations(exps, extra)
    from errexplain.render.plain import render_explanations as plain

    return plain(exps, verbose=ctx.opts.verbose)


def _print_rich(ctx: Context, exps: Sequence[Explanation], limit: int) -> None:
    from errexplain.render.rich import make_console, print_explanations

    out = _Capped(ctx.stdout, limit)
    console = make_console(out, ctx.opts.color)  # type: ignore[arg-type]
    print_explanations(console, exps, verbose=ctx.opts.verbose)
    if out.dropped:
        ctx.warn(f"output is limited to {limit:,} characters: {out.dropped:,} more were cut")


def emit_explanations(
    ctx: Context, exps: Sequence[Explanation], extra: dict[str, Any] | None = None
) -> ExitCode:
    """Print answers in the chosen format; the exit code says whether any matched. Output
    past OUTPUT_BYTES (characters) drops explanations from the middle (the last one stays),
    and says so."""
    from errexplain.bounds import OUTPUT_BYTES

    code = answer_code(exps)
    if ctx.fmt == "rich":
        _print_rich(ctx, exps, OUTPUT_BYTES)
        return code
    total, out = len(exps), _render(ctx, exps, extra)
    while len(out) > OUTPUT_BYTES and len(exps) > 1:
        exps = (*exps[: max(0, len(exps) // 2 - 1)], exps[-1])
        out = _render(ctx, exps, extra)
    if len(exps) < total:
        ctx.warn(
            f"output is limited to {OUTPUT_BYTES:,} bytes: {len(exps)} of {total} "
            "explanations shown (the last one included)"
        )
    ctx.stdout.write(out)
    return code


def emit_rows(
    ctx: Context,
    rows: Sequence[Candidate],
    scores: Sequence[float] | None = None,
    title: str | None = None,
    whys: Sequence[str] | None = None,
) -> ExitCode:
    """Print a listing of entries (search, list, related); `whys`: a reason per row."""
    if ctx.fmt == "json":
        from errexplain.render.json import dumps, row_dict

        found = []
        for k, c in enumerate(rows):
            row = row_dict(c, scores[k] if scores else None)
            if whys is not None:
                row["why"] = whys[k]
            found.append(row)
        ctx.stdout.write(dumps({"entries": found}))
    else:
        from errexplain.render.plain import lines
        from errexplain.render.view import row_view

        parts = [
            p
            for k, c in enumerate(rows)
            for p in row_view(c, scores[k] if scores else None, whys[k] if whys else None)
        ]
        out = ([title] if title else []) + (lines(parts) or ["(nothing found)"])
        ctx.write("\n".join(out))
    return ExitCode.EXPLAINED if rows else ExitCode.NO_MATCH


def stated_releases(ctx: Context, view: CatalogView) -> dict[str, str]:
    """The --release pairs, checked against the catalog's release history."""
    out: dict[str, str] = {}
    for project, release in ctx.opts.release:
        facts = view.release_facts(project)
        if facts is None:
            known = ", ".join(view.history_projects()) or "none"
            raise InputError(
                f"--release {project}={release}: the catalog holds no release history of "
                f"{project!r}",
                hint=f"projects with a history: {known}",
            )
        if release not in facts.order:
            raise InputError(
                f"--release {project}={release}: {release} is not a {project} release this "
                f"catalog knows",
                hint=f"known: {facts.order[0]} to {facts.order[-1]}, release candidates and dev "
                "builds excepted",
            )
        out[project] = release
    return out
