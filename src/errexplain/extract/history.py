"""A project's raise sites over all its releases: lineages -> one catalog entry per wording.

:func:`build_history` walks every release (through a :class:`FileCache`, so unchanged files
are not walked again) and follows each site with :mod:`errexplain.extract.lineage`;
:func:`add_release` continues the history stored in a catalog with one more release.
:func:`render` turns a :class:`History` into catalog documents:

* one entry per *wording* (exception + template) of a lineage, with ``releases`` (first and
  last release raising it) and ``at`` (where, release by release);
* the *head* of a lineage is the wording of its last occurrence (the newest release's if it is
  alive); the other wordings name it in ``lineage``; a removed head may name ``replaced_by``;
* ids: an entry of the old catalog keeps its id (matched by id, else by where it was raised
  last); a new wording's id is :func:`~errexplain.models.make_id` of its last raising release
  (``function#n`` on a collision, like the extractor's duplicates);
* curated fields of an old entry stay on the entry that keeps its id; derived ``meaning`` is
  written for every wording and ``related`` for the heads alive in the newest release.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from errexplain._startup import MutableRecord, Record
from errexplain.catalog.load import KEY_ORDER
from errexplain.extract import derive
from errexplain.extract.filecache import FileCache
from errexplain.extract.lineage import History, Lineage
from errexplain.extract.merge import (
    curated_related,
    is_curated,
    new_ids,
    ordered,
    site_fields,
    site_text,
)
from errexplain.extract.records import Site
from errexplain.extract.resolve import resolve
from errexplain.extract.sources import read_sources
from errexplain.extract.writer import (
    PROJECT_FILE,
    RELEASES_FILE,
    CatalogFile,
    catalog_file_for,
    dump,
    project_text,
    read_bytes,
    read_project_file,
    remove_file,
    write_if_unchanged,
)
from errexplain.models import AtSpan, format_at, make_id, parse_at

Entry = dict[str, Any]
HISTORY_KEYS = ("versions", "releases", "at", "lineage", "replaced_by", "removed_in")
CURATED_KEYS = (
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


class ReleaseSites(Record):
    """One release walked: its sites (resolved) and every ``.py`` path of the package."""

    version: str
    sites: tuple[Site, ...]
    paths: tuple[str, ...]
    skipped: int
    classes: Mapping[tuple[str, str], tuple[str, ...]] | None = None
    """(path, class name) -> the class's bases as written, of every class the release defines."""


def release_sites(source: str | Path, version: str, project: str, cache: FileCache) -> ReleaseSites:
    files = read_sources(source, project)
    results = cache.walk(files)
    resolved = resolve(results)
    skipped = sum(1 for r in results if r.error is not None)
    classes = {(c.path, c.name): c.bases for r in results for c in r.classes}
    return ReleaseSites(version, resolved.sites, tuple(f.path for f in files), skipped, classes)


# ------------------------------------------------------------------------------- wordings


class Wording(MutableRecord):
    """One (exception, template) of a lineage, or for a site without a message one (exception,
    statement): its occurrences (release index, site)."""

    lineage: int
    occurrences: list[tuple[int, Site]]
    head: bool = False
    id: str = ""

    @property
    def first(self) -> int:
        return self.occurrences[0][0]

    @property
    def last(self) -> int:
        return self.occurrences[-1][0]

    @property
    def site(self) -> Site:
        """The site in the last release that raises this wording."""
        return self.occurrences[-1][1]


def wordings_of(history: History) -> list[Wording]:
    """Every wording of every lineage; the head is the wording of the last occurrence. A site
    without a message is worded by its statement: `assert self.being_chunked_req is None`
    (0.3.5 to 0.4.3) and `assert self.chunked_req is None` (since) are two wordings of one
    lineage, so a traceback showing the older statement (or an AssertionError printing it)
    finds its own wording, with its releases."""
    out: list[Wording] = []
    for n, lin in enumerate(history.lineages):
        groups: dict[tuple[str, str], Wording] = {}
        for r, site in lin.occurrences:
            key = (site.exception, site_text(site))
            if key not in groups:
                groups[key] = Wording(n, [])
            groups[key].occurrences.append((r, site))
        last = lin.last[1]
        groups[(last.exception, site_text(last))].head = True
        out.extend(groups.values())
    return out


