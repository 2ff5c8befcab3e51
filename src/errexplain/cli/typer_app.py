"""The Typer app: options and help text only; each command builds a Context and calls its
module in :mod:`errexplain.app`. Errors are handled by the one boundary in
:mod:`errexplain.cli`; :func:`run` only turns click's own outcomes (usage errors, --help,
Ctrl-C at a prompt) into exit codes. A command imports its module when it runs: only one
of them ever does."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from errexplain.app.context import FORMATS, Context, Options, output_settings
from errexplain.errors import ExitCode
from errexplain.match.rank import FUZZY_CUTOFF

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
EPILOG = (
    "`errexplain FILE...` is `errexplain explain FILE...`; piped text needs no command "
    "(some_cmd 2>&1 | errexplain [--json] [-v] [--brief]).\n\n"
    "Exit codes: "
    + "; ".join(
        f"{int(code)} {line}"
        for code, line in (
            (ExitCode.EXPLAINED, "explained (or done)"),
            (ExitCode.NO_MATCH, "nothing matched or nothing found (grep's 1)"),
            (ExitCode.BAD_INPUT, "usage error, unreadable input or invalid catalog"),
            (ExitCode.INTERNAL, "internal error (a bug: please report it)"),
            (ExitCode.INTERRUPTED, "interrupted (Ctrl-C)"),
        )
    )
    + "."
)

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,  # `errexplain completion SHELL [--install]` instead (the shell named)
    suggest_commands=False,  # click already suggests: one "Did you mean" is enough
    rich_markup_mode=None,
    context_settings=HELP_OPTIONS,
    help="Explain Python errors from pasted tracebacks and logs, offline.",
    epilog=EPILOG,
)
catalog_app = typer.Typer(
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
    help="Check, inspect and extract catalogs.",
)
app.add_typer(catalog_app, name="catalog")
hook_app = typer.Typer(
    no_args_is_help=True,
    help="The .pth file that makes ERREXPLAIN_HOOK=1 explain uncaught exceptions in every "
    "Python process of this environment.",
)
app.add_typer(hook_app, name="hook")


def _version(value: bool) -> None:
    if value:
        from errexplain._version import __version__

        sys.stdout.write(f"errexplain {__version__}\n")
        raise typer.Exit(ExitCode.EXPLAINED)


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_version, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Explain Python errors from pasted tracebacks and logs, offline."""


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
RedactOpt = Annotated[
    bool,
    typer.Option(
        "--redact",
        help="Replace tokens, passwords, e-mail addresses, user names, IP addresses and "
        "host names by placeholders before anything is matched or shown.",
    ),
]
RedactExtraOpt = Annotated[
    list[str],
    typer.Option(
        "--redact-extra",
        metavar="WORD",
        help="Also replace this word (repeatable; a project or cluster name); implies --redact.",
    ),
]


ReleaseOpt = Annotated[
    list[str],
    typer.Option(
        "--release",
        metavar="PROJECT=RELEASE",
        help="The release you run (e.g. sglang=0.4.6): the answer and its source link follow "
        "it (repeatable, one per project).",
    ),
]


def _releases(values: list[str] | None) -> tuple[tuple[str, str], ...]:
    out = []
    for value in values or ():
        project, sep, release = value.replace("==", "=").partition("=")
        if not sep or not project.strip() or not release.strip():
            raise typer.BadParameter(
                f"{value!r}: expected PROJECT=RELEASE, e.g. sglang=0.4.6", param_hint="--release"
            )
        out.append((project.strip(), release.strip().removeprefix("v")))
    return tuple(out)


def _ctx(
    json_: bool = False,
    catalog: list[str] | None = None,
    fmt: str = "auto",
    cutoff: float = FUZZY_CUTOFF,
    verbose: bool = False,
    no_color: bool = False,
    release: list[str] | None = None,
    brief: bool = False,
    no_pager: bool = False,
    redact: bool = False,
    redact_extra: list[str] | None = None,
) -> Context:
    if fmt not in FORMATS:
        raise typer.BadParameter(
            f"unknown format {fmt!r}: use {', '.join(FORMATS)}", param_hint="--format"
        )
    tty, color, pager = output_settings(sys.stdout.isatty(), no_color, no_pager)
    opts = Options(
        "json" if json_ else fmt,
        tuple(catalog or ()),
        cutoff,
        verbose,
        color,
        _releases(release),
        brief,
        pager,
        redact or bool(redact_extra),
        tuple(redact_extra or ()),
    )
    return Context(opts, sys.stdin.buffer, sys.stdout, sys.stderr, tty)


