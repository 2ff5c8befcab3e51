"""The pager: an answer longer than the screen goes through `$ERREXPLAIN_PAGER`, `$PAGER` or
`less` (only when stdout is a terminal; the caller decides that)."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TextIO


def fits(text: str, rows: int) -> bool:
    return text.count("\n") < rows


def page(command: str, text: str, stdout: TextIO) -> bool:
    """Show `text` through `command` when it is taller than the terminal; False when it was
    not paged (it fits, or the pager could not be started) and the caller writes it."""
    import os
    import shutil
    import subprocess

    if fits(text, shutil.get_terminal_size((100, 24)).lines):
        return False
    stdout.flush()
    env = {**os.environ, "LESS": os.environ.get("LESS", "FRX")}  # colour, quit if it fits
    try:
        proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env)
    except OSError:
        return False
    assert proc.stdin is not None
    try:
        proc.stdin.write(text.encode("utf-8", "replace"))
        proc.stdin.close()
    except BrokenPipeError:  # the reader quit early
        pass
    return proc.wait() != 127  # 127: the shell found no such command