def spans(occurrences: Sequence[tuple[int, Site]], releases: Sequence[str]) -> list[AtSpan]:
    """Runs of consecutive releases at the same (path, line, function)."""
    out: list[AtSpan] = []
    prev_r = -2
    for r, site in occurrences:
        where = (site.path, site.line, site.function)
        if out and prev_r == r - 1 and (out[-1].path, out[-1].line, out[-1].function) == where:
            last = out[-1]
            out[-1] = AtSpan(last.first, releases[r], last.path, last.line, last.function)
        else:
            out.append(AtSpan(releases[r], releases[r], *where))
        prev_r = r
    return out


def ranges(indices: Iterable[int], releases: Sequence[str]) -> str:
    """``0.2.0..0.3.6, 0.4.1..0.5.23``: runs of consecutive release indices."""
    runs: list[list[int]] = []
    for i in sorted(indices):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(releases[a] if a == b else f"{releases[a]}..{releases[b]}" for a, b in runs)


# ------------------------------------------------------------------------------------ ids


def _natural_ids(words: Sequence[Wording], history: History, project: str) -> list[str]:
    """The id each wording would get: live ones as the extractor names the newest release's
    sites, older ones by their last raising release."""
    newest = len(history.releases) - 1
    live = sorted(
        (i for i, w in enumerate(words) if w.last == newest),
        key=lambda i: (
            words[i].site.path,
            words[i].site.line,
            words[i].site.kind,
            words[i].site.template,
        ),
    )
    ids = [""] * len(words)
    for i, ident in zip(live, new_ids([words[i].site for i in live], project), strict=True):
        ids[i] = ident
    for i, w in enumerate(words):
        if not ids[i]:
            s = w.site
            ids[i] = make_id(project, s.path, s.function, site_text(s))
    return ids


Place = tuple[Any, ...]
"""Where a wording was raised: (release, path, line, exception, template), or the part of it a
picker reads (:func:`_line_place`, :func:`_text_place`)."""


def _old_where(entry: Entry, version: str | None) -> Place | None:
    """Where an old entry was raised last: (release, path, line, exception, template)."""
    at = entry.get("at")
    if isinstance(at, str):
        try:
            last = parse_at(at)[-1]
        except ValueError:
            return None
        return (last.last, last.path, last.line, entry.get("exception"), entry.get("template"))
    source = entry.get("source") or {}
    return (
        version,
        source.get("path"),
        source.get("line"),
        entry.get("exception"),
        entry.get("template"),
    )


def _raised_where(w: Wording, history: History, entry: Entry) -> bool:
    """Whether wording `w` was raised where the old entry was last (its id names that site:
    two sites of one function with the same text share a natural id, and when one of them
    joins another lineage the other must not take the id over)."""
    key = _old_where(entry, None) if isinstance(entry.get("at"), str) else None
    if key is None:  # no history of it (or unreadable): the id is the wording's
        return True
    return any(_place_of(history, r, site) == key for r, site in w.occurrences)


def _place_of(history: History, release: int, site: Site) -> Place:
    return (history.releases[release], site.path, site.line, site.exception, site.template)


def _places(
    words: Sequence[Wording],
    history: History,
    pick: Callable[[Place], Place] | None = None,
    unnamed_only: bool = True,
) -> dict[Place, list[int]]:
    """Wordings without an id yet (every wording: `unnamed_only` False), by where they were
    raised, as `pick` reads the place (None: all of it) -> wording indices in order."""
    where: dict[Place, list[int]] = {}
    for i, w in enumerate(words):
        if not (unnamed_only and w.id):
            for r, site in w.occurrences:
                place = _place_of(history, r, site)
                where.setdefault(pick(place) if pick else place, []).append(i)
    return where


def _adopt_by_place(
    words: Sequence[Wording],
    history: History,
    old: Mapping[str, Entry],
    old_version: str | None,
    adopted: dict[str, int],
) -> None:
    """Old entries not adopted by id: the wording raised where the old entry was last."""
    where = _places(words, history)
    for ident in sorted(old):
        if ident in adopted:
            continue
        key = _old_where(old[ident], old_version)
        found = where.get(key, [None])[0] if key is not None else None
        if found is not None and not words[found].id:
            adopted[ident] = found
            words[found].id = ident
    for pick in (_line_place, _text_place):
        _adopt_unique(words, history, old, old_version, adopted, pick)


