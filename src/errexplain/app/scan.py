"""`errexplain scan PATH...`: whole-log triage. Every distinct error of the logs, grouped across
lines, ranks and files, in a summary table, then each explained once."""

from __future__ import annotations

from contextlib import contextmanager

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import emit_explanations, open_catalog, stated_releases
from errexplain.errors import ErrexplainError, ExitCode

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import TypeVar

    from errexplain.app.context import Context
    from errexplain.models import CatalogView, Explanation
    from errexplain.triage import Triage

    T = TypeVar("T")

PROGRESS_FROM = 32 * 1024 * 1024
"""A terminal shows a progress bar when the inputs add up to more than this."""


def run(ctx: Context, paths: Sequence[str], workers: int) -> ExitCode:
    from errexplain.triage import Scan, plan

    todo = plan(paths, workers)
    with Scan(todo, ctx.stdin, workers) as scan:
        # workers read the logs meanwhile: the catalog is opened on the side, not after them
        ready = _held(lambda: _prepare(ctx)) if scan.parallel else None
        with _progress(ctx, todo.total) as step:
            found = scan.result(step)
    for warning in found.warnings():
        ctx.warn(warning)
    if not found.groups:
        ctx.stderr.write(
            f"errexplain: no Python error found in {len(found.files)} file(s) "
            f"({found.bytes_read:,} bytes)\n"
        )
        if ctx.fmt == "json":  # (a document still: a consumer never reads an empty stdout)
            _emit_json(ctx, found, [])
        return ExitCode.NO_MATCH
    view, release = ready() if ready is not None else _prepare(ctx)
    from errexplain.explainer import explain_error

    exps = [
        explain_error(g.error, view, cutoff=ctx.opts.cutoff, text=g.sample, release=release)
        for g in found.groups
    ]
    if ctx.fmt == "json":
        return _emit_json(ctx, found, exps)
    _summary(ctx, found)
    return emit_explanations(ctx, exps)


def _prepare(ctx: Context) -> tuple[CatalogView, dict[str, str]]:
    """The catalog and the --release pairs, with the explainer imported."""
    import errexplain.explainer  # noqa: F401 (its imports are most of the cost)

    view = open_catalog(ctx)
    return view, stated_releases(ctx, view)


def _held(work: Callable[[], T]) -> Callable[[], T]:
    """Run `work` now; the returned function gives its result, or raises its error (an
    ErrexplainError waits until the result is asked for: none is if no error was found)."""
    try:
        value = work()
    except ErrexplainError as exc:
        err = exc

        def fail() -> T:
            raise err

        return fail
    return lambda: value


def _emit_json(ctx: Context, found: Triage, exps: Sequence[Explanation]) -> ExitCode:
    from errexplain.app.context import answer_code
    from errexplain.render.json import dumps, explanation_dict

    errors = [
        {
            **explanation_dict(x),
            "first_seen": g.first_seen,
            "last_seen": g.last_seen,
            "files": list(g.files),
        }
        for g, x in zip(found.groups, exps, strict=True)
    ]
    inp = {
        "files": list(found.files),
        "bytes": found.bytes_read,
        "unparsed_bytes": found.unparsed,
        "warnings": found.warnings(),
    }
    ctx.stdout.write(dumps({"errors": errors, "input": inp}))
    return answer_code(exps)


def _summary(ctx: Context, found: Triage) -> None:
    from errexplain.render.summary import HEADERS, heading, rows, table

    ctx.stdout.write(heading(found.groups, len(found.files), found.bytes_read))
    if ctx.fmt == "rich":
        from errexplain.render.rich import make_console, print_summary

        print_summary(make_console(ctx.stdout, ctx.opts.color), HEADERS, rows(found.groups))
    else:
        ctx.stdout.write(table(found.groups) + "\n")


@contextmanager
def _progress(ctx: Context, total: int) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr when it is a terminal and the inputs are large."""
    if total < PROGRESS_FROM or not ctx.stderr.isatty():
        yield None
        return
    from errexplain.render.rich import ProgressBar

    with ProgressBar(ctx.stderr, total, "scanning") as bar:
        yield bar.update
