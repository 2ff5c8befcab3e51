"""Catalog integrity checks (`catalog check` and `catalog lint`). Pure: takes a Catalog."""

from __future__ import annotations

from collections import defaultdict

from errexplain._startup import TYPE_CHECKING, record
from errexplain.catalog.load import Catalog
from errexplain.catalog.memory import MemoryCatalog
from errexplain.match.normalize import identifiable, template_words
from errexplain.match.rank import rank

if TYPE_CHECKING:
    from errexplain.models import CatalogView


@record
class Problem:
    entry_id: str
    file: str | None
    message: str

    def __str__(self) -> str:
        return f"{self.file or '?'}: entry {self.entry_id}: {self.message}"


def dangling_related(catalog: Catalog) -> list[Problem]:
    ids = {e.id for e in catalog.entries}
    return [
        Problem(e.id, e.catalog_file, f"related: unknown id {r}")
        for e in catalog.entries
        for r in e.related
        if r not in ids
    ]


def _first_ids(view: CatalogView, example: str, exc_type: str) -> tuple[set[str], str]:
    ranking = rank(view, example, exc_type)
    if not ranking.hits:
        return set(), "no match"
    top = ranking.hits[0].raw
    firsts = {h.id for h in ranking.hits if abs(h.raw - top) < 1e-9}
    return firsts, f"ranked first instead: {', '.join(sorted(firsts))}"


def examples_rank_first(catalog: Catalog, view: CatalogView | None = None) -> list[Problem]:
    """Every example of an entry must match that entry and rank it first (ties allowed only
    between sites raising the identical template)."""
    if view is None:
        view = MemoryCatalog(catalog.entries)
    problems = []
    for e in catalog.entries:
        for example in e.examples:
            firsts, why = _first_ids(view, example, e.exception)
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