def _line_place(where: Place) -> Place:
    """(release, path, line, exception): the extractor now reads the message differently (a
    local text inlined, a helper followed); the check is the same."""
    return where[:4]


def _text_place(where: Place) -> Place:
    """(release, path, exception, template): the extractor now sites the text on another
    line (a reason sited where it is handed over, not at the call's first line)."""
    return (where[0], where[1], where[3], where[4])


def _adopt_unique(
    words: Sequence[Wording],
    history: History,
    old: Mapping[str, Entry],
    old_version: str | None,
    adopted: dict[str, int],
    pick: Callable[[Place], Place],
) -> None:
    """Old entries still not adopted: the one wording without an id raised at the old entry's
    last place as `pick` reads it (fields of (release, path, line, exception, template)), when
    nothing else is there on either side: the check is the same, so it keeps its id."""
    where = _places(words, history, pick)
    olds: dict[Place, list[str]] = {}
    for ident in sorted(old):
        key = None if ident in adopted else _old_where(old[ident], old_version)
        if key is not None:
            olds.setdefault(pick(key), []).append(ident)
    index = {v: n for n, v in enumerate(history.releases)}
    # the newest first: when two old wordings now read alike and merged, the current id stays
    for key, idents in sorted(olds.items(), key=lambda kv: (-index.get(kv[0][0], -1), kv[1])):
        found = where.get(key, [])
        if len(idents) == 1 and len(found) == 1 and not words[found[0]].id:
            adopted[idents[0]] = found[0]
            words[found[0]].id = idents[0]


def assign_ids(
    words: Sequence[Wording],
    history: History,
    project: str,
    old: Mapping[str, Entry],
    old_version: str | None,
) -> dict[str, int]:
    """Set ``Wording.id``; return old id -> wording index for the old entries kept."""
    natural = _natural_ids(words, history, project)
    order = sorted(range(len(words)), key=lambda i: (-words[i].last, natural[i], i))
    adopted: dict[str, int] = {}
    for i in order:
        ident = natural[i]
        if ident in old and ident not in adopted and _raised_where(words[i], history, old[ident]):
            adopted[ident] = i
            words[i].id = ident
    _adopt_by_place(words, history, old, old_version, adopted)
    taken = set(old) | {w.id for w in words if w.id}
    for i in order:
        w = words[i]
        if w.id:
            continue
        ident, n = natural[i], 1
        while ident in taken:
            n += 1
            ident = make_id(project, w.site.path, f"{w.site.function}#{n}", site_text(w.site))
        w.id = ident
        taken.add(ident)
    return adopted


# --------------------------------------------------------------------------------- render


class Rendered(Record):
    """Catalog documents by file name, the release list document, and what happened."""

    docs: dict[str, dict[str, Any]]
    releases_doc: dict[str, Any]
    lineages: int
    wordings: int
    removed_lineages: int
    kept_unmatched: tuple[str, ...]


def _entry(w: Wording, history: History, head_id: str, replaced_by: str | None) -> Entry:
    releases = history.releases
    entry: Entry = {"id": w.id, **site_fields(w.site)}
    entry["releases"] = {"first": releases[w.first], "last": releases[w.last]}
    entry["at"] = format_at(spans(w.occurrences, releases))
    if not w.head:
        entry["lineage"] = head_id
    elif replaced_by:
        entry["replaced_by"] = replaced_by
    if w.last < len(releases) - 1:
        entry["removed_in"] = releases[w.last + 1]
    entry["derived"] = True
    entry["meaning"] = derive.meaning(w.site)
    return entry


def _carry(entry: Entry, old: Entry | None) -> Entry:
    """Keep the curated layer of the old entry (and whatever the extractor does not own)."""
    if old is None or not is_curated(old):
        return entry
    for key in CURATED_KEYS:
        entry.pop(key, None)
        if old.get(key) is not None:
            entry[key] = old[key]
    return entry


