"""The index of a set of catalog directories: prebuilt in the wheel, or built once into a
per-user cache.

A wheel ships `errexplain/_index/catalog.idx`, built from the bundled catalog at build time:
an installed errexplain opens it and checks nothing else. A source checkout (or any user
catalog) gets an index built on first use into the per-user cache, keyed by errexplain's version
and the size and mtime of every catalog file, written atomically (two processes building at once
both succeed), rebuilt when stale or corrupt, and kept in memory when the cache directory is not
writable.

This module runs on every start, so it sticks to `os.path` and `zlib` (no pathlib, hashlib,
importlib.resources or platformdirs on the common path).
"""

from __future__ import annotations

import os
import zlib

from errexplain._startup import TYPE_CHECKING, write_atomic
from errexplain._version import __version__
from errexplain.catalog.index import Index, IndexCorrupt, build_bytes
from errexplain.catalog.locate import (
    CATALOG_ENV,
    cache_dir,
    catalog_dirs,
    prebuilt_index,
)

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path


def _fingerprint(top: str) -> tuple[int, int]:
    """(combined hash, count) of the path, size and mtime of every YAML file under top. The
    combination is a sum, so the walk needs no sorting; this runs on every start from a source
    checkout, where the stat calls are most of its cost."""
    acc = count = 0
    stack = [top]
    while stack:
        with os.scandir(stack.pop()) as it:
            for e in it:
                if e.name.endswith((".yaml", ".yml")):
                    st = e.stat()
                    acc += (
                        (zlib.crc32(e.path.encode()) * 0x9E3779B1)
                        ^ st.st_mtime_ns
                        ^ (st.st_size << 20)
                    )
                    count += 1
                elif e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
    return acc, count


def catalog_key(dirs: Iterable[str | Path]) -> str:
    """A fingerprint of errexplain's version and every catalog file's path, size and mtime
    (a staleness check, not a security boundary)."""
    parts = [f"errexplain {__version__}"]
    for root in dirs:
        top = os.path.realpath(root)
        acc, count = _fingerprint(top)
        parts.append(f"{top}\0{acc:x}\0{count}")
    data = "\n".join(parts).encode()
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


def build(dirs: Iterable[str | Path], key: str) -> bytes:
    """Load and validate the YAML catalogs and compile them into index bytes."""
    from errexplain.catalog.load import load_catalog

    catalog = load_catalog(dirs)
    return build_bytes(catalog.entries, catalog.projects, key, catalog.release_facts)


def open_index(dirs: tuple[str, ...]) -> Index:
    """The index for these catalog dirs, from the cache or built (and cached if possible)."""
    key = catalog_key(dirs)
    path = os.path.join(cache_dir(), f"index-{key}.idx")
    try:
        index = Index.open(path)
        if index.key == key:
            return index
    except (OSError, IndexCorrupt):
        pass
    data = build(dirs, key)
    from contextlib import suppress

    with suppress(OSError):  # not writable: serve this run from memory
        write_atomic(path, data)
        _prune(os.path.dirname(path), keep=path)
    return Index.from_bytes(data)


KEEP_INDEXES = 3
"""Index files kept in the cache (the newest); older ones are stale catalog versions."""


def _prune(directory: str, keep: str) -> None:
    """Remove all but the newest KEEP_INDEXES index files (never the one just written)."""
    with os.scandir(directory) as it:
        found = [e for e in it if e.name.startswith("index-") and e.name.endswith(".idx")]
    found.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
    for e in found[KEEP_INDEXES:]:
        if e.path != keep:
            os.unlink(e.path)


def load(extra_dirs: tuple[str, ...] = ()) -> Index:
    """The index of the bundled catalog merged with user catalogs (env var, then options)."""
    prebuilt = None if extra_dirs or os.environ.get(CATALOG_ENV) else prebuilt_index()
    if prebuilt is not None:
        try:
            return Index.open(prebuilt)
        except IndexCorrupt:
            pass
    return open_index(catalog_dirs(extra_dirs))
