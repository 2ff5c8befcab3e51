"""Build the new catalog in memory: merged entries grouped into module files."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from errexplain._startup import MutableRecord
from errexplain.catalog.load import KEY_ORDER
from errexplain.extract import derive
from errexplain.extract.merge import (
    SITE_KEYS,
    Entry,
    changed_keys,
    curated_related,
    entry_text,
    is_curated,
    match,
    new_ids,
    ordered,
    site_fields,
)
from errexplain.extract.records import Site
from errexplain.extract.writer import CatalogFile, catalog_file_for
from errexplain.match.template import TemplateSyntaxError
from errexplain.match.template import match as template_match


class Plan(MutableRecord):
    """The merged catalog: file name -> document, with what changed (start with `new`)."""

    docs: dict[str, dict[str, Any]]
    loaded: dict[str, bytes]
    emptied: list[str]
    added: int
    updated: int
    removed: int
    changes: list[str]
    warnings: list[str]

    @classmethod
    def new(cls, loaded: dict[str, bytes]) -> Plan:
        return cls({}, loaded, [], 0, 0, 0, [], [])


class _Placed(MutableRecord):
    file: str
    module: str | None
    entry: Entry
    before: Entry | None = None
    site: Site | None = None


def _clean(cf: CatalogFile, entry: Entry, warnings: list[str]) -> Entry:
    unknown = [k for k in entry if k not in KEY_ORDER]
    for key in unknown:
        warnings.append(f"{cf.name}: entry {entry.get('id', '?')}: unknown key {key!r} dropped")
    return {k: v for k, v in entry.items() if k in KEY_ORDER}


def _label(entry: Entry) -> str:
    """`path:line Type: message` as a reader sees it (template escapes undone)."""
    from errexplain.match.template import TemplateSyntaxError, render_plain

    source = entry.get("source") or {}
    text = entry_text(entry)
    if entry.get("template"):
        with suppress(TemplateSyntaxError):  # a template that does not compile: as written
            text = render_plain(text)
    return f"{source.get('path', '?')}:{source.get('line', '?')} {entry.get('exception')}: {text}"


def _refresh(old: Entry, site: Site, version: str) -> Entry:
    entry = {k: v for k, v in old.items() if k not in SITE_KEYS}
    entry.update(site_fields(site))
    if "releases" not in entry:  # a history catalog records releases/at instead
        versions = list(entry.get("versions") or [])
        if version not in versions:
            versions.append(version)
        entry["versions"] = versions
    entry["removed_in"] = None
    if not is_curated(entry):
        entry["derived"] = True
    return entry


def _check_examples(entry: Entry, warnings: list[str]) -> None:
    if not is_curated(entry):
        return
    for example in entry.get("examples") or []:
        try:
            ok = template_match(str(entry["template"]), str(example)) is not None
        except TemplateSyntaxError:
            ok = False
        if not ok:
            warnings.append(f"{_label(entry)}: curated example no longer matches: {example!r}")


def _place(
    old_files: Sequence[CatalogFile], sites: Sequence[Site], project: str, version: str, plan: Plan
) -> list[_Placed]:
    olds = [(cf, _clean(cf, e, plan.warnings)) for cf in old_files for e in cf.entries]
    ids = new_ids(sites, project)
    m = match([e for _, e in olds], sites, ids)
    placed: list[_Placed] = []
    for s, site in enumerate(sites):
        if s in m.pairs:
            cf, old = olds[m.pairs[s]]
            entry = _refresh(old, site, version)
            placed.append(_Placed(cf.name, cf.module, entry, old, site))
            _check_examples(entry, plan.warnings)
        else:
            entry = {"id": ids[s], **site_fields(site), "versions": [version], "derived": True}
            placed.append(_Placed(catalog_file_for(site.path), site.path, entry, None, site))
    taken = m.taken()
    pinned = {r for _, e in olds if is_curated(e) for r in e.get("related") or []}
    for i, (cf, old) in enumerate(olds):
        if i not in taken:
            entry = _gone(old, version)
            keep = entry.get("versions") or entry.get("releases") or is_curated(entry)
            if keep or entry.get("id") in pinned:
                placed.append(_Placed(cf.name, cf.module, entry, old))
            else:
                plan.removed += 1
                plan.changes.append(
                    f"dropped {_label(old)} (an earlier extraction of "
                    f"{version} found it, this one does not)"
                )
    return placed


def _gone(old: Entry, version: str) -> Entry:
    """An entry whose site is not found in ``version``: ``removed_in`` it.

    If an earlier extraction of the same version recorded it (the extractor changed, not the
    code), ``version`` is taken out of ``versions`` again.
    """
    entry = dict(old)
    versions = [v for v in entry.get("versions") or [] if v != version]
    if "versions" in entry:
        entry["versions"] = versions
    if not entry.get("removed_in"):
        entry["removed_in"] = version
    return entry


def _derive(placed: Sequence[_Placed]) -> None:
    live = [p for p in placed if p.site is not None]
    wanted = {str(p.entry["id"]) for p in live}
    related = derive.related_ids([(str(p.entry["id"]), p.site) for p in live if p.site], wanted)
    for p in live:
        if p.site is None:
            continue
        # `related` comes from the code for every live entry but one a person gave a related
        # list (part of what they checked); `meaning` for every entry not curated
        if not curated_related(p.entry):
            p.entry["related"] = related[str(p.entry["id"])] or None
        if not is_curated(p.entry):
            p.entry["meaning"] = derive.meaning(p.site)


def _record(p: _Placed, plan: Plan) -> None:
    after = ordered(p.entry)
    p.entry = after
    if p.before is None:
        plan.added += 1
        plan.changes.append(f"added   {_label(after)}")
        return
    keys = changed_keys(ordered(p.before), after)
    if not keys:
        return
    if p.site is None:
        plan.removed += 1
        plan.changes.append(f"removed {_label(after)} (removed_in {after.get('removed_in')})")
        return
    plan.updated += 1
    old_line = (p.before.get("source") or {}).get("line")
    moved = f"line {old_line} -> {p.site.line}; " if old_line != p.site.line else ""
    plan.changes.append(f"updated {_label(after)} ({moved}{', '.join(keys)})")


def build(
    old_files: Sequence[CatalogFile], sites: Sequence[Site], project: str, version: str
) -> Plan:
    """Merge ``sites`` into ``old_files``; the result is deterministic for the same input."""
    plan = Plan.new({cf.name: cf.raw for cf in old_files})
    placed = _place(old_files, sites, project, version, plan)
    seen: set[str] = set()
    for p in placed:
        if p.entry.get("id") in seen:
            plan.warnings.append(f"{_label(p.entry)}: duplicate id {p.entry.get('id')}")
        seen.add(str(p.entry.get("id")))
    _derive(placed)
    by_file: dict[str, list[_Placed]] = defaultdict(list)
    for p in placed:
        _record(p, plan)
        by_file[p.file].append(p)
    for name in sorted(by_file):
        group = by_file[name]
        entries = sorted(
            (p.entry for p in group),
            key=lambda e: ((e.get("source") or {}).get("line") or 0, str(e["id"])),
        )
        module = next((p.module for p in group if p.module), None)
        doc: dict[str, Any] = {"module": module} if module else {}
        doc["entries"] = entries
        plan.docs[name] = doc
    plan.emptied = sorted(set(plan.loaded) - set(plan.docs))
    return plan