def _replacement_ids(words: Sequence[Wording], history: History) -> dict[int, str]:
    """lineage index -> id of the wording that replaced it (raised in the removal release)."""
    by_lineage: dict[int, list[Wording]] = defaultdict(list)
    for w in words:
        by_lineage[w.lineage].append(w)
    out: dict[int, str] = {}
    for n, lin in enumerate(history.lineages):
        if lin.replaced_by is None:
            continue
        r, other = lin.replaced_by
        for w in by_lineage.get(other, ()):
            if any(rr == r for rr, _ in w.occurrences):
                out[n] = w.id
    return out


def render(
    history: History,
    project: str,
    old_files: Sequence[CatalogFile],
    old_version: str | None,
    paths: Mapping[str, Iterable[int]],
    formerly: Mapping[str, str] | None = None,
) -> Rendered:
    """The catalog documents of ``history`` merged with the old catalog (ids, curated text).
    `formerly` (the old releases file's) maps ids of wordings merged into another to its id;
    the new map adds the old derived wordings that now continue as part of another wording."""
    words = wordings_of(history)
    old: dict[str, Entry] = {}
    old_file: dict[str, CatalogFile] = {}
    for cf in old_files:
        for e in cf.entries:
            old[str(e.get("id"))] = {k: v for k, v in e.items() if k in KEY_ORDER}
            old_file[str(e.get("id"))] = cf
    adopted = assign_ids(words, history, project, old, old_version)
    kept_by = {i: ident for ident, i in adopted.items()}
    heads = {w.lineage: w for w in words if w.head}
    replaced = _replacement_ids(words, history)
    newest = len(history.releases) - 1
    placed: list[tuple[str, str, Entry]] = []
    live_heads: list[tuple[str, Site]] = []
    for i, w in enumerate(words):
        head = heads[w.lineage]
        entry = _entry(w, history, head.id, replaced.get(w.lineage))
        if w.head and w.last == newest:
            live_heads.append((w.id, w.site))
        entry = _carry(entry, old.get(kept_by[i]) if i in kept_by else None)
        placed.append((catalog_file_for(head.site.path), head.site.path, entry))
    wanted = {ident for ident, _ in live_heads}
    related = derive.related_ids(live_heads, wanted)
    for _, _, e in placed:  # from the code for every live head; a curated list stays
        if e["id"] in related and not curated_related(e):
            if related[e["id"]]:
                e["related"] = related[e["id"]]
            else:
                e.pop("related", None)
    unmatched, merged = _leftovers(words, history, old, adopted, old_version)
    for ident in unmatched:
        cf = old_file[ident]
        placed.append((cf.name, cf.module or "", old[ident]))
    docs = _group(placed)
    lineages = len(history.lineages)
    removed = sum(1 for lin in history.lineages if lin.last[0] < newest)
    releases_doc: dict[str, Any] = {
        "releases": list(history.releases),
        "paths": {p: ranges(rs, history.releases) for p, rs in sorted(paths.items())},
    }
    aliases = _aliases({**(formerly or {}), **merged}, {w.id for w in words})
    if aliases:
        releases_doc["formerly"] = aliases
    return Rendered(docs, releases_doc, lineages, len(words), removed, tuple(unmatched))


def _leftovers(
    words: Sequence[Wording],
    history: History,
    old: Mapping[str, Entry],
    adopted: Mapping[str, int],
    old_version: str | None,
) -> tuple[list[str], dict[str, str]]:
    """(old ids kept as they are, old id -> the id it now names) of the old entries no
    wording adopted. A wording an earlier build derived (it has `releases`) that this build no
    longer finds is dropped, and when another wording is now raised where it was, its id names
    that one (`formerly`); anything else (curated, named by curated text, or made by the
    single-release extractor) is kept as it is."""
    pinned = _pinned(old)
    raised_at = _places(words, history, _line_place, unnamed_only=False)
    kept: list[str] = []
    merged: dict[str, str] = {}
    for ident in sorted(set(old) - set(adopted)):
        entry = old[ident]
        if _derived_by_history(ident, entry, pinned):
            now = _raised_now(entry, old_version, raised_at)
            if now:
                merged[ident] = words[now[0]].id
            continue
        kept.append(ident)
    return kept, merged


def _pinned(old: Mapping[str, Entry]) -> set[str]:
    """Ids named by curated text (their entries are kept whatever a build finds)."""
    return {r for e in old.values() if is_curated(e) for r in e.get("related") or []}