NoColorOpt = Annotated[
    bool, typer.Option("--no-color", help="No colour (also $NO_COLOR, TERM=dumb).")
]
NoPagerOpt = Annotated[
    bool,
    typer.Option(
        "--no-pager",
        help="Never page (else long answers on a terminal go through $ERREXPLAIN_PAGER, "
        "$PAGER or less).",
    ),
]
LimitOpt = Annotated[int, typer.Option(min=0, help="At most this many results (0: all).")]


@app.command()
def explain(
    files: Annotated[
        list[str] | None,
        typer.Argument(metavar="[FILE]...", help="Log or traceback files; - reads stdin."),
    ] = None,
    json_: JsonOpt = False,
    fmt: Annotated[str, typer.Option("--format", help="auto, text, rich or json.")] = "auto",
    catalog: CatalogOpt = [],  # noqa: B006 (typer reads the default)
    cutoff: Annotated[
        float,
        typer.Option(min=0.0, max=1.0, help="Score under which nothing is called a match (0-1)."),
    ] = FUZZY_CUTOFF,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Show every match in full.")
    ] = False,
    brief: Annotated[
        bool,
        typer.Option(
            "--brief",
            help="One line per distinct error: count, exception, best entry id, score, meaning.",
        ),
    ] = False,
    no_color: NoColorOpt = False,
    no_pager: NoPagerOpt = False,
    release: ReleaseOpt = [],  # noqa: B006
    redact: RedactOpt = False,
    redact_extra: RedactExtraOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Explain every distinct error in logs, traceback files or stdin."""
    ctx = _ctx(
        json_,
        catalog,
        fmt,
        cutoff,
        verbose,
        no_color,
        release,
        brief,
        no_pager,
        redact,
        redact_extra,
    )
    from errexplain.app import explain as explain_cmd

    raise typer.Exit(explain_cmd.run_files(ctx, files or ["-"]))


@app.command()
def scan(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH...",
            help="Log files, directories (read recursively) or - for stdin; .gz, .bz2, .xz and "
            ".zst (with errexplain[zstd]) are decompressed.",
        ),
    ],
    json_: JsonOpt = False,
    fmt: Annotated[str, typer.Option("--format", help="auto, text, rich or json.")] = "auto",
    workers: Annotated[
        int, typer.Option(help="Worker processes (0: one per idle core).", min=0)
    ] = 0,
    catalog: CatalogOpt = [],  # noqa: B006
    cutoff: Annotated[
        float, typer.Option(help="Score under which nothing is called a match (0-1).")
    ] = FUZZY_CUTOFF,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Show every match in full.")
    ] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
    release: ReleaseOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Triage whole logs: every distinct error grouped across lines, ranks and files, with
    counts and first/last time seen, then each explained once."""
    from errexplain.input.machine import idle_cores

    ctx = _ctx(json_, catalog, fmt, cutoff, verbose, no_color, release)
    from errexplain.app import scan as scan_cmd

    raise typer.Exit(scan_cmd.run(ctx, paths, workers or idle_cores()))


