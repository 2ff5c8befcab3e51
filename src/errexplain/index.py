"""The compiled catalog index: one file, read without YAML, built once and cached.

Layout of an index file::

    b"ERRXIDX1" | 3 x uint64 little-endian (len main, len fuzzy, len store) | main | fuzzy | store

``main`` (marshal) holds one column per entry field needed to match (ids, types, templates,
paths, ...) and ``rare``: each identifiable template filed under its rarest literal word, so the
exact-match candidates of a message are the union of ``rare[w]`` over its words. ``fuzzy``
(marshal, loaded only when no exact match is found) is an inverted index of every literal word.
``store`` is one JSON record per entry (the prose), read by offset only for the entries shown.
"""

from __future__ import annotations

import json
import marshal
import math
import os
import struct
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .models import Entry, ExampleFix, Source
from .normalize import identifiable, template_words

MAGIC = b"ERRXIDX1"
FORMAT = 1
_HEAD = struct.Struct("<8sQQQ")


class IndexCorrupt(Exception):
    """The file is not a complete index of this format (it gets rebuilt)."""


def _record(entry: Entry) -> dict[str, Any]:
    fix = entry.example_fix
    return {
        "condition": entry.condition, "doc": entry.doc, "versions": entry.versions,
        "removed_in": entry.removed_in, "derived": entry.derived, "meaning": entry.meaning,
        "trigger": entry.trigger, "situations": entry.situations, "solutions": entry.solutions,
        "example_fix": fix.to_dict() if fix else None, "related": entry.related,
        "examples": entry.examples, "file": entry.catalog_file,
    }


def _file_words(entries: Sequence[Entry]) -> tuple[list[tuple[str, ...]], Counter[str]]:
    per_entry = [tuple(dict.fromkeys(template_words(e.template))) for e in entries]
    df: Counter[str] = Counter()
    for ws in per_entry:
        df.update(ws)
    return per_entry, df


def build_bytes(entries: Sequence[Entry], projects: dict[str, list[Any]], key: str) -> bytes:
    """Compile entries into the bytes of an index file."""
    per_entry, df = _file_words(entries)
    rare: dict[str, list[int]] = {}
    post: dict[str, list[int]] = {}
    generic: list[int] = []
    for i, ws in enumerate(per_entry):
        if not ws or not identifiable(entries[i].template):
            generic.append(i)
            continue
        best = min(ws, key=lambda w: (df[w], -len(w), w))
        rare.setdefault(best, []).append(i)
        for w in ws:
            post.setdefault(w, []).append(i)
    n = max(len(entries), 1)
    idf = {w: math.log(1 + n / c) for w, c in df.items()}
    store = bytearray()
    offs = []
    for e in entries:
        offs.append(len(store))
        store += json.dumps(_record(e), ensure_ascii=False, separators=(",", ":")).encode()
        store += b"\n"
    offs.append(len(store))
    main = marshal.dumps({
        "format": FORMAT, "key": key, "projects": projects,
        "ids": tuple(e.id for e in entries), "types": tuple(e.exception for e in entries),
        "bases": tuple(e.base for e in entries), "templates": tuple(e.template for e in entries),
        "paths": tuple(e.source.path for e in entries),
        "funcs": tuple(e.source.function for e in entries),
        "lines": tuple(e.source.line for e in entries),
        "projs": tuple(e.project for e in entries), "kinds": tuple(e.kind for e in entries),
        "curated": tuple(e.curated for e in entries), "offs": tuple(offs),
        "rare": {w: tuple(v) for w, v in rare.items()}, "generic": tuple(generic),
    })
    fuzzy = marshal.dumps({
        "post": {w: tuple(v) for w, v in post.items()}, "idf": idf,
        "wsum": tuple(sum(idf[w] for w in ws) for ws in per_entry),
    })
    return _HEAD.pack(MAGIC, len(main), len(fuzzy), len(store)) + main + fuzzy + bytes(store)


