"""The Typer app: commands read input, make one library call, render, return an exit code.

Exit codes (README "Exit codes"): 0 explained, 1 nothing matched, 2 usage error / bad input /
invalid catalog, 3 internal error, 130 interrupted.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, NoReturn

import typer

from . import commands
from .boundary import guarded
from .errors import ErrexplainError, ExitCode
from .match import FUZZY_CUTOFF
from .session import Options, run_explain

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    help="Explain Python errors from pasted tracebacks and logs, offline.",
)
catalog_app = typer.Typer(no_args_is_help=True, help="Check, inspect and extract catalogs.")
app.add_typer(catalog_app, name="catalog")

CatalogOpt = Annotated[
    list[str],
    typer.Option(
        "--catalog",
        help="Extra catalog directory merged over the bundled one (repeatable; also "
        "$ERREXPLAIN_CATALOG).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON (schema 1, see README).")]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show Python tracebacks of errexplain.")]


def _opts(
    json_: bool,
    catalog: list[str],
    fmt: str = "auto",
    cutoff: float = FUZZY_CUTOFF,
    verbose: bool = False,
    color: bool | None = None,
) -> Options:
    if fmt not in ("auto", "text", "rich", "json"):
        raise typer.BadParameter(f"unknown format {fmt!r}: use auto, text, rich or json")
    return Options(
        fmt="json" if json_ else fmt,
        catalogs=tuple(catalog),
        cutoff=cutoff,
        verbose=verbose,
        color=color,
    )


@app.command()
def explain(
    file: Annotated[str, typer.Argument(help="Log or traceback file; - reads stdin.")] = "-",
    json_: JsonOpt = False,
    fmt: Annotated[str, typer.Option("--format", help="auto, text, rich or json.")] = "auto",
    catalog: CatalogOpt = [],  # noqa: B006 (typer reads the default)
    cutoff: Annotated[
        float, typer.Option(help="Score under which nothing is called a match (0-1).")
    ] = FUZZY_CUTOFF,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Show every match in full.")
    ] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
    debug: DebugOpt = False,
) -> None:
    """Explain every distinct error in a log, a traceback file or stdin."""
    opts = _opts(
        json_, catalog, fmt=fmt, cutoff=cutoff, verbose=verbose, color=False if no_color else None
    )
    raise typer.Exit(
        _guard(
            lambda: run_explain(
                file, opts, sys.stdin.buffer, sys.stdout, sys.stderr, sys.stdout.isatty()
            ),
            debug,
        )
    )


@app.command()
def lookup(
    message: Annotated[str, typer.Argument(help="An error message (with or without its type).")],
    type_: Annotated[str, typer.Option("--type", help="The exception type, if known.")] = "",
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Explain one message, no traceback needed."""
    raise typer.Exit(_guard(lambda: commands.lookup(message, type_, _opts(json_, catalog)), debug))


