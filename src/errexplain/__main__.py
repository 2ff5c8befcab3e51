"""Entry point. `some_cmd 2>&1 | errexplain` (no arguments, piped stdin) is served here without
building the Typer app; everything else goes to :mod:`errexplain.cli`."""

from __future__ import annotations

import sys


def _fast_path() -> int:
    from .errors import ErrexplainError, ExitCode
    from .session import Options, run_explain

    try:
        return run_explain("-", Options(), sys.stdin.buffer, sys.stdout, sys.stderr,
                           sys.stdout.isatty())
    except ErrexplainError as exc:
        sys.stderr.write(f"errexplain: {exc.message}\n")
        if exc.hint:
            sys.stderr.write(f"hint: {exc.hint}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.EXPLAINED
    except Exception as exc:  # the error boundary of the fast path
        sys.stderr.write(f"errexplain: internal error: {type(exc).__name__}: {exc}\n"
                         "hint: rerun as `errexplain explain - --debug` and report it\n")
        return ExitCode.INTERNAL


def main() -> None:
    if len(sys.argv) == 1 and not sys.stdin.isatty():
        sys.exit(_fast_path())
    from .cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
