"""The command-line edge: the entry point, the piped fast path and the one error boundary.

`some_cmd 2>&1 | errexplain` (no arguments but `--redact`, piped stdin) is served without
building the Typer app (:mod:`.typer_app`, which holds every command's options), because Typer's
start-up costs more than the whole explain. So is `errexplain scan` with its common options
(:func:`_fast_scan_args`): its workers start without waiting for Typer's imports. Everything
passes through :func:`guarded`:

* a domain error (:class:`~errexplain.errors.ErrexplainError`) prints
  ``errexplain: <message>`` and ``hint: <hint>`` and exits with its code (2);
* Ctrl-C exits 130, a closed pipe exits 0 quietly; SIGTERM ends the process (the shell sees
  143) without a traceback;
* stdout closed (``>&-``) or not writable (``>/dev/full``) prints one line and exits 2; stdin
  closed (``<&-``) reads as empty input (exit 2, "nothing to explain");
* anything else is a bug: one line and a report hint, exit 3; with ``--debug`` the traceback.

The cyclic garbage collector is off while a command starts (from the first line of the
`errexplain` script and of ``python -m errexplain``, before any module is unmarshalled, and in
:func:`main`): a run would otherwise walk every module, class and index object it made several
times over, and once more in the interpreter's final collection at exit (about a quarter of the
piped path's own work; the collections the imports alone triggered were 1.7 ms). The piped
path stays bounded (every input is windowed, :mod:`errexplain.bounds`) and runs with it off; the
Typer path turns it back on once its imports are done (:func:`collect_from_here`), for the commands
that may run long (``scan``, ``run -- CMD``). Before exit everything is frozen
(``gc.freeze``), so the final collection has nothing left to walk.

Exit codes are :class:`~errexplain.errors.ExitCode` (README "Exit codes").
"""

from __future__ import annotations

import sys

from errexplain._startup import TYPE_CHECKING, replace
from errexplain.errors import ErrexplainError, ExitCode, InputError

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TextIO

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


COMMANDS = ("explain", "lookup", "show", "related", "search", "list", "catalog", "completion")
TOP_LEVEL = ("-h", "--help", "--version")
FLAGS = {"--json": "json", "-v": "verbose", "--verbose": "verbose", "--brief": "brief"}
FLAGS.update({"--no-color": "no_color", "--no-pager": "no_pager", "--redact": "redact"})
VALUED = ("--format", "--cutoff")


def _fast_args(args: list[str]) -> dict[str, Any] | None:
    """The options of a bare `errexplain [FLAGS] [FILE...]` when the fast path can serve them
    (flags: --json, -v, --brief, --no-color, --no-pager, --format F, --cutoff X), else None (the
    Typer app parses them, with its usage errors)."""
    return _read_args(args, FLAGS, VALUED, "files")


def _read_args(
    args: list[str],
    flags: dict[str, str],
    valued: tuple[str, ...],
    positional: str,
    valid: dict[str, Callable[[str], bool]] | None = None,
) -> dict[str, Any] | None:
    """`args` read as `flags` (set to True), `valued` options (`--x V` or `--x=V`, each value
    accepted by `valid[--x]` when given) and positional arguments (listed under `positional`);
    None for anything else or an option without its value."""
    got: dict[str, Any] = {positional: []}
    it = iter(args)
    for arg in it:
        name, eq, value = arg.partition("=")
        if arg in flags:
            got[flags[arg]] = True
        elif name in valued:
            found = value if eq else next(it, None)
            if found is None or (valid is not None and not valid[name](found)):
                return None
            got[name[2:]] = found
        elif arg == "-" or not arg.startswith("-"):
            got[positional].append(arg)
        else:
            return None
    return got


SCAN_FLAGS = {"--json": "json", "-v": "verbose", "--verbose": "verbose", "--no-color": "no_color"}
SCAN_VALUED = ("--format", "--workers", "--cutoff")


def _fast_scan_args(args: list[str]) -> dict[str, Any] | None:
    """The options of `errexplain scan [FLAGS] PATH...` when the fast path serves them as the
    Typer app would (flags: --json, -v, --no-color, --format F, --workers N, --cutoff X, each
    with a valid value), else None: Typer parses them, with its help and usage errors."""
    from errexplain.app.context import FORMATS

    valid: dict[str, Callable[[str], bool]] = {
        "--format": lambda v: v in FORMATS,
        "--workers": lambda v: v.isascii() and v.isdigit(),
        "--cutoff": lambda v: _cutoff_or_none(v) is not None,
    }
    got = _read_args(args, SCAN_FLAGS, SCAN_VALUED, "paths", valid)
    return got if got is not None and got["paths"] else None


def _cutoff_or_none(value: str) -> float | None:
    try:
        cutoff = float(value)
    except ValueError:
        return None
    return cutoff if 0.0 <= cutoff <= 1.0 else None


def _fast_scan(got: dict[str, Any]) -> int:
    """`errexplain scan` without Typer: the options as the Typer command builds them."""
    from errexplain.app import scan
    from errexplain.app.context import Context, Options, output_settings
    from errexplain.input.machine import idle_cores

    collect_from_here()
    tty, color, pager = output_settings(sys.stdout.isatty(), got.get("no_color", False), False)
    fmt = "json" if got.get("json") else got.get("format", "auto")
    opts = Options(fmt, verbose=got.get("verbose", False), color=color, pager=pager)
    if "cutoff" in got:
        opts = replace(opts, cutoff=float(got["cutoff"]))
    ctx = Context(opts, sys.stdin.buffer, sys.stdout, sys.stderr, tty)
    return scan.run(ctx, got["paths"], int(got.get("workers", 0)) or idle_cores())


