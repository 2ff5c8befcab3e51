"""Command bodies behind the CLI: one library call each, then rendering. Returns exit codes."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from .errors import CatalogError, ExitCode, InputError
from .models import Entry, Explanation
from .session import Options

_ID = re.compile(r"^[0-9a-f]{16}$")
_TYPED = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt|Exit)):\s(.*)$", re.S)


def _index(opts: Options) -> Any:
    from .cache import load

    return load(opts.catalogs)


def _console() -> Any:
    from .render import make_console

    return make_console(sys.stdout)


def _print(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _emit(exps: tuple[Explanation, ...], opts: Options) -> int:
    from .inputs import InputText
    from .session import exit_code, write_output

    inp = InputText("", "argument", 0)
    write_output(exps, inp, opts, sys.stdout, sys.stdout.isatty())
    return exit_code(exps)


def lookup(message: str, exc_type: str, opts: Options) -> int:
    from .explainer import explain_message

    typed = _TYPED.match(message.strip())
    if typed and not exc_type:
        exc_type, message = typed.group(1), typed.group(2)
    if not message.strip():
        raise InputError("the message is empty", hint='errexplain lookup "SomeError: message"')
    return _emit((explain_message(message, exc_type, _index(opts), cutoff=opts.cutoff),), opts)


def _entry_by_id(index: Any, entry_id: str) -> Entry:
    pos = index.position(entry_id.strip().lower())
    if pos is None:
        raise InputError(f"no catalog entry has the id {entry_id}",
                         hint="ids are 16 hex digits; find one with errexplain search WORDS")
    entry: Entry = index.entry(pos)
    return entry


def _entry_dict(entry: Entry) -> dict[str, Any]:
    from .models import Match

    d = Match(entry, 1.0, "exact").to_dict()
    for k in ("score", "kind", "reasons", "values"):
        d.pop(k)
    d["examples"] = list(entry.examples)
    d["related"] = list(entry.related)
    return d


def show(entry_id: str, opts: Options) -> int:
    entry = _entry_by_id(_index(opts), entry_id)
    if opts.fmt == "json":
        _print(json.dumps({"schema": 1, "entry": _entry_dict(entry)}, indent=2))
    elif sys.stdout.isatty():
        from .render import print_entry

        print_entry(_console(), entry)
    else:
        from .template import render_plain
        from .textout import entry_lines

        lines = [f"{entry.id}  {entry.exception}: {render_plain(entry.template)}",
                 *entry_lines(entry), *(["Examples", *("  " + e for e in entry.examples)]
                                        if entry.examples else [])]
        _print("\n".join(lines))
    return ExitCode.EXPLAINED


def _rows(index: Any, positions: list[int], scores: list[float] | None = None) -> list[str]:
    from .template import render_plain

    m = index.table
    out = []
    for k, pos in enumerate(positions):
        score = f"{scores[k]:.2f}  " if scores else ""
        where = f"{m['paths'][pos]}:{m['lines'][pos]}" if m["paths"][pos] else m["projs"][pos]
        out.append(f"{score}{m['ids'][pos]}  {m['types'][pos]}: "
                   f"{render_plain(m['templates'][pos])[:110]}\n      {where}")
    return out


def _emit_rows(index: Any, positions: list[int], opts: Options,
               scores: list[float] | None = None) -> int:
    m = index.table
    if opts.fmt == "json":
        rows = [{"id": m["ids"][p], "exception_type": m["types"][p],
                 "template": m["templates"][p], "project": m["projs"][p],
                 "path": m["paths"][p], "line": m["lines"][p],
                 **({"score": round(scores[k], 4)} if scores else {})}
                for k, p in enumerate(positions)]
        _print(json.dumps({"schema": 1, "entries": rows}, indent=2))
    else:
        _print("\n".join(_rows(index, positions, scores)) or "(nothing found)")
    return ExitCode.EXPLAINED if positions else ExitCode.NO_MATCH


def related(what: str, opts: Options) -> int:
    from .explainer import explain_message

    index = _index(opts)
    if _ID.match(what.strip().lower()):
        entry = _entry_by_id(index, what)
    else:
        exp = explain_message(what, "", index, cutoff=opts.cutoff)
        if not exp.matches:
            raise InputError("no catalog entry matches that message, so nothing is related",
                             hint="try errexplain search WORDS")
        entry = exp.matches[0].entry
    positions = [p for p in (index.position(r) for r in entry.related) if p is not None]
    if opts.fmt != "json":
        _print(f"Related to {entry.id} ({entry.exception}):")
    return _emit_rows(index, positions, opts)


def search(query: str, limit: int, opts: Options) -> int:
    from .match import search as do_search

    if not query.strip():
        raise InputError("no keywords given", hint='errexplain search "feature length grids"')
    index = _index(opts)
    found = do_search(index, query, limit)
    return _emit_rows(index, [p for p, _ in found], opts, [s for _, s in found])


def list_entries(project: str, exc_type: str, path: str, limit: int, opts: Options) -> int:
    index = _index(opts)
    m = index.table
    positions = [i for i in range(len(index))
                 if (not project or m["projs"][i] == project)
                 and (not exc_type or exc_type in (m["types"][i], m["bases"][i]))
                 and (not path or path in (m["paths"][i] or ""))]
    if limit:
        positions = positions[:limit]
    return _emit_rows(index, positions, opts)


def _load_dirs(directory: str) -> Any:
    """The catalog in `directory`, or the bundled one merged with $ERREXPLAIN_CATALOG."""
    from .catalog import bundled_dir, load_catalog, user_dirs

    if directory:
        if not Path(directory).is_dir():
            raise CatalogError(f"catalog directory not found: {directory}")
        return load_catalog([Path(directory)])
    return load_catalog([bundled_dir(), *user_dirs()])


def _capped(lines: list[str], limit: int = 20) -> list[str]:
    """The first `limit` lines, and how many more there were."""
    more = [f"  ... and {len(lines) - limit} more"] if len(lines) > limit else []
    return lines[:limit] + more


def check(directory: str) -> int:
    from .integrity import check as do_check

    catalog = _load_dirs(directory)
    problems = do_check(catalog)
    for p in problems:
        sys.stderr.write(f"errexplain: {p}\n")
    if problems:
        sys.stderr.write(f"errexplain: catalog check failed: {len(problems)} problem(s) in "
                         f"{len(catalog.entries)} entries\n")
        return ExitCode.BAD_INPUT
    examples = sum(len(e.examples) for e in catalog.entries)
    _print(f"catalog OK: {len(catalog.entries)} entries in {len(catalog.projects)} project(s), "
           f"{examples} examples all ranked first")
    return ExitCode.EXPLAINED


def stats(opts: Options) -> int:
    index = _index(opts)
    m = index.table
    data: dict[str, Any] = {"entries": len(index)}
    for name, col in (("by project", "projs"), ("by kind", "kinds"), ("by exception", "types")):
        data[name] = dict(Counter(m[col]).most_common())
    curated: Counter[str] = Counter()
    for proj, cur in zip(m["projs"], m["curated"], strict=True):
        curated[f"{proj} {'curated' if cur else 'derived'}"] += 1
    data["curated vs derived"] = dict(sorted(curated.items()))
    if opts.fmt == "json":
        _print(json.dumps(data, indent=2))
        return ExitCode.EXPLAINED
    lines = [f"entries: {data['entries']}"]
    for key in ("by project", "curated vs derived", "by kind", "by exception"):
        lines.append(f"{key}:")
        lines += _capped([f"  {v:>7}  {k}" for k, v in data[key].items()])
    _print("\n".join(lines))
    return ExitCode.EXPLAINED


def lint(directory: str) -> int:
    from .integrity import lint as do_lint

    report = do_lint(_load_dirs(directory))
    for kind, problems in report.items():
        _print("\n".join([f"{kind}: {len(problems)}", *_capped([f"  {p}" for p in problems])]))
    return ExitCode.BAD_INPUT if report["dangling related ids"] else ExitCode.EXPLAINED


def extract(source: str, project: str, version: str, out: str, dry_run: bool) -> int:
    from .extract import extract as do_extract
    from .extract import format_report

    report = do_extract(source, project, version, out=Path(out), dry_run=dry_run)
    if dry_run:
        _print("\n".join(report.changes) or "no changes")
    _print(format_report(report))
    return ExitCode.BAD_INPUT if report.files_skipped else ExitCode.EXPLAINED
