"""`errexplain explain [FILE|-]` and the piped `cmd | errexplain`: every error in a text."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import emit_explanations, open_catalog, stated_releases
from errexplain.errors import InputError

if TYPE_CHECKING:
    from errexplain.app.context import Context
    from errexplain.errors import ExitCode
    from errexplain.input.read import InputText


def _no_error(inp: InputText) -> InputError:
    first = next((ln.strip() for ln in inp.text.splitlines() if ln.strip()), "")
    shown = first[:80] + ("..." if len(first) > 80 else "")
    return InputError(
        f"no Python exception found in {inp.name} (first line: {shown!r})",
        hint="expected a line shaped 'SomeError: message', e.g. the last line of a traceback",
    )


def run(ctx: Context, path: str) -> ExitCode:
    from errexplain.bounds import ERRORS
    from errexplain.explainer import explain_text_bounded
    from errexplain.input.read import read_path

    inp = read_path(path, ctx.stdin)
    for warning in inp.warnings():
        ctx.warn(warning)
    if not inp.text.strip():
        raise InputError(
            f"{inp.name} is empty: nothing to explain",
            hint="errexplain explain FILE, or: some_cmd 2>&1 | errexplain explain -",
        )
    view = open_catalog(ctx)
    release = stated_releases(ctx, view)
    exps, omitted = explain_text_bounded(inp.text, view, cutoff=ctx.opts.cutoff, release=release)
    if not exps:
        raise _no_error(inp)
    if omitted:
        ctx.warn(
            f"{len(exps) + omitted:,} distinct errors found: explained the first {ERRORS - 1:,} "
            f"and the last; {omitted:,} more were left out"
        )
    return emit_explanations(
        ctx,
        exps,
        {
            "input": {
                "name": inp.name,
                "bytes": inp.size,
                "skipped_bytes": inp.skipped_bytes,
                "warnings": inp.warnings(),
            }
        },
    )
