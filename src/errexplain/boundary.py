"""The one error boundary: domain errors become `errexplain: ...` + `hint: ...` and their exit
code; anything unexpected becomes a one-line internal error with a bug-report hint (or, with
--debug, the traceback). Shared by the piped fast path and every CLI command."""

from __future__ import annotations

from .errors import ErrexplainError, ExitCode
from .models import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO


def guarded(call: Callable[[], int], stderr: TextIO, *, debug: bool = False,
            rerun: str = "rerun with --debug") -> int:
    """Run a command body and return its exit code, whatever it raises."""
    try:
        return call()
    except ErrexplainError as exc:
        if debug:
            raise
        stderr.write(f"errexplain: {exc.message}\n")
        if exc.hint:
            stderr.write(f"hint: {exc.hint}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.EXPLAINED
    except Exception as exc:
        if debug:
            raise
        stderr.write(f"errexplain: internal error: {type(exc).__name__}: {exc}\n"
                     f"hint: {rerun} and report the traceback\n")
        return ExitCode.INTERNAL