def _derived_by_history(ident: str, entry: Entry, pinned: set[str]) -> bool:
    """Whether an old entry is a build's own wording (dropped or merged when not found again)."""
    return bool(entry.get("releases")) and not is_curated(entry) and ident not in pinned


def _raised_now(
    entry: Entry, old_version: str | None, raised_at: Mapping[tuple[Any, ...], list[Any]]
) -> list[Any] | None:
    """What is raised now where the old entry was raised last (release, path, line, type)."""
    where = _old_where(entry, old_version)
    return raised_at.get(_line_place(where)) if where is not None else None


def lost_aliases(
    before: Mapping[str, Entry], after: Mapping[str, Entry], releases: Sequence[str]
) -> dict[str, str]:
    """Old id -> the id it now names, for the derived wordings of an older catalog (`before`)
    that `after` no longer has and whose last place one of its entries raises: the aliases a
    build made before `formerly` existed would have kept. `after` entries' ``at`` spans give
    the places; an old wording raised nowhere now (a line no longer recorded) gets none."""
    order = {r: i for i, r in enumerate(releases)}
    raised_at: dict[tuple[Any, ...], list[str]] = {}
    for ident, entry in after.items():
        at = entry.get("at")
        if not isinstance(at, str):
            continue
        for span in parse_at(at):
            for r in releases[order[span.first] : order[span.last] + 1]:
                place = (r, span.path, span.line, entry.get("exception"))
                raised_at.setdefault(place, []).append(ident)
    pinned = _pinned(before)
    out = {}
    for ident in sorted(set(before) - set(after)):
        entry = before[ident]
        if _derived_by_history(ident, entry, pinned):
            now = _raised_now(entry, None, raised_at)
            if now:
                out[ident] = sorted(now)[0]
    return out


def add_aliases(out: Path, aliases: Mapping[str, str], ids: set[str]) -> int:
    """Add `aliases` to the releases file of the catalog at `out` (chains followed, ids of
    this catalog never aliased); return how many the file gained."""
    path = out / RELEASES_FILE
    raw = read_bytes(path)
    doc = read_releases_file(out)
    if doc is None:
        raise ValueError(f"{path}: no releases file to add aliases to")
    before = dict(doc.get("formerly") or {})
    merged = _aliases({**aliases, **before}, ids)
    if merged:
        doc["formerly"] = merged
    write_if_unchanged(path, dump(doc), raw)
    return len(set(merged) - set(before))


def _aliases(formerly: Mapping[str, str], ids: set[str]) -> dict[str, str]:
    """Old id -> the id it now names, every chain followed to an id of this build (an alias of
    an alias, when the wording it named merged again); those leading nowhere are left out."""
    out = {}
    for old in sorted(formerly):
        target, seen = formerly[old], {old}
        while target not in ids and target in formerly and target not in seen:
            seen.add(target)
            target = formerly[target]
        if target in ids and old not in ids:
            out[old] = target
    return out


def _group(placed: Iterable[tuple[str, str, Entry]]) -> dict[str, dict[str, Any]]:
    by_file: dict[str, list[tuple[str, Entry]]] = defaultdict(list)
    for name, module, entry in placed:
        by_file[name].append((module, entry))
    docs: dict[str, dict[str, Any]] = {}
    for name in sorted(by_file):
        group = by_file[name]
        entries = sorted(
            (ordered(e) for _, e in group),
            key=lambda e: ((e.get("source") or {}).get("line") or 0, str(e["id"])),
        )
        module_path = next((m for m, _ in group if m), None)
        doc: dict[str, Any] = {"module": module_path} if module_path else {}
        doc["entries"] = entries
        docs[name] = doc
    return docs


# -------------------------------------------------------------- the history of a catalog


def _site_of(entry: Entry, span: AtSpan, last: bool) -> Site:
    return Site(
        path=span.path,
        line=span.line,
        kind=str(entry.get("kind", "raise")),
        exception=str(entry.get("exception")),
        template=str(entry.get("template")),
        function=span.function,
        condition=entry.get("condition") if last else None,
        statement=entry.get("statement"),  # one per wording (wordings_of)
        doc=entry.get("doc") if last else None,
        base=entry.get("base"),
    )


