"""`errexplain explain [FILE|-]` and the piped `cmd | errexplain`: every error in a text."""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.app.context import emit_explanations, open_catalog, redacted, stated_releases
from errexplain.errors import InputError, NothingFound

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from errexplain.app.context import Context
    from errexplain.errors import ExitCode
    from errexplain.input.read import InputText
    from errexplain.models import Explanation, Match

PROMPT = (
    "errexplain: paste a traceback or log, then press Ctrl-D on an empty line "
    "(Ctrl-Z Enter on Windows)\n"
)


GUESSES_HEAD = (
    "nearest catalogued messages to lines of the text (guesses: no line reads as an error):"
)
NO_ERROR_HINT = "expected a line shaped 'SomeError: message', e.g. the last line of a traceback"


def _no_error(inp: InputText, guesses: Sequence[tuple[int, Match]] = ()) -> NothingFound:
    """Nothing found: the text's first line, and the catalogued messages nearest to its lines
    as guesses, each with its score, id, site and the line it is nearest to."""
    first = next((ln.strip() for ln in inp.text.splitlines() if ln.strip()), "")
    shown = first[:80] + ("..." if len(first) > 80 else "")
    hint = NO_ERROR_HINT
    if guesses:
        hint += f"\n{GUESSES_HEAD}"
        for no, m in guesses:
            e = m.entry
            text = f"{e.exception}: {e.template}" if e.exception else e.template
            text = " ".join(text.split())  # (one line per guess: a template may span lines)
            text = text if len(text) <= 100 else text[:99] + "…"
            where = f"{e.source.path}:{e.source.line}" if e.source.path else e.project
            if e.removed_in:
                where += f", a wording gone in {e.removed_in}"
            hint += f"\n  {m.score:.2f}  {e.id}  {text}  ({where}; near line {no})"
        hint += "\nread one with: errexplain show ID"
    exc = NothingFound(
        f"no Python exception found in {inp.name} (first line: {shown!r})", hint=hint
    )
    exc.found_in = (inp, tuple(guesses))
    return exc


def _guess_dict(no: int, m: Match) -> dict[str, Any]:
    """A guess of a text with no error in it, as JSON: the line it is nearest to and the entry."""
    e = m.entry
    return {
        "line": no,
        "score": round(m.score, 3),
        "id": e.id,
        "exception_type": e.exception,
        "template": e.template,
        "source": {"project": e.project, "path": e.source.path, "line": e.source.line},
        "removed_in": e.removed_in,
    }


def _nothing_json(
    ctx: Context, read: Sequence[tuple[InputText, Sequence[tuple[int, Match]]]]
) -> None:
    """In JSON, a text read with no error in it is still answered with a document (no errors,
    its input, the guesses nearest to its lines), so that a consumer always reads JSON on
    stdout; the one-line message on stderr and exit code 1 are as in text."""
    if ctx.fmt != "json" or not read:
        return
    from errexplain.render.json import dumps

    if len(read) == 1:
        guesses = [_guess_dict(no, m) for no, m in read[0][1]]
        doc: dict[str, Any] = {"errors": [], "input": _input_dict(read[0][0])}
    else:  # (each guess with the index of its input in `inputs`, as each error has)
        guesses = [
            {**_guess_dict(no, m), "input": i}
            for i, (_, found) in enumerate(read)
            for no, m in found
        ]
        doc = {"errors": [], "inputs": [_input_dict(inp) for inp, _ in read]}
    ctx.stdout.write(dumps({**doc, "guesses": guesses}))


def _stdin_is_a_terminal(ctx: Context) -> bool:
    try:
        return bool(ctx.stdin.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _explain_one(ctx: Context, path: str) -> tuple[InputText, tuple[Explanation, ...]]:
    from errexplain.bounds import ERRORS
    from errexplain.explainer import explain_text_bounded
    from errexplain.input.read import read_path

    if path == "-" and _stdin_is_a_terminal(ctx):
        ctx.stderr.write(PROMPT)
        ctx.stderr.flush()
    inp = redacted(ctx, read_path(path, ctx.stdin))
    for warning in inp.warnings():
        ctx.warn(warning)
    if not inp.text.strip():
        raise InputError(
            f"{inp.name} is empty: nothing to explain",
            hint="errexplain explain FILE, or: some_cmd 2>&1 | errexplain explain -",
        )
    view = open_catalog(ctx)
    release = stated_releases(ctx, view)
    exps, omitted = explain_text_bounded(inp.text, view, cutoff=ctx.opts.cutoff, release=release)
    if not exps:
        from errexplain.explainer import nearest_to_lines

        raise _no_error(inp, nearest_to_lines(inp.text, view))
    if omitted:
        ctx.warn(
            f"{len(exps) + omitted:,} distinct errors found: explained the first {ERRORS - 1:,} "
            f"and the last; {omitted:,} more were left out"
        )
    return inp, tuple(exps)


def _input_dict(inp: InputText) -> dict[str, Any]:
    return {
        "name": inp.name,
        "bytes": inp.size,
        "skipped_bytes": inp.skipped_bytes,
        "warnings": inp.warnings(),
    }


def run(ctx: Context, path: str) -> ExitCode:
    """Explain one file (or stdin for `-`)."""
    try:
        inp, exps = _explain_one(ctx, path)
    except NothingFound as exc:
        _nothing_json(ctx, [exc.found_in] if exc.found_in else [])
        raise
    return emit_explanations(ctx, exps, {"input": _input_dict(inp)})


def run_files(ctx: Context, paths: Sequence[str]) -> ExitCode:
    """Explain each file in turn; JSON carries every file's errors (each with the index of
    its input in `inputs`), text heads each file's answers with its name."""
    if len(paths) == 1:
        return run(ctx, paths[0])
    from errexplain.app.context import answer_code

    done = []
    empty = []
    for path in paths:
        try:
            done.append(_explain_one(ctx, path))
        except NothingFound as exc:  # one file without an error does not hide the others
            ctx.warn(exc.message)
            if exc.found_in:
                empty.append(exc.found_in)
    if not done:
        _nothing_json(ctx, empty)
        raise NothingFound(f"no Python exception found in any of the {len(paths)} inputs")
    if ctx.fmt != "json":
        for inp, exps in done:
            ctx.write(f"==> {inp.name} <==")
            emit_explanations(ctx, exps)
        return answer_code([x for _, exps in done for x in exps])
    from errexplain.render.json import dumps, explanation_dict

    errors = [{**explanation_dict(x), "input": i} for i, (_, exps) in enumerate(done) for x in exps]
    ctx.stdout.write(dumps({"errors": errors, "inputs": [_input_dict(inp) for inp, _ in done]}))
    return answer_code([x for _, exps in done for x in exps])