@app.command(
    "run",
    context_settings={"allow_interspersed_args": False, "ignore_unknown_options": True},
)
def run_(
    command: Annotated[
        list[str],
        typer.Argument(
            metavar="[--] CMD [ARGS]...",
            help="The command to run (a .py file runs under this Python).",
        ),
    ],
    fmt: Annotated[str, typer.Option("--format", help="auto, text, rich or json.")] = "auto",
    catalog: CatalogOpt = [],  # noqa: B006
    cutoff: Annotated[
        float, typer.Option(help="Score under which nothing is called a match (0-1).")
    ] = FUZZY_CUTOFF,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Show every match in full.")
    ] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colour.")] = False,
    release: ReleaseOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Run a command, passing its output through; when it exits, explain the errors in its
    output (on stderr) and exit with its exit code. Keeps its last 8 MB of output."""
    # (the explanation goes to stderr after the command's own output: never through a pager)
    ctx = _ctx(False, catalog, fmt, cutoff, verbose, no_color, release, no_pager=True)
    from errexplain.app import run as run_cmd

    raise typer.Exit(run_cmd.run(ctx, command))


@app.command()
def lookup(
    message: Annotated[str, typer.Argument(help="An error message (with or without its type).")],
    type_: Annotated[str, typer.Option("--type", help="The exception type, if known.")] = "",
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    release: ReleaseOpt = [],  # noqa: B006
    redact: RedactOpt = False,
    redact_extra: RedactExtraOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Explain one message, no traceback needed."""
    from errexplain.app import lookup as lookup_cmd

    ctx = _ctx(json_, catalog, release=release, redact=redact, redact_extra=redact_extra)
    raise typer.Exit(lookup_cmd.run(ctx, message, type_))


