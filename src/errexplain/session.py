"""The explain flow shared by the CLI and the no-argument fast path: read, explain, render.

It owns I/O only through the streams passed in; exit codes come from errors.ExitCode.
"""

from __future__ import annotations

from .errors import ExitCode, InputError
from .inputs import InputText, read_path
from .match import FUZZY_CUTOFF
from .models import TYPE_CHECKING, Explanation, record

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import BinaryIO, TextIO


@record
class Options:
    fmt: str = "auto"  # auto | text | rich | json
    catalogs: tuple[str, ...] = ()
    cutoff: float = FUZZY_CUTOFF
    verbose: bool = False
    color: bool | None = None


def _no_error(inp: InputText) -> InputError:
    first = next((ln.strip() for ln in inp.text.splitlines() if ln.strip()), "")
    shown = first[:80] + ("..." if len(first) > 80 else "")
    return InputError(f"no Python exception found in {inp.name} (first line: {shown!r})",
                      hint="expected a line shaped 'SomeError: message', e.g. the last line "
                      "of a traceback")


def explain_input(inp: InputText, opts: Options) -> tuple[Explanation, ...]:
    from .cache import load
    from .explainer import explain_text

    if not inp.text.strip():
        raise InputError(f"{inp.name} is empty: nothing to explain",
                         hint="errexplain explain FILE, or: some_cmd 2>&1 | errexplain explain -")
    exps = explain_text(inp.text, load(opts.catalogs), cutoff=opts.cutoff)
    if not exps:
        raise _no_error(inp)
    return exps


def exit_code(exps: Sequence[Explanation]) -> int:
    return ExitCode.EXPLAINED if any(e.explained for e in exps) else ExitCode.NO_MATCH


def write_output(exps: Sequence[Explanation], inp: InputText, opts: Options, out: TextIO,
                 is_tty: bool) -> None:
    fmt = opts.fmt
    if fmt == "json":
        from .textout import render_json

        out.write(render_json(exps, {"input": {"name": inp.name, "bytes": inp.size,
                                               "skipped_bytes": inp.skipped_bytes,
                                               "warnings": inp.warnings()}}))
    elif fmt == "text" or (fmt == "auto" and not is_tty):
        from .textout import render_text

        out.write(render_text(exps, verbose=opts.verbose))
    else:
        from .render import make_console, print_explanations

        print_explanations(make_console(out, opts.color), exps, verbose=opts.verbose)


def run_explain(path: str, opts: Options, stdin: BinaryIO, out: TextIO, err: TextIO,
                is_tty: bool) -> int:
    inp = read_path(path, stdin)
    for warning in inp.warnings():
        err.write(f"errexplain: warning: {warning}\n")
    exps = explain_input(inp, opts)
    write_output(exps, inp, opts, out, is_tty)
    return exit_code(exps)