def write_atomic(path: Path, data: bytes) -> None:
    """Write a file so that readers see either the old or the whole new content."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with _suppress():
            os.unlink(tmp)
        raise


class _suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return True


@dataclass
class Index:
    """A loaded index. Entry prose is read from the store on demand."""

    main: dict[str, Any]
    _path: Path | None
    _blob: bytes | None
    _fuzzy_at: int
    _fuzzy_len: int
    _store_at: int
    _fuzzy: dict[str, Any] | None = None
    _cache: dict[int, Entry] = field(default_factory=dict)

    @classmethod
    def open(cls, path: Path) -> Index:
        with path.open("rb") as fh:
            head = fh.read(_HEAD.size)
            lm, lf, _ = cls._check_head(head, os.fstat(fh.fileno()).st_size)
            main = cls._loads(fh.read(lm))
        return cls(main, path, None, _HEAD.size + lm, lf, _HEAD.size + lm + lf)

    @classmethod
    def from_bytes(cls, data: bytes) -> Index:
        lm, lf, _ = cls._check_head(data[:_HEAD.size], len(data))
        main = cls._loads(data[_HEAD.size:_HEAD.size + lm])
        return cls(main, None, data, _HEAD.size + lm, lf, _HEAD.size + lm + lf)

    @staticmethod
    def _check_head(head: bytes, size: int) -> tuple[int, int, int]:
        if len(head) != _HEAD.size:
            raise IndexCorrupt("short header")
        magic, lm, lf, ls = _HEAD.unpack(head)
        if magic != MAGIC or _HEAD.size + lm + lf + ls != size:
            raise IndexCorrupt("bad magic or size")
        return lm, lf, ls

    @staticmethod
    def _loads(data: bytes) -> dict[str, Any]:
        try:
            main = marshal.loads(data)
        except (EOFError, ValueError, TypeError) as exc:
            raise IndexCorrupt(str(exc)) from None
        if not isinstance(main, dict) or main.get("format") != FORMAT:
            raise IndexCorrupt("unknown format")
        return main

    def _read(self, at: int, length: int) -> bytes:
        if self._blob is not None:
            return self._blob[at:at + length]
        assert self._path is not None
        with self._path.open("rb") as fh:
            fh.seek(at)
            data = fh.read(length)
        if len(data) != length:
            raise IndexCorrupt(f"{self._path} changed while in use")
        return data

    @property
    def key(self) -> str:
        return str(self.main["key"])

    def __len__(self) -> int:
        return len(self.main["ids"])

    @property
    def fuzzy(self) -> dict[str, Any]:
        if self._fuzzy is None:
            self._fuzzy = marshal.loads(self._read(self._fuzzy_at, self._fuzzy_len))
        return self._fuzzy

    def position(self, entry_id: str) -> int | None:
        """Position of an id: a C-speed tuple scan, cheaper than building a dict for the few
        lookups (related ids) of a normal run."""
        try:
            return int(self.main["ids"].index(entry_id))
        except ValueError:
            return None

    def entry(self, i: int) -> Entry:
        """The whole entry at position i (prose read from the store)."""
        if i not in self._cache:
            self._cache[i] = self._make_entry(i)
        return self._cache[i]

    def _make_entry(self, i: int) -> Entry:
        m = self.main
        offs = m["offs"]
        rec = json.loads(self._read(self._store_at + offs[i], offs[i + 1] - offs[i]))
        project = m["projs"][i]
        version, link, prefix = m["projects"].get(project, (None, None, ""))
        path, line = m["paths"][i], m["lines"][i]
        url = link.format(version=version, prefix=prefix, path=path, line=line) if (
            link and path and line) else None
        fix = rec["example_fix"]
        return Entry(
            id=m["ids"][i], project=project, exception=m["types"][i], template=m["templates"][i],
            source=Source(project, version, path, line, m["funcs"][i], url), base=m["bases"][i],
            kind=m["kinds"][i], condition=rec["condition"], doc=rec["doc"],
            versions=tuple(rec["versions"]), derived=rec["derived"], meaning=rec["meaning"],
            trigger=rec["trigger"], situations=tuple(rec["situations"]),
            solutions=tuple(rec["solutions"]),
            example_fix=ExampleFix(**fix) if fix else None, related=tuple(rec["related"]),
            examples=tuple(rec["examples"]), removed_in=rec["removed_in"],
            catalog_file=rec["file"],
        )
