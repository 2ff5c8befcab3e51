"""Catalog integrity checks (`catalog check` and `catalog lint`). Pure: takes a Catalog."""

from __future__ import annotations

from collections import defaultdict

from errexplain._startup import TYPE_CHECKING, Record
from errexplain.catalog.load import Catalog
from errexplain.catalog.memory import MemoryCatalog
from errexplain.match.normalize import identifiable, template_words
from errexplain.match.rank import rank

if TYPE_CHECKING:
    from collections.abc import Set

    from errexplain.models import CatalogView


class Problem(Record):
    entry_id: str
    file: str | None
    message: str

    def __str__(self) -> str:
        return f"{self.file or '?'}: entry {self.entry_id}: {self.message}"


def dangling_related(catalog: Catalog) -> list[Problem]:
    """Ids named by ``related``, ``lineage`` or ``replaced_by`` that no entry has, and former
    ids (``formerly`` in releases.yaml) that name no entry or are in use."""
    ids = {e.id for e in catalog.entries}
    out = []
    for e in catalog.entries:
        named = [("related", r) for r in e.related]
        named += [(k, v) for k, v in (("lineage", e.lineage), ("replaced_by", e.replaced_by)) if v]
        out += [
            Problem(e.id, e.catalog_file, f"{key}: unknown id {r}")
            for key, r in named
            if r not in ids
        ]
    for f in catalog.release_facts:  # releases.yaml: formerly
        where = f"{f.project} releases.yaml"
        for old, new in f.formerly:
            if new not in ids:
                out.append(Problem(old, where, f"formerly: names unknown id {new}"))
            if old in ids:
                out.append(Problem(old, where, "formerly: is an id in use, not a former one"))
    return out


def _first_ids(
    view: CatalogView, example: str, exc_type: str, removed: Set[str] = frozenset()
) -> tuple[set[str], str]:
    """The ids ranked first for an example; hits in ``removed`` (wordings a history catalog
    keeps from older releases) do not compete."""
    hits = [h for h in rank(view, example, exc_type).hits if h.id not in removed]
    if not hits:
        return set(), "no match"
    top = hits[0].raw
    firsts = {h.id for h in hits if abs(h.raw - top) < 1e-9}
    return firsts, f"ranked first instead: {', '.join(sorted(firsts))}"


def examples_rank_first(catalog: Catalog, view: CatalogView | None = None) -> list[Problem]:
    """Every example of an entry must match that entry and rank it first (ties allowed only
    between sites raising the identical template). An example of an entry raised in the
    newest release is a message of that release: older wordings (``removed_in`` set) that
    match it too are left out, since they are told apart by release, not by text."""
    if view is None:
        view = MemoryCatalog(catalog.entries)
    removed = {e.id for e in catalog.entries if e.removed_in}
    problems = []
    for e in catalog.entries:
        for example in e.examples:
            gone = removed if not e.removed_in else set()
            firsts, why = _first_ids(view, example, e.exception, gone)
            if e.id not in firsts:
                problems.append(Problem(e.id, e.catalog_file, f"example {example[:60]!r}: {why}"))
    return problems


def check(catalog: Catalog) -> list[Problem]:
    return dangling_related(catalog) + examples_rank_first(catalog)


def too_generic(catalog: Catalog) -> list[Problem]:
    out = []
    for e in catalog.entries:
        if e.statement and not e.template:
            continue  # no message: found by its traceback frames (errexplain.match.sites)
        if not identifiable(e.template):
            out.append(
                Problem(
                    e.id,
                    e.catalog_file,
                    f"template {e.template[:60]!r} has too little literal text to "
                    "identify it (it never matches on its own)",
                )
            )
    return out


def duplicate_templates(catalog: Catalog) -> list[Problem]:
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for e in catalog.entries:
        groups[(e.project, e.template)].append(e.id)
    by_id = catalog.by_id()
    out = []
    for (_, template), ids in sorted(groups.items()):
        if len(ids) > 1 and template_words(template):
            first = by_id[ids[0]]
            out.append(
                Problem(
                    ids[0],
                    first.catalog_file,
                    f"template {template[:60]!r} is raised at {len(ids)} sites: " + ", ".join(ids),
                )
            )
    return out


def lint(catalog: Catalog) -> dict[str, list[Problem]]:
    return {
        "too generic": too_generic(catalog),
        "duplicate templates": duplicate_templates(catalog),
        "dangling related ids": dangling_related(catalog),
    }
