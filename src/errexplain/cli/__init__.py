"""The command-line edge: the entry point, the piped fast path and the one error boundary.

`some_cmd 2>&1 | errexplain` (no arguments, piped stdin) is served without building the Typer
app (:mod:`.typer_app`, which holds every command's options), because Typer's start-up costs
more than the whole explain. Everything passes through :func:`guarded`:

* a domain error (:class:`~errexplain.errors.ErrexplainError`) prints
  ``errexplain: <message>`` and ``hint: <hint>`` and exits with its code (2);
* Ctrl-C exits 130, a closed pipe exits 0 quietly;
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
    except Exception as exc:
        if debug:
            raise
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


def _with_regex_cache(call: Callable[[], int]) -> int:
    """Run with the compiled-regex cache loaded before and saved after (errexplain._startup)."""
    from errexplain._startup import load_regex_cache, save_regex_cache
    from errexplain.catalog.locate import cache_dir

    try:
        directory = cache_dir()
    except Exception:
        return call()
    load_regex_cache(directory)
    try:
        return call()
    finally:
        save_regex_cache(directory)


def run_argv(argv: list[str]) -> int:
    """Run errexplain on a command line (argv[0] is the program) inside the error boundary."""
    if len(argv) == 1 and not sys.stdin.isatty():
        return guarded(_piped, sys.stderr)

    def run_app() -> int:
        from errexplain.cli.typer_app import run

        return run(argv)

    # `run -- CMD --debug`: what follows `--` is the command's
    ours = argv[1 : argv.index("--")] if "--" in argv else argv[1:]
    return guarded(run_app, sys.stderr, debug="--debug" in ours)


def main() -> None:
    """The `errexplain` command."""
    sys.exit(int(_with_regex_cache(lambda: run_argv(sys.argv))))