def history_from_entries(releases: Sequence[str], entries: Iterable[Entry]) -> History:
    """The lineages a history catalog stores (its ``at``, ``lineage`` and ``replaced_by``)."""
    index = {v: i for i, v in enumerate(releases)}
    by_head: dict[str, list[tuple[int, Site]]] = defaultdict(list)
    replaced: dict[str, str] = {}
    for e in entries:
        at = e.get("at")
        if not isinstance(at, str):
            continue
        head = str(e.get("lineage") or e["id"])
        spans_ = parse_at(at)
        for k, span in enumerate(spans_):
            a, b = index[span.first], index[span.last]
            for r in range(a, b + 1):
                last = k == len(spans_) - 1 and r == b
                by_head[head].append((r, _site_of(e, span, last)))
        if e.get("replaced_by"):
            replaced[head] = str(e["replaced_by"])
    heads = sorted(by_head, key=lambda h: (min(r for r, _ in by_head[h]), h))
    lineages = [Lineage(sorted(by_head[h], key=lambda o: o[0])) for h in heads]
    position = {h: n for n, h in enumerate(heads)}
    owner = {str(e["id"]): str(e.get("lineage") or e["id"]) for e in entries if e.get("at")}
    for h, target in replaced.items():
        lin = lineages[position[h]]
        other = owner.get(target)
        if other in position:
            lin.replaced_by = (lin.last[0] + 1, position[other])
    return History(releases, lineages)


Progress = Callable[[str], None]


def build_history(
    sources: Sequence[tuple[str, str | Path]],
    project: str,
    cache: FileCache,
    progress: Progress | None = None,
    history: History | None = None,
    paths: dict[str, set[int]] | None = None,
) -> tuple[History, dict[str, set[int]]]:
    """Walk (version, source) in order and extend ``history`` (a new one by default)."""
    history = history if history is not None else History()
    paths = paths if paths is not None else defaultdict(set)
    for version, source in sources:
        got = release_sites(source, version, project, cache)
        r = len(history.releases)
        history.add(version, got.sites, got.classes)
        for p in got.paths:
            paths.setdefault(p, set()).add(r)
        if progress is not None:
            progress(f"{version}: {len(got.sites)} sites, {len(got.paths)} files")
    return history, paths


def paths_from_doc(doc: Mapping[str, Any]) -> dict[str, set[int]]:
    """The inverse of ``releases_doc['paths']``."""
    releases = list(doc.get("releases") or [])
    index = {v: i for i, v in enumerate(releases)}
    out: dict[str, set[int]] = {}
    for path, text in (doc.get("paths") or {}).items():
        got: set[int] = set()
        for part in str(text).split(","):
            first, _, last = part.strip().partition("..")
            got.update(range(index[first], index[last or first] + 1))
        out[path] = got
    return out


# ---------------------------------------------------------------------------------- disk


def read_releases_file(out: Path) -> dict[str, Any] | None:
    from errexplain.catalog.yamlio import read_yaml

    path = out / RELEASES_FILE
    if not path.is_file():
        return None
    doc = read_yaml(path)
    return doc if isinstance(doc, dict) else None


def write_catalog(out: Path, rendered: Rendered, old_files: Sequence[CatalogFile]) -> list[str]:
    """Write the changed files of ``rendered`` (atomically), remove emptied ones; return the
    names written or removed. ``project.yaml`` gets the newest release as its version."""
    out.mkdir(parents=True, exist_ok=True)
    loaded = {cf.name: cf.raw for cf in old_files}
    meta, raw = read_project_file(out)
    releases = rendered.releases_doc["releases"]
    project = {**meta, "version": releases[-1]} if releases else meta
    outputs = [(PROJECT_FILE, project_text(meta, raw, project), raw)]
    outputs.append((RELEASES_FILE, dump(rendered.releases_doc), read_bytes(out / RELEASES_FILE)))
    outputs += [(name, dump(doc), loaded.get(name)) for name, doc in rendered.docs.items()]
    written = []
    for name, text, expected in outputs:
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if write_if_unchanged(path, text, expected):
            written.append(name)
    for name in sorted(set(loaded) - set(rendered.docs)):
        if remove_file(out / name, loaded[name]):
            written.append(name)
    return written
