"""Entry point. `some_cmd 2>&1 | errexplain` (no arguments, piped stdin) is served here without
building the Typer app; everything else goes to :mod:`errexplain.cli`."""

from __future__ import annotations

import sys


def warm_regex_cache() -> str | None:
    """Load compiled regexes from the cache before any module compiles them (see _rx)."""
    from . import _rx
    from ._paths import cache_dir

    try:
        directory = cache_dir()
    except Exception:
        return None
    _rx.load(directory)
    return directory


def _explain_stdin() -> int:
    from .boundary import guarded
    from .session import Options, run_explain

    return guarded(lambda: run_explain("-", Options(), sys.stdin.buffer, sys.stdout, sys.stderr,
                                       sys.stdout.isatty()),
                   sys.stderr, rerun="rerun as `errexplain explain - --debug`")


def main() -> None:
    regex_dir = warm_regex_cache()
    try:
        if len(sys.argv) == 1 and not sys.stdin.isatty():
            sys.exit(_explain_stdin())
        from .cli import main as cli_main

        cli_main()
    finally:
        if regex_dir is not None:
            from . import _rx

            _rx.save(regex_dir)


if __name__ == "__main__":
    main()
