"""`errexplain catalog check|stats|lint|extract`: validating, counting and building catalogs."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from errexplain.app.context import Context, open_catalog
from errexplain.errors import CatalogError, ExitCode, InputError

CAPPED = 20
"""Lines of one kind shown by stats and lint before "... and N more"."""


def _load(directory: str) -> Any:
    """The catalog in `directory`, or the bundled one merged with $ERREXPLAIN_CATALOG."""
    from errexplain.catalog.load import load_catalog
    from errexplain.catalog.locate import catalog_dirs

    if directory and not os.path.isdir(directory):
        raise CatalogError(f"catalog directory not found: {directory}")
    return load_catalog([directory] if directory else catalog_dirs())


def _capped(lines: list[str], limit: int = CAPPED) -> list[str]:
    """The first `limit` lines, and how many more there were."""
    more = [f"  ... and {len(lines) - limit} more"] if len(lines) > limit else []
    return lines[:limit] + more


def check(ctx: Context, directory: str) -> ExitCode:
    from errexplain.catalog.integrity import check as do_check

    catalog = _load(directory)
    problems = do_check(catalog)
    examples = sum(len(e.examples) for e in catalog.entries)
    if ctx.fmt == "json":
        from errexplain.render.json import dumps

        doc = {
            "ok": not problems,
            "entries": len(catalog.entries),
            "projects": len(catalog.projects),
            "examples": examples,
            "problems": [str(p) for p in problems],
        }
        ctx.stdout.write(dumps({"check": doc}))
        return ExitCode.BAD_INPUT if problems else ExitCode.EXPLAINED
    for p in problems:
        ctx.stderr.write(f"errexplain: {p}\n")
    if problems:
        ctx.stderr.write(
            f"errexplain: catalog check failed: {len(problems)} problem(s) in "
            f"{len(catalog.entries)} entries\n"
        )
        return ExitCode.BAD_INPUT
    ctx.write(
        f"catalog OK: {len(catalog.entries)} entries in {len(catalog.projects)} "
        f"project(s), {examples} examples all ranked first"
    )
    return ExitCode.EXPLAINED


def stats(ctx: Context) -> ExitCode:
    rows = open_catalog(ctx).candidates()
    data: dict[str, Any] = {
        "entries": len(rows),
        "by_project": dict(Counter(c.project for c in rows).most_common()),
        "curated_vs_derived": dict(
            sorted(
                Counter(
                    f"{c.project} {'curated' if c.curated else 'derived'}" for c in rows
                ).items()
            )
        ),
        "by_kind": dict(Counter(c.kind for c in rows).most_common()),
        "by_exception": dict(Counter(c.exception for c in rows).most_common()),
    }
    if ctx.fmt == "json":
        from errexplain.render.json import dumps

        ctx.stdout.write(dumps({"stats": data}))
        return ExitCode.EXPLAINED
    lines = [f"entries: {data['entries']}"]
    for key in ("by_project", "curated_vs_derived", "by_kind", "by_exception"):
        lines.append(f"{key.replace('_', ' ')}:")
        lines += _capped([f"  {v:>7}  {k}" for k, v in data[key].items()])
    ctx.write("\n".join(lines))
    return ExitCode.EXPLAINED


def lint_limits(values: list[str], kinds: list[str]) -> dict[str, int]:
    """`--max` values: `KIND=N` (a kind as printed, spaces or dashes) or `N` for every kind."""
    limits = dict.fromkeys(kinds, 0)
    for value in values:
        kind, sep, number = value.rpartition("=")
        key = kind.strip().lower().replace("-", " ").replace("_", " ")
        if not number.strip().isdigit() or (sep and key not in limits):
            raise InputError(
                f"--max {value}: expected N or KIND=N with N >= 0",
                hint="kinds: " + ", ".join(k.replace(" ", "-") for k in kinds),
            )
        for k in [key] if sep else kinds:
            limits[k] = int(number)
    return limits


def lint(ctx: Context, directory: str, maxima: list[str] | None = None) -> ExitCode:
    """Findings over their `--max` (0 by default) exit 1."""
    from errexplain.catalog.integrity import lint as do_lint

    report = do_lint(_load(directory))
    limits = lint_limits(maxima or [], list(report))
    over = [k for k, found in report.items() if len(found) > limits[k]]
    if ctx.fmt == "json":
        from errexplain.render.json import dumps

        doc = {
            k.replace(" ", "_"): {
                "count": len(v),
                "max": limits[k],
                "findings": [str(p) for p in v],
            }
            for k, v in report.items()
        }
        ctx.stdout.write(dumps({"lint": doc}))
    else:
        for kind, problems in report.items():
            head = f"{kind}: {len(problems)}" + (
                f" (over --max {limits[kind]})" if kind in over else ""
            )
            ctx.write("\n".join([head, *_capped([f"  {p}" for p in problems])]))
    return ExitCode.NO_MATCH if over else ExitCode.EXPLAINED


def extract(
    ctx: Context, source: str, project: str, version: str, out: str, dry_run: bool
) -> ExitCode:
    from pathlib import Path

    from errexplain.extract import extract as do_extract
    from errexplain.extract import format_report

    report = do_extract(source, project, version, out=Path(out), dry_run=dry_run)
    if dry_run:
        ctx.write("\n".join(report.changes) or "no changes")
    ctx.write(format_report(report))
    return ExitCode.BAD_INPUT if report.files_skipped else ExitCode.EXPLAINED
