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


def one_entry(template: str, exception: str = "ValueError", path: str = "pkg/mod.py"):
    """A derived entry of project `pkg` raising `template` at line 1 of `path`, in `f`."""
    from errexplain.models import Entry, Source, make_id

    return Entry(
        id=make_id("pkg", path, "f#1", template),
        project="pkg",
        exception=exception,
        template=template,
        source=Source("pkg", "1.0", path, 1, "f", None),
        derived=True,
    )


def lettered_entry(letter: str, template: str, exception: str = "ValueError"):
    """An entry of project `demo` raising `template` at `demo/<letter>.py:10`, its id the letter
    sixteen times (`"a" * 16`): small catalogs whose entries a test names by letter."""
    from errexplain.models import Entry, Source

    return Entry(
        id=letter * 16,
        project="demo",
        exception=exception,
        template=template,
        source=Source("demo", "1.0", f"demo/{letter}.py", 10, "f", None),
        kind="raise",
    )


def demo_entry(letter: str, exception: str, kind: str, template: str, where: str):
    """An entry of project `demo` of any kind (`raise`, `log`, ...) at `where` (`path:line`), in
    `f`, its id the letter sixteen times."""
    from errexplain.models import Entry, Source

    path, _, line = where.partition(":")
    return Entry(
        id=letter * 16,
        project="demo",
        exception=exception,
        kind=kind,
        template=template,
        source=Source("demo", "1.0", path, int(line), "f", None),
    )
