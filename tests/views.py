"""Catalog views for tests that must hold for both kinds."""

from __future__ import annotations


def catalog_view(kind: str, entries, projects=()):
    """The same entries as a catalog view of either kind: `memory` (MemoryCatalog) or `index`
    (the built index read back): tests that must hold for both parametrize over the two."""
    from errexplain.catalog.index import Index
    from errexplain.catalog.index_build import build_bytes
    from errexplain.catalog.memory import MemoryCatalog

    if kind == "memory":
        return MemoryCatalog(entries, projects=list(projects))
    return Index.from_bytes(build_bytes(entries, list(projects), "k"))
