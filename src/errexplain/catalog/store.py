"""The index of a set of catalog directories: prebuilt in the wheel, or built once into a
per-user cache.

A wheel ships `errexplain/_index/catalog.idx`, built from the bundled catalog at build time:
an installed errexplain opens it and checks nothing else. A source checkout (or any user
catalog) gets an index built on first use into the per-user cache, keyed by errexplain's version
and the size and mtime of every catalog file, written atomically, rebuilt when stale or corrupt
(every part of an index is checksummed: a mismatch found at any read rebuilds it, see
:mod:`.index`), and kept in memory when the cache directory is not writable. One process
builds at a time, under a file lock in the cache directory (``fcntl.flock`` on POSIX): the others
wait for it and then read its index, or after LOCK_WAIT seconds build their own in memory.

This module runs on every start, so it sticks to `os.path` and `zlib` (no pathlib, hashlib,
importlib.resources or platformdirs on the common path).
"""

from __future__ import annotations

import os
import zlib

from errexplain._startup import TYPE_CHECKING, write_atomic
from errexplain._version import __version__
from errexplain.catalog.index import Index, IndexCorrupt
from errexplain.catalog.locate import (
    CATALOG_ENV,
    cache_dir,
    catalog_dirs,
    prebuilt_index,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from pathlib import Path
    from typing import Any


def _fingerprint(top: str) -> tuple[int, int]:
    """(combined hash, count) of the path, size and mtime of every YAML file under top. The
    combination is a sum, so the walk needs no sorting; this runs on every start from a source
    checkout, where the stat calls are most of its cost."""
    try:
        return _walk_fingerprint(top)
    except OSError as exc:  # an unreadable folder or a symlink loop: a bad catalog
        from errexplain.errors import CatalogError

        raise CatalogError(
            f"{exc.filename or top}: cannot read ({exc.strerror})",
            hint="make the catalog folder readable, or remove what cannot be read",
        ) from None


def _walk_fingerprint(top: str) -> tuple[int, int]:
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


def build(dirs: Iterable[str | Path], key: str, parallel: bool | None = None) -> bytes:
    """Load and validate the YAML catalogs and compile them into index bytes: by a process per
    core when there are many files or entries, or as `parallel` says (True: always, False:
    never; the bytes are the same either way, whether the parts came from the cache or not)."""
    from errexplain.catalog.index_build import build_bytes
    from errexplain.catalog.load import load_catalog

    catalog = load_catalog(dirs, parallel)
    return build_bytes(
        catalog.entries,
        catalog.projects,
        key,
        catalog.release_facts,
        catalog.template_facts,
        parallel,
    )


def _cached(path: str, key: str, repair: Callable[[], bytes]) -> Index | None:
    try:
        index = Index.open(path, repair)
    except (OSError, IndexCorrupt):
        return None
    return index if index.key == key else None


def open_index(dirs: tuple[str, ...]) -> Index:
    """The index for these catalog dirs, from the cache or built (and cached if possible)."""
    key = catalog_key(dirs)
    directory = cache_dir()
    path = os.path.join(directory, f"index-{key}.idx")

    def repair() -> bytes:  # a checksum mismatch while reading: rebuild, rewrite
        return _build_cached(dirs, key, path, force=True)

    index = _cached(path, key, repair)
    if index is not None:
        return index
    return Index.from_bytes(_build_cached(dirs, key, path), repair)


def _build_cached(dirs: tuple[str, ...], key: str, path: str, force: bool = False) -> bytes:
    """Build the index under the cache dir's lock and write it there; a process that waited
    for the lock reads what the holder wrote instead of building again."""
    from contextlib import suppress

    directory = os.path.dirname(path)
    with build_lock(directory, name=f"index-{key}.lock") as locked:
        if locked and not force:
            with suppress(OSError, IndexCorrupt):
                with open(path, "rb") as fh:
                    data = fh.read()
                if Index.from_bytes(data).key == key:  # the rest is verified as it is read
                    return data
        data = build(dirs, key)
        if locked:
            with suppress(OSError):  # not writable: serve this run from memory
                write_atomic(path, data)
                _prune(directory, keep=path)
    return data


LOCK_WAIT = 120.0
"""Seconds a process waits for another's index build before building its own in memory."""


class build_lock:  # used like a function: `with build_lock(dir) as locked:`
    """Hold a build lock of the cache dir (``as`` gives True), or go on without it (False): the
    directory cannot hold a lock file, or another builder held it for `wait` seconds. There is
    one lock per catalog key (`name`): a build of another catalog never makes this one wait. Where
    there is no fcntl (Windows) writes are only atomic (True). (A class, not
    ``contextlib.contextmanager``: contextlib's imports cost the start-up path.)"""

    def __init__(self, directory: str, wait: float | None = None, name: str = "index.lock") -> None:
        self.directory, self.fd, self.name = directory, -1, name
        self.wait = LOCK_WAIT if wait is None else wait

    def __enter__(self) -> bool:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            return True
        try:
            os.makedirs(self.directory, mode=0o700, exist_ok=True)
            path = os.path.join(self.directory, self.name)
            self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return False
        return _acquire(self.fd, fcntl, self.wait)

    def __exit__(self, *exc: object) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # releases the lock
            self.fd = -1


def _acquire(fd: int, fcntl: Any, wait: float) -> bool:
    import time

    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)


KEEP_INDEXES = 3
"""Index files kept in the cache (the newest); older ones are stale catalog versions."""
STALE_TEMP = 600.0
"""Seconds after which a temporary file left by a killed writer is removed."""


def _prune(directory: str, keep: str) -> None:
    """Remove all but the newest KEEP_INDEXES index files (never the one just written), and
    temporary files of writers killed mid-write (kill -9 left them for good)."""
    import time

    with os.scandir(directory) as it:
        entries = list(it)
    found = [e for e in entries if e.name.startswith("index-") and e.name.endswith(".idx")]
    found.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
    for e in found[KEEP_INDEXES:]:
        if e.path != keep:
            os.unlink(e.path)
    now = time.time()
    for e in entries:
        temp = e.name.startswith(".tmp-") and e.name.endswith(".part")
        lock = e.name.startswith("index-") and e.name.endswith(".lock")  # of a pruned catalog
        if lock and os.path.exists(e.path[: -len(".lock")] + ".idx"):
            continue
        if (temp or lock or e.name.startswith(".idx-")) and now - e.stat().st_mtime > STALE_TEMP:
            os.unlink(e.path)


def load(extra_dirs: tuple[str, ...] = ()) -> Index:
    """The index of the bundled catalog merged with user catalogs (env var, then options)."""
    prebuilt = None if extra_dirs or os.environ.get(CATALOG_ENV) else prebuilt_index()
    if prebuilt is not None:
        try:
            return Index.open(prebuilt, lambda: build(catalog_dirs(), f"bundled-{__version__}"))
        except IndexCorrupt:
            pass
    return open_index(catalog_dirs(extra_dirs))
