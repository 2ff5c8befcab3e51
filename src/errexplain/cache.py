"""Find the compiled index: prebuilt in the wheel, or built once into a per-user cache.

Source checkouts and user catalogs get an index built on first use, keyed by errexplain's
version and the size and mtime of every catalog file, written atomically (two processes building
at once both succeed), rebuilt when stale or corrupt, and kept in memory when the cache directory
is not writable.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from . import __version__
from .index import Index, IndexCorrupt, build_bytes, write_atomic

CACHE_ENV = "ERREXPLAIN_CACHE_DIR"
PREBUILT = "catalog.idx"


def _package_dir() -> Path:
    return Path(__file__).resolve().parent


def prebuilt_path() -> Path | None:
    """The index shipped inside a wheel (built from the bundled catalog at build time)."""
    path = _package_dir() / "_index" / PREBUILT
    return path if path.is_file() and (_package_dir() / "_catalog").is_dir() else None


def cache_dir() -> Path:
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("errexplain", appauthor=False))


def _fingerprint(top: str, out: list[str]) -> None:
    """Append `relpath size mtime` of every YAML file under top (sorted, no pathlib: this runs
    on every start from a source checkout, so it stays a plain scandir walk)."""
    stack = [top]
    while stack:
        d = stack.pop()
        with os.scandir(d) as it:
            entries = sorted(it, key=lambda e: e.name)
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                stack.append(e.path)
            elif e.name.endswith((".yaml", ".yml")):
                st = e.stat()
                out.append(f"{e.path[len(top):]}\0{st.st_size}\0{st.st_mtime_ns}")


def catalog_key(dirs: Iterable[Path]) -> str:
    """A hash of errexplain's version and every catalog file's path, size and mtime."""
    parts = [f"errexplain {__version__}"]
    for root in dirs:
        top = os.path.realpath(root)
        parts.append(f"dir {top}")
        _fingerprint(top, parts)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def build(dirs: Iterable[Path], key: str) -> bytes:
    """Load and validate the YAML catalogs and compile them into index bytes."""
    from .catalog import load_catalog

    catalog = load_catalog(dirs)
    projects = {p.name: [p.version, p.link, p.path_prefix] for p in catalog.projects}
    return build_bytes(catalog.entries, projects, key)


def open_index(dirs: tuple[Path, ...], *, use_prebuilt: bool) -> Index:
    """The index for these catalog dirs (bundled first), from the wheel, the cache or built."""
    prebuilt = prebuilt_path() if use_prebuilt else None
    if prebuilt is not None:
        try:
            return Index.open(prebuilt)
        except IndexCorrupt:
            pass
    key = catalog_key(dirs)
    path = cache_dir() / f"index-{key}.idx"
    try:
        index = Index.open(path)
        if index.key == key:
            return index
    except (OSError, IndexCorrupt):
        pass
    data = build(dirs, key)
    try:
        write_atomic(path, data)
    except OSError:
        return Index.from_bytes(data)
    return Index.from_bytes(data)


def load(extra_dirs: Iterable[str] = ()) -> Index:
    """The index of the bundled catalog merged with user catalogs (env var, then options)."""
    from .catalog import bundled_dir, user_dirs

    users = user_dirs(extra_dirs)
    if not users and prebuilt_path() is not None:
        return open_index((), use_prebuilt=True)
    return open_index((bundled_dir(), *users), use_prebuilt=False)
