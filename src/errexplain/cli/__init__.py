"""The command-line edge: the entry point, the piped fast path and the one error boundary.

`some_cmd 2>&1 | errexplain` (no arguments, piped stdin) is served without building the Typer
app (:mod:`.typer_app`, which holds every command's options), because Typer's start-up costs
more than the whole explain. Everything passes through :func:`guarded`:

* a domain error (:class:`~errexplain.errors.ErrexplainError`) prints
  ``errexplain: <message>`` and ``hint: <hint>`` and exits with its code (2);
* Ctrl-C exits 130, a closed pipe exits 0 quietly; SIGTERM ends the process (the shell sees
  143) without a traceback;
* stdout closed (``>&-``) or not writable (``>/dev/full``) prints one line and exits 2; stdin
  closed (``<&-``) reads as empty input (exit 2, "nothing to explain");
* anything else is a bug: one line and a report hint, exit 3; with ``--debug`` the traceback.

Exit codes are :class:`~errexplain.errors.ExitCode` (README "Exit codes").
"""

from __future__ import annotations

import sys

from errexplain._startup import TYPE_CHECKING
from errexplain.errors import ErrexplainError, ExitCode

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

BUG_HINT = "rerun with --debug and report the traceback"


def guarded(call: Callable[[], int], stderr: TextIO, *, debug: bool = False) -> int:
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
        _silence_stdout()
        return ExitCode.EXPLAINED
    except OSError as exc:
        if exc.errno not in _WRITE_ERRORS or debug:
            return _internal(exc, stderr, debug)
        return _write_error(exc, stderr)
    except Exception as exc:
        return _internal(exc, stderr, debug)


_WRITE_ERRORS = frozenset({28, 5, 9})
"""ENOSPC, EIO, EBADF: the output cannot be written (e.g. ``>/dev/full``); exit 2."""


def _internal(exc: Exception, stderr: TextIO, debug: bool) -> int:
    if debug:
        raise exc
    stderr.write(f"errexplain: internal error: {type(exc).__name__}: {exc}\nhint: {BUG_HINT}\n")
    return ExitCode.INTERNAL


def _silence_stdout() -> None:
    """After a closed pipe, point stdout at /dev/null so that the interpreter's final flush
    does not print a second error."""
    import os
    from contextlib import suppress

    with suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _piped() -> int:
    from errexplain.app.context import Context, Options
    from errexplain.app.explain import run

    ctx = Context(Options(), sys.stdin.buffer, sys.stdout, sys.stderr, sys.stdout.isatty())
    return run(ctx, "-")


def run_argv(argv: list[str]) -> int:
    """Run errexplain on a command line (argv[0] is the program) inside the error boundary."""
    if len(argv) == 1 and not sys.stdin.isatty():
        return guarded(_piped, sys.stderr)

    def run_app() -> int:
        from errexplain.cli.typer_app import run

        return run(argv)

    return guarded(run_app, sys.stderr, debug="--debug" in argv[1:])


def _write_error(exc: OSError, stderr: TextIO) -> int:
    _silence_stdout()
    stderr.write(f"errexplain: cannot write the output: {exc.strerror or exc}\n")
    return ExitCode.BAD_INPUT


def main() -> None:
    """The `errexplain` command."""
    import os

    if sys.stdin is None:  # started with stdin closed (<&-): read as empty input
        sys.stdin = open(os.devnull)  # noqa: SIM115 - for the life of the process
    if sys.stdout is None:  # started with stdout closed (>&-): nothing can be printed
        sys.stderr.write("errexplain: standard output is closed: nothing can be printed\n")
        sys.exit(int(ExitCode.BAD_INPUT))
    try:
        code = run_argv(sys.argv)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        code = ExitCode.EXPLAINED
    except OSError as exc:  # >/dev/full, EIO: the answer was not delivered
        code = _write_error(exc, sys.stderr)
    sys.exit(int(code))
