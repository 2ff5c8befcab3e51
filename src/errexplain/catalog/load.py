"""The YAML catalog: discovery and validation into immutable Entry records.

Normal runs never come here: they read the compiled index (:mod:`errexplain.catalog.index`),
built from what this module returns (:mod:`errexplain.catalog.store`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from errexplain._startup import Record
from errexplain.catalog.yamlio import entry_line, parse_yaml, read_bytes, read_yaml
from errexplain.errors import CatalogError
from errexplain.match.normalize import TemplateFacts
from errexplain.match.release import Facts
from errexplain.match.template import TemplateSyntaxError, compile_template
from errexplain.models import (
    Entry,
    ExampleFix,
    Project,
    Source,
    Verified,
    at_ends,
    parse_releases,
    parse_site,
)

KEY_ORDER = (
    "id",
    "exception",
    "base",
    "kind",
    "template",
    "source",
    "condition",
    "statement",
    "via",
    "doc",
    "versions",
    "releases",
    "at",
    "lineage",
    "replaced_by",
    "removed_in",
    "derived",
    "meaning",
    "trigger",
    "situations",
    "solutions",
    "example_fix",
    "related",
    "examples",
    "verified",
)
"""The keys of a catalog entry, in the order extraction writes them (docs/catalog.md)."""
ENTRY_KEYS = frozenset(KEY_ORDER)
SOURCE_ORDER = ("path", "line", "function")
SOURCE_KEYS = frozenset(SOURCE_ORDER)
FIX_KEYS = frozenset({"before", "after", "language"})
PROJECT_KEYS = frozenset(
    {
        "name",
        "version",
        "repository",
        "link",
        "path_prefix",
        "description",
        "log_prefixes",
        "own_log_prefixes",
        "adapted_from",
        "shared_wording",
        "main_part",
    }
)
FILE_KEYS = frozenset({"module", "entries"})
RELEASE_KEYS = frozenset({"first", "last"})
VERIFIED_KEYS = frozenset({"how", "release", "case", "read", "note"})
VERIFIED_HOW = frozenset({"run", "read"})
RELEASES_FILE = "releases.yaml"
"""A project's release list (history catalogs): not a module file, never loaded as entries."""
NOT_MODULE_FILES = frozenset({"project.yaml", RELEASES_FILE})
KINDS = frozenset({"raise", "assert", "log", "abort", "recorded", "builtin", "lookup"})


class Catalog(Record):
    """Every entry of one or more catalog directories, merged (later directories override)."""

    projects: tuple[Project, ...]
    entries: tuple[Entry, ...]
    overridden: tuple[str, ...] = ()
    release_facts: tuple[Facts, ...] = ()
    """Per project with a history (releases.yaml): its release order and path ranges."""
    template_facts: Mapping[str, TemplateFacts] | None = None
    """What the index needs of each template, computed where it was parsed (an index build
    passes it on instead of computing it again)."""

    def by_id(self) -> dict[str, Entry]:
        return {e.id: e for e in self.entries}


def _unreadable(exc: OSError) -> None:
    raise CatalogError(
        f"{exc.filename}: cannot read ({exc.strerror})",
        hint="make the catalog folder readable, or remove what cannot be read",
    )


def catalog_files(root: Path) -> Iterator[Path]:
    """Every YAML file under root, in sorted order (deterministic). An unreadable folder is a
    bad catalog (CatalogError), not a crash."""
    for dirpath, dirnames, filenames in os.walk(root, onerror=_unreadable):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith((".yaml", ".yml")):
                yield Path(dirpath) / name


class _Invalid(Exception):
    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key, self.problem = key, problem


def _str(raw: dict[str, Any], key: str, *, required: bool = False) -> str | None:
    value = raw.get(key)
    if type(value) is str:  # the common case first
        return value
    if value is None:
        if required:
            raise _Invalid(key, "is required")
        return None
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise _Invalid(key, f"must be text, not {type(value).__name__}")
    return str(value)