@app.command()
def show(
    entry_id: Annotated[
        str, typer.Argument(metavar="ID", help="An entry id, or a unique prefix of 6+ hex digits.")
    ],
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Show one catalog entry by id."""
    from errexplain.app import show as show_cmd

    raise typer.Exit(show_cmd.run(_ctx(json_, catalog), entry_id))


@app.command()
def related(
    what: Annotated[str, typer.Argument(metavar="ID_OR_MESSAGE")],
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """List the errors related to an entry (by id) or to a message."""
    from errexplain.app import related as related_cmd

    raise typer.Exit(related_cmd.run(_ctx(json_, catalog), what))


@app.command()
def search(
    keywords: Annotated[list[str], typer.Argument(help="Words to look for.")],
    limit: LimitOpt = 10,
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Search the catalog by keywords (fuzzy, ranked)."""
    from errexplain.app import search as search_cmd

    raise typer.Exit(search_cmd.run(_ctx(json_, catalog), " ".join(keywords), limit))


@app.command("list")
def list_(
    project: Annotated[str, typer.Option(help="Only this project.")] = "",
    type_: Annotated[str, typer.Option("--type", help="Only this exception type.")] = "",
    path: Annotated[str, typer.Option(help="Only sources whose path contains this.")] = "",
    limit: LimitOpt = 50,
    json_: JsonOpt = False,
    catalog: CatalogOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """List catalog entries, filtered by project, exception type and path."""
    from errexplain.app import listing

    raise typer.Exit(listing.run(_ctx(json_, catalog), project, type_, path, limit))


@app.command()
def redact(
    file: Annotated[str, typer.Argument(help="Log or traceback file; - reads stdin.")] = "-",
    redact_extra: RedactExtraOpt = [],  # noqa: B006
    debug: DebugOpt = False,
) -> None:
    """Print a paste with tokens, passwords, e-mail addresses, user names, IP addresses and
    host names (this machine's login and host names too) replaced by placeholders, ready to
    post."""
    from errexplain.app import redact as redact_cmd

    raise typer.Exit(redact_cmd.run(_ctx(redact_extra=redact_extra), file))


@hook_app.command("install")
def hook_install(debug: DebugOpt = False) -> None:
    """Write errexplain-hook.pth into this environment's site-packages."""
    from errexplain.app import hook

    raise typer.Exit(hook.install(_ctx()))


@hook_app.command("uninstall")
def hook_uninstall(debug: DebugOpt = False) -> None:
    """Remove errexplain-hook.pth from this environment's site-packages."""
    from errexplain.app import hook

    raise typer.Exit(hook.uninstall(_ctx()))


@hook_app.command("status")
def hook_status(debug: DebugOpt = False) -> None:
    """Say whether the .pth file is installed and whether ERREXPLAIN_HOOK is set."""
    from errexplain.app import hook

    raise typer.Exit(hook.status(_ctx()))


@catalog_app.command("check")
def catalog_check(
    directory: Annotated[str, typer.Argument(help="Catalog dir (default: bundled).")] = "",
    json_: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Validate a catalog: schema, unique ids, related ids, every example matches first."""
    from errexplain.app import catalog as catalog_cmds

    raise typer.Exit(catalog_cmds.check(_ctx(json_), directory))


@catalog_app.command("stats")
def catalog_stats(
    catalog: CatalogOpt = [],  # noqa: B006
    json_: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Count entries by project, exception type, kind and curated/derived."""
    from errexplain.app import catalog as catalog_cmds

    raise typer.Exit(catalog_cmds.stats(_ctx(json_, catalog)))


@catalog_app.command("lint")
def catalog_lint(
    directory: Annotated[str, typer.Argument(help="Catalog dir (default: bundled).")] = "",
    maxima: Annotated[
        list[str],
        typer.Option(
            "--max",
            metavar="[KIND=]N",
            help="Findings allowed before exit 1 (default 0): N for every kind, or "
            "too-generic=N, duplicate-templates=N, dangling-related-ids=N (repeatable).",
        ),
    ] = [],  # noqa: B006
    json_: JsonOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Report too-generic templates, duplicate templates and dangling related ids; exit 1 when
    a kind has more findings than its --max."""
    from errexplain.app import catalog as catalog_cmds

    raise typer.Exit(catalog_cmds.lint(_ctx(json_), directory, maxima))


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
    from errexplain.app import catalog as catalog_cmds

    ctx = _ctx()
    raise typer.Exit(
        catalog_cmds.extract(ctx, source, project, version, out or f"errors/{project}", dry_run)
    )


SHELLS = ("bash", "zsh", "fish")


@app.command()
def completion(
    shell: Annotated[str, typer.Argument(help="bash, zsh or fish.")],
    install: Annotated[
        bool,
        typer.Option(
            "--install",
            help="Write the script where the shell reads it (bash: ~/.bash_completions, sourced "
            "from ~/.bashrc; zsh: ~/.zfunc; fish: ~/.config/fish/completions).",
        ),
    ] = False,
    debug: DebugOpt = False,
) -> None:
    """Print (or --install) the shell completion script for commands, options and files."""
    from typer import _completion_shared as shared  # Typer's own scripts, for our program name

    if shell not in SHELLS:
        raise typer.BadParameter(f"{shell!r}: use {', '.join(SHELLS)}", param_hint="SHELL")
    names = {"prog_name": "errexplain", "complete_var": "_ERREXPLAIN_COMPLETE"}
    if install:
        _, path = shared.install(shell=shell, **names)
        sys.stdout.write(f"{shell} completion installed in {path}; it works in new shells\n")
    else:
        sys.stdout.write(shared.get_completion_script(shell=shell, **names) + "\n")


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
    small = typer.Typer(
        add_completion=False,
        suggest_commands=False,
        rich_markup_mode=None,
        context_settings=HELP_OPTIONS,
        help=app.info.help,
        epilog=EPILOG,
    )
    small.registered_commands = infos

    @small.callback()
    def _group() -> None:
        """Keeps the command a subcommand, as in the whole app."""

    return small


def _completion_request() -> None:
    """Answer a shell's completion request (`_ERREXPLAIN_COMPLETE` set by the script that
    `errexplain completion SHELL` prints) with Typer's completion classes; click's spelling
    of the request (`bash_source`, `zsh_complete`) is read as Typer's (`source_bash`)."""
    import os

    from typer import completion

    completion.completion_init()  # type: ignore[attr-defined]  # (not in its __all__)
    value = os.environ.get("_ERREXPLAIN_COMPLETE", "")
    shell, _, action = value.partition("_")
    if shell in SHELLS and action in ("source", "complete"):
        os.environ["_ERREXPLAIN_COMPLETE"] = f"{action}_{shell}"


def run(argv: list[str]) -> int:
    """Run the app on argv; click's own outcomes become exit codes, everything else goes up
    to the error boundary (errexplain.cli.guarded)."""
    import os

    import click

    if "_ERREXPLAIN_COMPLETE" in os.environ:
        _completion_request()

    try:
        code = app_for(argv)(args=argv[1:], prog_name="errexplain", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return ExitCode.BAD_INPUT
    except click.exceptions.Abort:
        return ExitCode.INTERRUPTED
    return code if isinstance(code, int) else ExitCode.EXPLAINED
