"""`errexplain redact [FILE|-]`: the paste with secrets and personal details replaced, for
posting (errexplain.redaction lists what is covered). Read line by line and redacted in batches
of whole lines (no rule spans a line), so any size streams in bounded memory."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.errors import ExitCode

if TYPE_CHECKING:
    from errexplain.app.context import Context

BATCH = 256 * 1024
"""Characters of whole lines redacted at a time."""


def run(ctx: Context, path: str) -> ExitCode:
    from errexplain.input.machine import local_redactor
    from errexplain.input.read import read_lines

    redactor = local_redactor(ctx.opts.redact_extra)
    batch: list[str] = []
    size = 0
    for line in read_lines(path, ctx.stdin):
        batch.append(line)
        size += len(line)
        if size >= BATCH:
            ctx.stdout.write(redactor("".join(batch)))
            batch, size = [], 0
    ctx.stdout.write(redactor("".join(batch)))
    ctx.stdout.flush()
    ctx.stderr.write(f"errexplain: redacted {redactor.summary()}\n")
    return ExitCode.EXPLAINED
