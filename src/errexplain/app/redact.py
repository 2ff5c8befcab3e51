"""`errexplain redact [FILE|-]`: the paste with secrets and personal details replaced, for
posting (errexplain.redaction lists what is covered). Line by line, so any size streams."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.errors import ExitCode

if TYPE_CHECKING:
    from errexplain.app.context import Context


def run(ctx: Context, path: str) -> ExitCode:
    from errexplain.input.read import read_lines
    from errexplain.redaction import Redactor

    redactor = Redactor()
    for line in read_lines(path, ctx.stdin):
        ctx.stdout.write(redactor(line))
    ctx.stdout.flush()
    ctx.stderr.write(f"errexplain: redacted {redactor.summary()}\n")
    return ExitCode.EXPLAINED
