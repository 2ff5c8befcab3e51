"""Merge freshly extracted sites with an existing catalog, keeping curated text.

Old entries are matched to new sites by id, then by (path, function, template), then by
(path, function) with a similar template at the nearest line. A matched entry keeps its id and
its curated fields; its derived fields are refreshed. An old entry whose site is gone stays,
with ``removed_in`` set.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from rapidfuzz import fuzz

from errexplain._startup import MutableRecord
from errexplain.catalog.load import KEY_ORDER, SOURCE_ORDER
from errexplain.extract.records import Site
from errexplain.models import UNRAISED_KINDS, make_id

Entry = dict[str, Any]
SITE_KEYS = (
    "exception",
    "base",
    "kind",
    "template",
    "source",
    "condition",
    "statement",
    "via",
    "doc",
)
SIMILAR_TEMPLATE = 75


def is_curated(entry: Entry) -> bool:
    """``derived: false`` (or no ``derived`` key but a meaning) marks text written by a person."""
    if "derived" in entry:
        return entry["derived"] is False
    return bool(entry.get("meaning"))


def curated_related(entry: Entry) -> bool:
    """A person gave this entry its related list (part of what they checked): the builds keep
    it. A curated entry with none gets the code's."""
    return is_curated(entry) and bool(entry.get("related"))


def site_fields(site: Site) -> Entry:
    fields: Entry = {"exception": site.exception}
    if site.base and site.base != site.exception:
        fields["base"] = site.base
    fields["kind"] = site.kind
    fields["template"] = site.template
    fields["source"] = {"path": site.path, "line": site.line, "function": site.function}
    if site.condition:
        fields["condition"] = site.condition
    if site.statement:
        fields["statement"] = site.statement
    if site.via:
        fields["via"] = site.via
    if site.doc:
        fields["doc"] = site.doc
    return fields


def ordered(entry: Entry) -> Entry:
    """The entry with keys in catalog order, null values dropped (empty lists are kept)."""
    out: Entry = {}
    for key in KEY_ORDER:
        value = entry.get(key)
        if value is None:
            continue
        if key == "source" and isinstance(value, dict):
            value = {k: value[k] for k in SOURCE_ORDER if value.get(k) is not None}
        out[key] = value
    return out


def entry_path(entry: Entry) -> str | None:
    source = entry.get("source")
    return source.get("path") if isinstance(source, dict) else None


def _where(entry: Entry) -> str:
    source = entry.get("source") or {}
    return f"{source.get('path', '?')}:{source.get('line', '?')}"


def _line(entry: Entry) -> int:
    source = entry.get("source") or {}
    line = source.get("line")
    return line if isinstance(line, int) else 0


def _function(entry: Entry) -> str | None:
    source = entry.get("source") or {}
    return source.get("function")


def site_text(site: Site) -> str:
    """What identifies a site's message: its template, or for a site without a message its
    statement (it takes the template's place in the id)."""
    return site.template or site.statement or ""


def entry_text(entry: Entry) -> str:
    return str(entry.get("template") or entry.get("statement") or "")


def new_ids(sites: Sequence[Site], project: str) -> list[str]:
    """Ids of the sites; the n-th same-template site of a function hashes ``function#n``.
    Raised sites are numbered before logged ones: a `logger.error(msg)` just above
    `raise X(msg)` must not take the id the raise had before logged sites were extracted."""
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    ids = [""] * len(sites)
    order = sorted(
        range(len(sites)),
        key=lambda i: (
            sites[i].path,
            sites[i].kind in UNRAISED_KINDS,
            sites[i].line,
            sites[i].kind,
        ),
    )
    for i in order:
        site = sites[i]
        text = site_text(site)
        key = (site.path, site.function, text)
        seen[key] += 1
        func = site.function if seen[key] == 1 else f"{site.function}#{seen[key]}"
        ids[i] = make_id(project, site.path, func, text)
    return ids


class Matching(MutableRecord):
    """Which old entry (index) each new site (index) continues."""

    pairs: dict[int, int]

    def taken(self) -> set[int]:
        return set(self.pairs.values())


def _match_by_id(
    old: Sequence[Entry], sites: Sequence[Site], ids: Sequence[str], m: Matching
) -> None:
    """Same id: the same site, unless the entry is a removed site of another kind or exception
    (a history catalog keeps `raise ValueError(msg)` or `logger.error(msg)` of older releases
    beside the `logger.warning(msg)` that replaced it in the same function; the warning has its
    own id there, and pairs by place and text below)."""
    index = {e.get("id"): i for i, e in enumerate(old)}
    for s, new_id in enumerate(ids):
        i = index.get(new_id)
        if i is None:
            continue
        was = (old[i].get("kind", "raise"), old[i].get("exception"))
        if old[i].get("removed_in") and was != (sites[s].kind, sites[s].exception):
            continue
        m.pairs[s] = i


def _match_by_key(old: Sequence[Entry], sites: Sequence[Site], m: Matching) -> None:
    taken = m.taken()
    by_key: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    for i, e in enumerate(old):
        if i not in taken:
            by_key[(entry_path(e), _function(e), entry_text(e))].append(i)
    for s, site in enumerate(sites):
        if s in m.pairs:
            continue
        cands = by_key.get((site.path, site.function, site_text(site)))
        if cands:
            best = min(cands, key=lambda i: (abs(_line(old[i]) - site.line), i))
            cands.remove(best)
            m.pairs[s] = best


def _match_similar(old: Sequence[Entry], sites: Sequence[Site], m: Matching) -> None:
    taken = m.taken()
    by_func: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    for i, e in enumerate(old):
        if i not in taken and e.get("kind", "raise") != "builtin":
            by_func[(entry_path(e), _function(e))].append(i)
    for s, site in enumerate(sites):
        cands = by_func.get((site.path, site.function))
        if s in m.pairs or not cands:
            continue
        scored = [
            (abs(_line(old[i]) - site.line), i)
            for i in cands
            if old[i].get("kind", "raise") == site.kind and _similar(old[i], site)
        ]
        if scored:
            best = min(scored)[1]
            cands.remove(best)
            m.pairs[s] = best


def _similar(old: Entry, site: Site) -> bool:
    """A similar template; for a site without a message, a similar statement (an entry
    extracted before statements were recorded matches any statement)."""
    if bool(old.get("template")) != bool(site.template):
        return False
    if not site.template and not old.get("statement"):
        return True
    return fuzz.ratio(entry_text(old), site_text(site)) >= SIMILAR_TEMPLATE


def match(old: Sequence[Entry], sites: Sequence[Site], ids: Sequence[str]) -> Matching:
    m = Matching({})
    _match_by_id(old, sites, ids, m)
    _match_by_key(old, sites, m)
    _match_similar(old, sites, m)
    return m


def changed_keys(before: Entry, after: Entry) -> list[str]:
    keys: Iterable[str] = dict.fromkeys([*before, *after])
    return [k for k in keys if before.get(k) != after.get(k)]