@app.command()
def show(
    entry_id: Annotated[str, typer.Argument(metavar="ID", help="A 16-hex entry id.")],
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Show one catalog entry by id."""
    raise typer.Exit(_guard(lambda: commands.show(entry_id, _opts(json_, catalog)), debug))


@app.command()
def related(
    what: Annotated[str, typer.Argument(metavar="ID_OR_MESSAGE")],
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """List the errors related to an entry (by id) or to a message."""
    raise typer.Exit(_guard(lambda: commands.related(what, _opts(json_, catalog)), debug))


@app.command()
def search(
    keywords: Annotated[list[str], typer.Argument(help="Words to look for.")],
    limit: Annotated[int, typer.Option(help="How many results.")] = 10,
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Search the catalog by keywords (fuzzy, ranked)."""
    raise typer.Exit(
        _guard(lambda: commands.search(" ".join(keywords), limit, _opts(json_, catalog)), debug)
    )


@app.command("list")
def list_(
    project: Annotated[str, typer.Option(help="Only this project.")] = "",
    type_: Annotated[str, typer.Option("--type", help="Only this exception type.")] = "",
    path: Annotated[str, typer.Option(help="Only sources whose path contains this.")] = "",
    limit: Annotated[int, typer.Option(help="At most this many (0: all).")] = 50,
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """List catalog entries, filtered by project, exception type and path."""
    raise typer.Exit(
        _guard(
            lambda: commands.list_entries(project, type_, path, limit, _opts(json_, catalog)), debug
        )
    )


@catalog_app.command("check")
def catalog_check(
    directory: Annotated[str, typer.Argument(help="Catalog dir (default: bundled).")] = "",
    debug: DebugOpt = False,
) -> None:
    """Validate a catalog: schema, unique ids, related ids, every example matches first."""
    raise typer.Exit(_guard(lambda: commands.check(directory), debug))


@catalog_app.command("stats")
def catalog_stats(
    catalog: CatalogOpt = [],  # noqa: B006
    json_: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Count entries by project, exception type, kind and curated/derived."""
    raise typer.Exit(_guard(lambda: commands.stats(_opts(json_, catalog)), debug))


@catalog_app.command("lint")
def catalog_lint(
    directory: Annotated[str, typer.Argument(help="Catalog dir (default: bundled).")] = "",
    debug: DebugOpt = False,
) -> None:
    """Report too-generic templates, duplicate templates and dangling related ids."""
    raise typer.Exit(_guard(lambda: commands.lint(directory), debug))


@catalog_app.command("extract")
def catalog_extract(
    source: Annotated[
        str, typer.Argument(help="Source dir, wheel/sdist, or installed distribution name.")
    ],
    project: Annotated[str, typer.Option(help="Project name.")],
    version: Annotated[str, typer.Option(help="Release the source is from.")],
    out: Annotated[str, typer.Option(help="Catalog dir to write/merge.")] = "",
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print changes, write nothing.")
    ] = False,
    debug: DebugOpt = False,
) -> None:
    """Extract raise/assert sites from source into catalog YAML (curated text is kept)."""
    raise typer.Exit(
        _guard(
            lambda: commands.extract(source, project, version, out or f"errors/{project}", dry_run),
            debug,
        )
    )


def _guard(call: Callable[[], int], debug: bool) -> int:
    """The shared error boundary around a command body (errexplain.boundary)."""
    return guarded(call, sys.stderr, debug=debug)


def _fail(message: str, hint: str | None, code: int) -> NoReturn:
    sys.stderr.write(f"errexplain: {message}\n")
    if hint:
        sys.stderr.write(f"hint: {hint}\n")
    sys.exit(code)


def _command_name(info: typer.models.CommandInfo) -> str:
    name = info.name or (info.callback.__name__ if info.callback else "")
    return name.replace("_", "-")


def app_for(argv: list[str]) -> typer.Typer:
    """The app to run for these arguments. Building every command's click object costs more
    than the explain itself, so a top-level command runs in an app that holds just it (same
    name, options, help and usage); anything else (help, `catalog ...`) gets the whole app."""
    wanted = argv[1] if len(argv) > 1 else ""
    infos = [c for c in app.registered_commands if _command_name(c) == wanted]
    if not infos:
        return app
    small = typer.Typer(add_completion=False, rich_markup_mode=None, help=app.info.help)
    small.registered_commands = infos

    @small.callback()
    def _group() -> None:
        """Keeps the command a subcommand, as in the whole app."""

    return small


def main() -> None:
    """Run the app inside the one error boundary."""
    import click

    debug = "--debug" in sys.argv
    try:
        code = app_for(sys.argv)(standalone_mode=False)
    except ErrexplainError as exc:
        if debug:
            raise
        _fail(exc.message, exc.hint, exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(ExitCode.BAD_INPUT)
    except (KeyboardInterrupt, click.exceptions.Abort):
        sys.exit(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        sys.exit(ExitCode.EXPLAINED)
    except Exception as exc:
        if debug:
            raise
        _fail(
            f"internal error: {type(exc).__name__}: {exc}",
            "rerun with --debug and report the traceback",
            ExitCode.INTERNAL,
        )
    sys.exit(code if isinstance(code, int) else 0)
