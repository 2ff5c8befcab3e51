"""`errexplain run -- CMD [ARGS...]` (and `python -m errexplain run script.py`): run a command
with its output passed through, then explain the errors in what it printed, on stderr so that
its stdout stays clean. Exits with the command's own code (128+N for signal N)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, replace
from errexplain.app.context import emit_explanations, open_catalog, stated_releases
from errexplain.errors import ErrexplainError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from errexplain.app.context import Context
    from errexplain.integrations.run import Outcome


def run(ctx: Context, argv: Sequence[str]) -> int:
    from errexplain.integrations.run import command_for, run_command

    outcome = run_command(command_for(argv))
    err = replace(ctx, stdout=ctx.stderr, is_tty=ctx.stderr.isatty())
    try:
        _explain(err, outcome)
    except ErrexplainError as exc:  # the command's own code still wins
        ctx.warn(f"could not explain the output: {exc.message}")
    return outcome.code


def _explain(ctx: Context, outcome: Outcome) -> None:
    import io

    from errexplain.explainer import explain_text
    from errexplain.input.logs import regions

    # Only the neighbourhood of error-like lines is explained (as `scan` reads a log); binary
    # output is read for what text it holds.
    found = b"".join(r.data for r in regions(io.BytesIO(outcome.output)))
    text = found.decode("utf-8", errors="replace")
    if not text.strip():
        if outcome.code:
            ctx.write(f"errexplain: exit code {outcome.code}; no Python error found in the output")
        return
    view = open_catalog(ctx)
    exps = explain_text(text, view, cutoff=ctx.opts.cutoff, release=stated_releases(ctx, view))
    if not exps:
        if outcome.code:
            ctx.write(f"errexplain: exit code {outcome.code}; no Python error found in the output")
        return
    kept = f" (its last {len(outcome.output):,} bytes)" if outcome.dropped else ""
    ctx.write(f"\nerrexplain: exit code {outcome.code}; errors in the command's output{kept}:\n")
    emit_explanations(ctx, exps)