def _strs(raw: dict[str, Any], key: str) -> tuple[str, ...]:
    value = raw.get(key)
    if not value:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Invalid(key, "must be a list of strings")
    return tuple(value)


def _keys(raw: Any, allowed: frozenset[str], where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise _Invalid(where or "entry", "must be a mapping")
    if raw.keys() <= allowed:
        return raw
    # keys may be of any YAML scalar type (`true:`, `1:`): sort and show them as text, bounded
    unknown = sorted(repr(k)[:60] if not isinstance(k, str) else k[:60] for k in set(raw) - allowed)
    if unknown:
        prefix = f"{where}." if where else ""
        raise _Invalid(prefix + unknown[0], "unknown key")
    return raw


def _source(raw: dict[str, Any], project: Project, version: str | None) -> Source:
    """The entry's site; ``version`` is the release it was taken from (``releases.last`` of a
    history entry, else the project's version)."""
    short = raw.get("source")
    if type(short) is str:  # `source: PATH[:LINE] [FUNCTION]`, as extraction writes it
        try:
            at, line, func = parse_site(short)
        except ValueError as exc:
            raise _Invalid("source", str(exc)) from None
        return Source(project.name, version, at, line, func, project.url(at, line, version))
    src = _keys(short or {}, SOURCE_KEYS, "source")
    line = src.get("line")
    if line is not None and (not isinstance(line, int) or isinstance(line, bool) or line < 1):
        raise _Invalid("source.line", "must be a positive integer")
    try:
        path, function = _str(src, "path"), _str(src, "function")
    except _Invalid as exc:
        raise _Invalid(f"source.{exc.key}", exc.problem) from None
    return Source(project.name, version, path, line, function, project.url(path, line, version))


def _fix(raw: dict[str, Any]) -> ExampleFix | None:
    fix = raw.get("example_fix")
    if fix is None:
        return None
    fix = _keys(fix, FIX_KEYS, "example_fix")
    return ExampleFix(
        _str(fix, "before") or "",
        _str(fix, "after", required=True) or "",
        _str(fix, "language") or "python",
    )


def _verified(raw: dict[str, Any]) -> Verified | None:
    if raw.get("verified") is None:
        return None
    ver = _keys(raw["verified"], VERIFIED_KEYS, "verified")
    how = _str(ver, "how", required=True)
    if how not in VERIFIED_HOW:
        raise _Invalid("verified.how", "must be run or read")
    case = _str(ver, "case")
    read = _strs(ver, "read")
    if how == "run" and not case:
        raise _Invalid("verified.case", "is required with how: run (the harness case)")
    if how == "read" and not read:
        raise _Invalid("verified.read", "is required with how: read (the functions read)")
    return Verified(how, _str(ver, "release"), case, read, _str(ver, "note"))


def _hex_id(raw: dict[str, Any], key: str) -> str | None:
    ident = _str(raw, key)
    if ident is not None and (len(ident) != 16 or ident.strip("0123456789abcdef")):
        raise _Invalid(key, "must be 16 lowercase hex digits")
    return ident


def _releases(raw: dict[str, Any]) -> tuple[str, str] | None:
    short = raw.get("releases")
    if short is None:
        return None
    if type(short) is str:  # `releases: FIRST..LAST`
        try:
            return parse_releases(short)
        except ValueError as exc:
            raise _Invalid("releases", str(exc)) from None
    rel = _keys(short, RELEASE_KEYS, "releases")
    first = _str(rel, "first", required=True) or ""
    last = _str(rel, "last", required=True) or ""
    return first, last


def _at(raw: dict[str, Any], releases: tuple[str, str] | None, source: Source) -> str | None:
    """The `at` text, checked: it spans `releases`, and its last span is at `source`."""
    text = _str(raw, "at")
    if text is None:
        return None
    try:
        first, (_, last, path, line, function) = at_ends(text)
    except ValueError as exc:
        raise _Invalid("at", str(exc)) from None
    if releases is not None and (first, last) != releases:
        raise _Invalid(
            "at",
            f"spans {first}..{last}, but releases says {releases[0]}..{releases[1]}",
        )
    if (path, line, function) != (source.path, source.line, source.function):
        raise _Invalid(
            "at",
            f"its last span is {path}:{line} {function}, but source says "
            f"{source.path}:{source.line} {source.function}",
        )
    return text


def _check_entry(raw: dict[str, Any]) -> None:
    template = _str(raw, "template", required=True) or ""
    try:
        compile_template(template)
    except TemplateSyntaxError as exc:
        raise _Invalid("template", str(exc)) from None
    if not template and not _str(raw, "statement"):
        raise _Invalid("template", "is empty: only a site with a `statement` has no message")
    ident = _str(raw, "id", required=True) or ""
    if len(ident) != 16 or ident.strip("0123456789abcdef"):
        raise _Invalid("id", "must be 16 lowercase hex digits")
    # checked as text first: a mapping or list here is unhashable (found by bench/fuzz catalog)
    if (_str(raw, "kind") or "raise") not in KINDS:
        raise _Invalid("kind", f"must be one of {', '.join(sorted(KINDS))}")
    if not isinstance(raw.get("derived", False), bool):
        raise _Invalid("derived", "must be true or false")


def make_entry(raw: Any, project: Project, catalog_file: str) -> Entry:
    raw = _keys(raw, ENTRY_KEYS, "")
    _check_entry(raw)
    derived = bool(raw.get("derived", False))
    releases = _releases(raw)
    source = _source(raw, project, releases[1] if releases else project.version)
    entry = Entry(  # positional, in field order (keywords cost a third of a load)
        str(raw["id"]),
        project.name,
        _str(raw, "exception") or "",
        str(raw["template"]),
        source,
        _str(raw, "base"),
        _str(raw, "kind") or "raise",
        _str(raw, "condition"),
        _str(raw, "statement"),
        _str(raw, "via"),
        _str(raw, "doc"),
        _strs(raw, "versions"),
        derived,
        _str(raw, "meaning"),
        _str(raw, "trigger"),
        _strs(raw, "situations"),
        _strs(raw, "solutions"),
        _fix(raw),
        _strs(raw, "related"),
        _strs(raw, "examples"),
        _str(raw, "removed_in"),
        catalog_file,
        releases,
        _at(raw, releases, source),
        _hex_id(raw, "lineage"),
        _hex_id(raw, "replaced_by"),
        _verified(raw),
    )
    if not entry.exception:
        raise _Invalid("exception", "is required")
    if entry.curated and not entry.examples and entry.template:
        # (a site without a message is matched by its traceback frames, not by examples)
        raise _Invalid("examples", "a curated entry needs at least one example message")
    return entry


def load_project(root: Path) -> Project:
    path = root / "project.yaml"
    if not path.is_file():
        raise CatalogError(f"{root}: no project.yaml", hint="see docs/catalog.md")
    raw = read_yaml(path)
    try:
        raw = _keys(raw, PROJECT_KEYS, "")
        name = _str(raw, "name", required=True) or ""
        link = _link(_str(raw, "link"))
        adapted = _adapted(raw.get("adapted_from"))
        log_prefixes = _log_prefixes(raw.get("log_prefixes"))
        own = _own_prefixes(raw.get("own_log_prefixes"))
        shared = _shared(raw.get("shared_wording"))
    except _Invalid as exc:
        raise CatalogError(f"{path}: {exc}", hint="see docs/catalog.md") from None
    return Project(
        name,
        _str(raw, "version"),
        _str(raw, "repository"),
        link,
        _str(raw, "path_prefix") or "",
        adapted,
        log_prefixes,
        _str(raw, "main_part") or "",
        shared,
        own,
    )


def _own_prefixes(raw: object) -> tuple[str, ...]:
    """`own_log_prefixes: [regular expression, ...]`."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(p, str) and p for p in raw):
        raise _Invalid("own_log_prefixes", "must be a list of patterns")
    _patterns("own_log_prefixes", raw)
    return tuple(raw)


def _log_prefixes(raw: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`log_prefixes: {path prefix: [regular expression, ...]}`."""
    out = _text_lists(raw, "log_prefixes", "a path prefix", "patterns", empty=False)
    for prefix, patterns in out:
        _patterns("log_prefixes", patterns, f"{prefix}: ")
    return out


def _patterns(key: str, patterns: Sequence[str], where: str = "") -> None:
    """Every one of `patterns` compiles as a regular expression, else `key` is invalid (the
    problem after `where`: the part of the key it is in)."""
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise _Invalid(key, f"{where}{pattern!r} is not a pattern ({exc})") from None


def _shared(raw: object) -> tuple[tuple[str, str], ...]:
    """`shared_wording: {other project: [entry id, ...]}`, each list as one space-separated
    string of ids in order (see Project.shared)."""
    out = []
    for upstream, ids in _text_lists(raw, "shared_wording", "a project name", "entry ids"):
        bad = next((i for i in ids if len(i) != 16 or i.strip("0123456789abcdef")), None)
        if bad is not None:
            raise _Invalid("shared_wording", f"{upstream}: {bad!r} is not an entry id")
        out.append((upstream, " ".join(sorted(set(ids)))))
    return tuple(out)


def _adapted(raw: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`adapted_from: {other project: [path, ...]}`."""
    return _text_lists(raw, "adapted_from", "a project name", "paths")


def _text_lists(
    raw: object, key: str, what: str, items: str, empty: bool = True
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A mapping of text to lists of text (`{name: [text, ...]}`), in order."""
    if raw is None:
        return ()
    wrong = f"must map {what} to a list of {items}"
    if not isinstance(raw, dict):
        raise _Invalid(key, wrong)
    out = []
    for name, values in raw.items():
        if not isinstance(name, str) or not isinstance(values, list) or not (values or empty):
            raise _Invalid(key, wrong)
        if not all(isinstance(v, str) for v in values):
            raise _Invalid(key, f"{name}: every {items[:-1]} must be text")
        out.append((name, tuple(values)))
    return tuple(out)


LINK_FIELDS = frozenset({"version", "prefix", "path", "line"})


def _link(link: str | None) -> str | None:
    """A project's link template: only the fields LINK_FIELDS, each plain ({path}, not
    {path!r} or {line:>99999}: issue 14, a width spec printed 200 MB)."""
    if link is None:
        return None
    from string import Formatter

    try:
        fields = list(Formatter().parse(link))
    except ValueError as exc:
        raise _Invalid("link", f"is not a valid template ({exc})") from None
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        if name not in LINK_FIELDS:
            shown = name if len(name) <= 40 else name[:40] + "..."
            raise _Invalid(
                "link",
                f"unknown field {{{shown}}}: use {{version}}, {{prefix}}, {{path}} and {{line}}",
            )
        if spec or conversion:
            raise _Invalid("link", f"the field {{{name}}} takes no format spec or conversion")
    return link


def load_module_file(path: Path, project: Project) -> list[Entry]:
    return load_module_data(read_bytes(path), str(path), project)


def load_module_data(data: bytes, name: str, project: Project) -> list[Entry]:
    """The entries of a module file's bytes (`name`: its path)."""
    path = Path(name)
    raw = parse_yaml(data, path)
    if raw is None:
        return []
    try:
        raw = _keys(raw, FILE_KEYS, "")
    except _Invalid as exc:
        raise CatalogError(f"{path}: {exc}") from None
    items = raw.get("entries") or []
    if not isinstance(items, list):
        raise CatalogError(f"{path}: entries: must be a list")
    out = []
    for i, item in enumerate(items):
        try:
            out.append(make_entry(item, project, str(path)))
        except _Invalid as exc:
            ident = item.get("id") if isinstance(item, dict) else None
            # never format a raw node: it may be an alias tree that expands without bound
            shown = isinstance(ident, str) and 0 < len(ident) <= 40
            label = f"entry {ident}" if shown else f"entry #{i + 1}"
            line = entry_line(path, i, len(items))
            where = f"{path}:{line}" if line else str(path)
            raise CatalogError(
                f"{where}: {label}: {exc.key}: {exc.problem}",
                hint="see docs/catalog.md for the entry format",
            ) from None
    return out


def project_roots(root: Path) -> list[Path]:
    """A catalog dir is either one project (has project.yaml) or a folder of projects."""
    if (root / "project.yaml").is_file():
        return [root]
    roots = sorted(p for p in root.iterdir() if p.is_dir() and (p / "project.yaml").is_file())
    if not roots:
        raise CatalogError(
            f"{root}: no project.yaml found in it or its subfolders",
            hint="a catalog folder holds <project>/project.yaml (docs/catalog.md)",
        )
    return roots


def load_release_facts(proot: Path, project: str) -> Facts | None:
    """A project's releases.yaml (release order, releases of each path), if it has one."""
    path = proot / RELEASES_FILE
    if not path.is_file():
        return None
    raw = read_yaml(path)
    order = raw.get("releases") if isinstance(raw, dict) else None
    paths = raw.get("paths") if isinstance(raw, dict) else None
    if not (isinstance(order, list) and all(isinstance(r, str) for r in order)):
        raise CatalogError(f"{path}: releases: must be a list of release strings")
    if not isinstance(paths, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in paths.items()
    ):
        raise CatalogError(f"{path}: paths: must map source paths to release ranges")
    formerly = raw.get("formerly") or {}
    if not isinstance(formerly, dict) or not all(
        _is_id(k) and _is_id(v) for k, v in formerly.items()
    ):
        raise CatalogError(f"{path}: formerly: must map old entry ids to entry ids (16 hex)")
    return Facts(project, tuple(order), paths, tuple(sorted(formerly.items())))


def _is_id(value: object) -> bool:
    return (
        isinstance(value, str) and len(value) == 16 and all(c in "0123456789abcdef" for c in value)
    )


def load_dir(
    root: Path, parallel: bool | None = None
) -> tuple[list[Project], list[Entry], list[Facts], dict[str, Any]]:
    """(projects, entries, release facts, template facts) of one catalog directory (`parallel`:
    see :func:`~errexplain.catalog.parts.load_parts`)."""
    from errexplain.catalog.locate import cache_dir
    from errexplain.catalog.parts import load_parts

    projects, entries, facts, templates = [], [], [], {}
    for proot in project_roots(root):
        project = load_project(proot)
        projects.append(project)
        paths = [p for p in catalog_files(proot) if p.name not in NOT_MODULE_FILES]
        found_entries, found_templates = load_parts(
            paths, project, cache_dir(), load_module_data, parallel
        )
        entries.extend(found_entries)
        templates.update(found_templates)
        found = load_release_facts(proot, project.name)
        if found is not None:
            facts.append(found)
    return projects, entries, facts, templates


def load_catalog(dirs: Iterable[Path | str], parallel: bool | None = None) -> Catalog:
    """Load and merge catalog directories; an id in a later one overrides an earlier one.
    Module files are parsed by a process per core when there are many, or as `parallel` says
    (True: always, False: never; see :func:`~errexplain.catalog.parts.workers`)."""
    projects: dict[str, Project] = {}
    merged: dict[str, Entry] = {}
    overridden: list[str] = []
    facts: dict[str, Facts] = {}
    templates: dict[str, TemplateFacts] = {}
    for root in dirs:
        seen_here: set[str] = set()
        dir_projects, entries, dir_facts, dir_templates = load_dir(Path(root), parallel)
        facts.update((f.project, f) for f in dir_facts)
        projects.update((p.name, p) for p in dir_projects)
        templates.update(dir_templates)
        for entry in entries:
            if entry.id in seen_here:
                raise CatalogError(f"{entry.catalog_file}: entry {entry.id}: id: duplicate id")
            seen_here.add(entry.id)
            if entry.id in merged:
                overridden.append(entry.id)
            merged[entry.id] = entry
    return Catalog(
        tuple(projects.values()),
        tuple(merged.values()),
        tuple(overridden),
        tuple(facts.values()),
        templates,
    )