def _looks_like_file(arg: str) -> bool:
    import os

    return arg == "-" or "/" in arg or "." in arg or os.path.exists(arg)


def routed(args: list[str]) -> list[str]:
    """The arguments the Typer app runs: `errexplain FILE...` and `errexplain --json ...` are
    `errexplain explain ...`; a word that is neither a command nor a file is left for Typer
    (its "No such command" with a suggestion)."""
    if not args or args[0] in COMMANDS or args[0] in TOP_LEVEL:
        return args
    if args[0].startswith("-") or _looks_like_file(args[0]):
        return ["explain", *args]
    return args


def _cutoff(value: str) -> float:
    cutoff = _cutoff_or_none(value)
    if cutoff is None:
        raise InputError(
            f"--cutoff {value}: expected a number from 0 to 1", hint="e.g. --cutoff 0.8"
        )
    return cutoff


def _fast(got: dict[str, Any]) -> int:
    """The bare command on the fast path: no Typer, no Rich unless it draws."""
    from errexplain.app.context import FORMATS, Context, Options, output_settings
    from errexplain.app.explain import run_files

    fmt = "json" if got.get("json") else got.get("format", "auto")
    if fmt not in FORMATS:
        raise InputError(f"--format {fmt}: unknown format", hint=f"use {', '.join(FORMATS)}")
    cutoff = _cutoff(got["cutoff"]) if "cutoff" in got else None
    tty, color, pager = output_settings(
        sys.stdout.isatty(), got.get("no_color", False), got.get("no_pager", False)
    )
    opts = Options(
        fmt=fmt,
        verbose=got.get("verbose", False),
        color=color,
        brief=got.get("brief", False),
        pager=pager,
        redact=got.get("redact", False),
    )
    if cutoff is not None:
        opts = replace(opts, cutoff=cutoff)
    ctx = Context(opts, sys.stdin.buffer, sys.stdout, sys.stderr, tty)
    return run_files(ctx, got["files"] or ["-"])


_RUN: dict[str, bool] = {}
"""What :func:`run_argv` ran: ``piped`` when it took the piped explain path."""


def run_argv(argv: list[str]) -> int:
    """Run errexplain on a command line (argv[0] is the program) inside the error boundary."""
    import os

    args = argv[1:]
    completing = "_ERREXPLAIN_COMPLETE" in os.environ
    scanning = None if completing or args[:1] != ["scan"] else _fast_scan_args(args[1:])
    if scanning is not None:
        return guarded(lambda: _fast_scan(scanning), sys.stderr)
    got = (
        None
        if completing or routed(args)[:1] != ["explain"] or args[:1] == ["explain"]
        else (_fast_args(args[:]))
    )
    if got is None and not args and not sys.stdin.isatty() and not completing:
        got = {"files": []}
    if got is not None:
        _RUN["piped"] = True
        return guarded(lambda: _fast(got), sys.stderr)

    def run_app() -> int:
        from errexplain.cli.typer_app import run

        collect_from_here()
        return run([argv[0], *(args if completing else routed(args))])

    # `run -- CMD --debug`: what follows `--` is the command's
    ours = argv[1 : argv.index("--")] if "--" in argv else argv[1:]
    return guarded(run_app, sys.stderr, debug="--debug" in ours)


def _write_error(exc: OSError, stderr: TextIO) -> int:
    _silence_stdout()
    stderr.write(f"errexplain: cannot write the output: {exc.strerror or exc}\n")
    return ExitCode.BAD_INPUT


def collect_from_here() -> None:
    """Turn the garbage collector back on for what follows, when :func:`main` turned it off,
    never walking what exists now (the imports and objects made so far stay frozen)."""
    import gc

    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def main(*, quick_exit: bool = False) -> None:
    """The `errexplain` command. `quick_exit` (the command's own script): after a piped explain,
    once its output is flushed, end the process without the interpreter's finalization
    (:func:`_quick_exit`)."""
    import gc
    import os

    gc.disable()  # see the module docstring
    sys.unraisablehook = _unraisable

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
    gc.freeze()  # the final collection at exit walks nothing
    if quick_exit and _RUN.get("piped"):
        _quick_exit(int(code))
    sys.exit(int(code))


def _unraisable(unraisable: Any) -> None:
    """Ctrl-C that lands inside a callback the interpreter cannot raise from (Python 3.13: the
    weakref callback that drops an import's module lock) would be printed as "Exception ignored
    in ... Traceback ... KeyboardInterrupt" and then lost, the run going on as if never
    interrupted. It is delivered again a millisecond later instead (SIGALRM, whose handler
    raises KeyboardInterrupt once the hook has returned: raised from the hook itself it would be
    unraisable in turn), so the run ends as Ctrl-C ends it (exit 130, nothing printed). Anything
    else, and Ctrl-C off the main thread, is reported as the interpreter would."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        import signal

        def again(signum: int, frame: object) -> None:
            signal.signal(signal.SIGALRM, previous)
            raise KeyboardInterrupt

        try:
            previous = signal.signal(signal.SIGALRM, again)
        except (ValueError, AttributeError):  # not the main thread; no SIGALRM (Windows)
            pass
        else:
            signal.setitimer(signal.ITIMER_REAL, 0.001)
            return
    sys.__unraisablehook__(unraisable)


def _quick_exit(code: int) -> None:
    """End the process now, with `code`, once stdout and stderr are flushed: a piped explain
    registers no exit handler and holds no file open for writing, and the interpreter's
    finalization (tearing down every module and object) was a tenth of its run. A flush that
    fails leaves the ending to the interpreter, which reports it as it would."""
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)
