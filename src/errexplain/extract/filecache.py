"""Walk results by file content: a file whose bytes were seen before is not walked again.

The walk of one file (:func:`~errexplain.extract.visitor.visit_source`) depends only on its
bytes and its path, and the path only names the file in the records. So results are kept by
the sha256 of the bytes, in memory for a run and on disk (one SQLite file per extractor
version, under the user cache dir or ``--cache DIR``), and re-labelled when the same bytes
come back under another path. The on-disk file is named by a hash of the walker's own source
and the Python version (the ``ast`` differs between versions), so a changed walker starts a
fresh cache.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from errexplain._startup import astuple, replace, user_cache_dir
from errexplain.extract import cpp, helpers, logs, messages, records, scope, visitor
from errexplain.extract.records import CallInfo, ClassInfo, FileResult, HelperInfo, Site
from errexplain.extract.scan import scan
from errexplain.extract.sources import SourceFile
from errexplain.extract.visitor import module_name
from errexplain.match import normalize, template

Progress = Callable[[int, int], None]


WALKER_MODULES = (visitor, cpp, messages, scope, records, helpers, logs, template, normalize)
"""The modules whose code decides what the walk of a file records (every errexplain module the
visitor imports, directly or not, but the start-up helpers)."""


def walker_tag() -> str:
    """A short hash of the walker's source (every module whose code decides what a walk
    records: the visitor, the message reader, the log gate, the template compiler) and the
    Python version."""
    digest = hashlib.sha256(f"{sys.version_info[0]}.{sys.version_info[1]}".encode())
    for module in WALKER_MODULES:
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


def default_cache_dir() -> Path:
    env = os.environ.get("ERREXPLAIN_CACHE_DIR")
    return Path(env) if env else Path(user_cache_dir("errexplain"))


def _encode(result: FileResult) -> bytes:
    return marshal.dumps(
        (
            result.path,
            result.error,
            tuple(astuple(s) for s in result.sites),
            tuple(astuple(c) for c in result.classes),
            tuple(astuple(h) for h in result.helpers),
            tuple(astuple(c) for c in result.calls),
            result.validators,
            result.returned_calls,
        )
    )


def _decode(data: bytes) -> FileResult:
    path, error, sites, classes, helpers, calls, validators, returned = marshal.loads(data)
    return FileResult(
        path,
        tuple(Site(*s) for s in sites),
        tuple(ClassInfo(*c) for c in classes),
        error,
        tuple(HelperInfo(*h) for h in helpers),
        tuple(CallInfo(*c) for c in calls),
        tuple(validators),
        tuple(tuple(pair) for pair in returned),
    )


def relabel(result: FileResult, path: str) -> FileResult:
    """The same walk result for the same bytes found at ``path``."""
    if result.path == path:
        return result
    old = f" at {result.path}:"
    module = module_name(path)
    return FileResult(
        path,
        tuple(
            replace(s, path=path, via=s.via and s.via.replace(old, f" at {path}:"))
            for s in result.sites
        ),
        tuple(replace(c, path=path) for c in result.classes),
        result.error,
        tuple(replace(h, path=path, module=module) for h in result.helpers),
        tuple(replace(c, path=path) for c in result.calls),
        result.validators,
        result.returned_calls,
    )


class FileCache:
    """Walk results by content hash: in memory, and on disk unless ``directory`` is None."""

    def __init__(self, directory: Path | None) -> None:
        self.memory: dict[bytes, FileResult] = {}
        self.hits = self.disk_hits = self.walked = 0
        self._db: sqlite3.Connection | None = None
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(directory / f"extract-{walker_tag()}.sqlite")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS walks (hash BLOB PRIMARY KEY, result BLOB NOT NULL)"
            )

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _from_disk(self, key: bytes) -> FileResult | None:
        if self._db is None:
            return None
        row = self._db.execute("SELECT result FROM walks WHERE hash = ?", (key,)).fetchone()
        return None if row is None else _decode(row[0])

    def walk(
        self, files: Sequence[SourceFile], progress: Progress | None = None
    ) -> list[FileResult]:
        """The walk result of every file, in input order; only unseen bytes are walked."""
        keys = [hashlib.sha256(f.data).digest() for f in files]
        out: list[FileResult | None] = [None] * len(files)
        missing: dict[bytes, int] = {}
        for i, (file, key) in enumerate(zip(files, keys, strict=True)):
            found = self.memory.get(key)
            if found is None:
                found = self._from_disk(key)
                if found is not None:
                    self.memory[key] = found
                    self.disk_hits += 1
            else:
                self.hits += 1
            if found is not None:
                out[i] = relabel(found, file.path)
            elif key not in missing:
                missing[key] = i
        todo = [files[i] for i in missing.values()]
        walked = scan(todo, progress)
        self.walked += len(walked)
        for key, result in zip(missing, walked, strict=True):
            self.memory[key] = result
        if self._db is not None and walked:
            with self._db:
                self._db.executemany(
                    "INSERT OR REPLACE INTO walks VALUES (?, ?)",
                    [(k, _encode(r)) for k, r in zip(missing, walked, strict=True)],
                )
        for i, (file, key) in enumerate(zip(files, keys, strict=True)):
            if out[i] is None:
                out[i] = relabel(self.memory[key], file.path)
        # Keep this call's files only: the next release shares most of them (memory stays
        # bounded over many releases; older ones come back from disk).
        self.memory = {k: self.memory[k] for k in keys}
        return [r for r in out if r is not None]
