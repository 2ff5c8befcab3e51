"""What every command is given: its options and its streams, plus the few steps they share
(open the catalog, print an answer in the chosen format)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, Record, replace
from errexplain.errors import ExitCode, InputError
from errexplain.match.rank import FUZZY_CUTOFF

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, BinaryIO, TextIO

    from errexplain.input.read import InputText
    from errexplain.models import Candidate, CatalogView, Explanation

FORMATS = ("auto", "text", "rich", "json")


class Options(Record):
    fmt: str = "auto"
    """auto (Rich on a terminal, plain text otherwise), text, rich or json."""
    catalogs: tuple[str, ...] = ()
    cutoff: float = FUZZY_CUTOFF
    verbose: bool = False
    color: bool | None = None
    release: tuple[tuple[str, str], ...] = ()
    """(project, release) pairs the user states (--release sglang=0.4.6)."""
    brief: bool = False
    """One line per distinct error (--brief)."""
    pager: str | None = None
    """The pager command for answers longer than the screen (None: never page)."""
    redact: bool = False
    """--redact: secrets and personal details replaced before anything is shown or matched."""
    redact_extra: tuple[str, ...] = ()
    """--redact-extra WORD: more words that --redact replaces (`<word-N>`)."""


class Context(Record):
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

    def width(self) -> int:
        """The terminal's width (its $COLUMNS), 100 when not drawing for a terminal."""
        if not self.is_tty:
            return 100
        import shutil

        return max(40, shutil.get_terminal_size((100, 24)).columns)

    def write(self, text: str) -> None:
        self.stdout.write(text if text.endswith("\n") else text + "\n")

    def warn(self, message: str) -> None:
        self.stderr.write(f"errexplain: warning: {message}\n")


def output_settings(
    isatty: bool, no_color: bool, no_pager: bool
) -> tuple[bool, bool | None, str | None]:
    """(draw for a terminal, colour, pager) from stdout being a terminal, --no-color,
    --no-pager and the environment: FORCE_COLOR draws for a terminal even when piped, NO_COLOR
    and TERM=dumb are left to Rich (colour None); the pager is $ERREXPLAIN_PAGER, else $PAGER,
    else `less`, never when stdout is not a terminal ("" or "cat" turn it off)."""
    import os

    env = os.environ
    tty = isatty or bool(env.get("FORCE_COLOR"))
    pager = env.get("ERREXPLAIN_PAGER", env.get("PAGER", "less"))
    paged = not no_pager and isatty and pager.strip() not in ("", "cat")
    return tty, (False if no_color else None), (pager if paged else None)


def redacted(ctx: Context, inp: InputText) -> InputText:
    """The input with --redact applied (text and name, so warnings are redacted too)."""
    if not ctx.opts.redact:
        return inp
    from errexplain.input.machine import local_redactor

    scrub = local_redactor(ctx.opts.redact_extra)
    return replace(inp, text=scrub(inp.text), name=scrub(inp.name))


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
    if ctx.opts.brief:
        from errexplain.render.plain import render_brief

        return render_brief(exps, ctx.width() if ctx.is_tty else None)
    from errexplain.render.plain import render_explanations as plain

    return plain(exps, verbose=ctx.opts.verbose)


def _print_rich(ctx: Context, exps: Sequence[Explanation], limit: int) -> None:
    from errexplain.render.rich import print_explanations

    def draw(console: Any) -> None:
        capped = _Capped(console.file, limit)
        console.file = capped
        print_explanations(console, exps, verbose=ctx.opts.verbose)
        if capped.dropped:
            ctx.warn(f"output is limited to {limit:,} characters: {capped.dropped:,} more were cut")

    draw_rich(ctx, draw)


def emit_explanations(
    ctx: Context, exps: Sequence[Explanation], extra: dict[str, Any] | None = None
) -> ExitCode:
    """Print answers in the chosen format; the exit code says whether any matched. Output
    past OUTPUT_BYTES (characters) drops explanations from the middle (the last one stays),
    and says so."""
    from errexplain.bounds import OUTPUT_BYTES

    if not ctx.opts.brief:
        from errexplain.app.snippets import with_snippet

        exps = [with_snippet(x) for x in exps]
    code = answer_code(exps)
    if ctx.fmt == "rich" and not ctx.opts.brief:
        _print_rich(ctx, exps, OUTPUT_BYTES)
        return code
    total, out = len(exps), _render(ctx, exps, extra)
    while len(out) > OUTPUT_BYTES and len(exps) > 1:
        exps = [*exps[: max(0, len(exps) // 2 - 1)], exps[-1]]
        out = _render(ctx, exps, extra)
    if len(exps) < total:
        ctx.warn(
            f"output is limited to {OUTPUT_BYTES:,} bytes: {len(exps)} of {total} "
            "explanations shown (the last one included)"
        )
    if ctx.fmt == "json":
        ctx.stdout.write(out)
    else:
        show(ctx, out)
    return code


def show(ctx: Context, text: str) -> None:
    """Write an answer, through the pager when it is longer than the screen."""
    if ctx.opts.pager is not None and ctx.is_tty:
        from errexplain.app.pager import page

        if page(ctx.opts.pager, text, ctx.stdout):
            return
    ctx.write(text)


def draw_rich(ctx: Context, draw: Callable[[Any], None]) -> None:
    """Draw with a Rich console; when a pager may be wanted, on a buffer drawn as for the
    terminal, then shown (paged if long)."""
    from errexplain.render.rich import make_console

    if ctx.opts.pager is None or not ctx.is_tty:
        draw(make_console(ctx.stdout, ctx.opts.color))
        return
    import io

    buf = io.StringIO()
    draw(make_console(buf, ctx.opts.color, terminal=True, width=ctx.width()))
    show(ctx, buf.getvalue())


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
        width = ctx.width() if ctx.is_tty else None  # piped: whole lines, for grep
        out = ([title] if title else []) + (lines(parts, width) or ["(nothing found)"])
        show(ctx, "\n".join(out))
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
