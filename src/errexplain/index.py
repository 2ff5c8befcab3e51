"""The compiled catalog index: one file, read without YAML, built once and cached.

A normal run reads only what one message needs, so it stays fast at 100k templates::

    b"ERRXIDX3" | 7 x uint64 little-endian: the lengths of
    meta | offs | slots | rows | ids | fuzzy | store

* ``meta`` (marshal, small): format, key, projects, the number of rows and of hash slots, and
  the builtin bases of custom exception classes.
* ``offs``: uint32 array, where each row starts inside ``rows`` (n + 1 values), and then where
  each hash slot starts inside ``slots`` (slot count + 1 values).
* ``slots``: every identifiable template is filed under its rarest literal word and the rows
  of one word are stored contiguously. A word's ``(word, first_row, count)`` lives in hash slot
  ``crc32(word) % slot_count`` (one marshal tuple per slot). The exact-match candidates of a
  message are the buckets of its words: a few small reads, nothing loaded up front.
* ``rows``: one marshal blob per entry: the fields matching needs (see ``R_*``).
* ``ids`` (marshal, lazy): id -> row, for ``show``/``related``.
* ``fuzzy`` (marshal, lazy): an inverted index of all literal words with their idf, loaded only
  when no exact match is found.
* ``store``: one marshal record per entry (the prose), read by offset for the entries shown.

Only the standard library is used; ``tempfile`` is imported when a file is written.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib

from .models import TYPE_CHECKING, Entry, ExampleFix, Source
from .normalize import identifiable, template_words

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    Row = tuple[Any, ...]
else:
    Row = tuple

MAGIC = b"ERRXIDX3"
FORMAT = 3
_NBLOBS = 7
_HEAD_SIZE = len(MAGIC) + 8 * _NBLOBS

# Row fields (a row is a plain tuple: cheap to unmarshal).
R_POS, R_ID, R_TYPE, R_BASE, R_TEMPLATE, R_PATH, R_FUNC, R_LINE, R_PROJ, R_KIND = range(10)
R_CURATED, R_STORE, R_STORE_LEN, R_LITERAL, R_CONDITION = range(10, 15)


class IndexCorrupt(Exception):
    """The file is not a complete index of this format (it gets rebuilt)."""


def _record(entry: Entry, brief: dict[str, tuple[str, str]]) -> tuple[Any, ...]:
    """The prose of an entry, with its related entries resolved to (id, template, type)."""
    fix = entry.example_fix
    related = tuple((rid, *brief[rid]) for rid in entry.related if rid in brief)
    return (entry.condition, entry.doc, entry.versions, entry.removed_in, entry.derived,
            entry.meaning, entry.trigger, entry.situations, entry.solutions,
            (fix.before, fix.after, fix.language) if fix else None, entry.related,
            entry.examples, entry.catalog_file, related)


def _bucket_order(entries: Sequence[Entry]) -> tuple[list[int], dict[str, Any],
                                                      list[tuple[str, ...]]]:
    """Order entries by their rarest word's bucket; return (order, rare, words per entry).

    ``rare[word] = (first_row, count, seconds)``: ``seconds`` holds each member's second
    rarest word ("" if it has one word only). A member whose second word is not in the
    message cannot match, so it is skipped without being read: buckets of common words stay
    cheap at 100k templates.
    """
    per_entry = [tuple(dict.fromkeys(template_words(e.template))) for e in entries]
    df: dict[str, int] = {}
    for ws in per_entry:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    buckets: dict[str, list[int]] = {}
    generic: list[int] = []
    for i, ws in enumerate(per_entry):
        if ws and identifiable(entries[i].template):
            best = min(ws, key=lambda w: (df[w], -len(w), w))
            buckets.setdefault(best, []).append(i)
        else:
            generic.append(i)
    order: list[int] = []
    rare: dict[str, Any] = {}
    for word in sorted(buckets):
        members = sorted(buckets[word], key=lambda i: entries[i].id)
        seconds = tuple(_second(per_entry[i], word, df) for i in members)
        rare[word] = (len(order), len(members), seconds)
        order.extend(members)
    order.extend(sorted(generic, key=lambda i: entries[i].id))
    return order, rare, per_entry


def _second(words: tuple[str, ...], first: str, df: dict[str, int]) -> str:
    rest = [w for w in words if w != first]
    return min(rest, key=lambda w: (df[w], -len(w), w)) if rest else ""


def _fuzzy_blob(order: list[int], per_entry: list[tuple[str, ...]],
                entries: Sequence[Entry]) -> bytes:
    post: dict[str, list[int]] = {}
    df: dict[str, int] = {}
    for pos, i in enumerate(order):
        if not identifiable(entries[i].template):
            continue
        for w in per_entry[i]:
            post.setdefault(w, []).append(pos)
            df[w] = df.get(w, 0) + 1
    import math

    n = max(len(entries), 1)
    idf = {w: math.log(1 + n / c) for w, c in df.items()}
    wsum = tuple(sum(idf.get(w, 0.0) for w in per_entry[i]) for i in order)
    return marshal.dumps({"post": {w: tuple(v) for w, v in post.items()}, "idf": idf,
                          "wsum": wsum})


def build_bytes(entries: Sequence[Entry], projects: dict[str, list[Any]], key: str) -> bytes:
    """Compile entries into the bytes of an index file."""
    from .template import compile_template

    order, rare, per_entry = _bucket_order(entries)
    brief = {e.id: (e.template, e.exception) for e in entries}
    bases = {e.exception: e.base for e in entries if e.base and e.base != e.exception}
    rows, store = bytearray(), bytearray()
    row_offs = []
    for pos, i in enumerate(order):
        e = entries[i]
        rec = marshal.dumps(_record(e, brief))
        row = (pos, e.id, e.exception, e.base, e.template, e.source.path, e.source.function,
               e.source.line, e.project, e.kind, e.curated, len(store), len(rec),
               compile_template(e.template).literal_len, e.condition)
        store += rec
        row_offs.append(len(rows))
        rows += marshal.dumps(row)
    row_offs.append(len(rows))
    nslots, slots, slot_offs = _slots(rare)
    meta = marshal.dumps({"format": FORMAT, "key": key, "projects": projects, "n": len(order),
                          "nslots": nslots, "bases": bases})
    offs = b"".join(v.to_bytes(4, "little") for v in (*row_offs, *slot_offs))
    ids = marshal.dumps({entries[i].id: pos for pos, i in enumerate(order)})
    fuzzy = _fuzzy_blob(order, per_entry, entries)
    blobs = (meta, offs, slots, bytes(rows), ids, fuzzy, bytes(store))
    head = MAGIC + b"".join(len(b).to_bytes(8, "little") for b in blobs)
    return b"".join((head, *blobs))


def _slot(word: str, nslots: int) -> int:
    return zlib.crc32(word.encode()) % nslots


def _slots(rare: dict[str, Any]) -> tuple[int, bytes, list[int]]:
    """Hash the rare-word map into slots: (slot count, slot blob, slot offsets)."""
    nslots = max(1, len(rare))
    table: list[list[tuple[Any, ...]]] = [[] for _ in range(nslots)]
    for word, (first, count, seconds) in rare.items():
        table[_slot(word, nslots)].append((word, first, count, seconds))
    blob, offs = bytearray(), []
    for items in table:
        offs.append(len(blob))
        if items:
            blob += marshal.dumps(tuple(sorted(items)))
    offs.append(len(blob))
    return nslots, bytes(blob), offs


def write_atomic(path: str, data: bytes) -> None:
    """Write a file so that readers see either the old or the whole new content."""
    import tempfile

    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".idx-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        from contextlib import suppress

        with suppress(OSError):
            os.unlink(tmp)
        raise


class Index:
    """A loaded index. Rows, ids, the fuzzy index and prose are read on demand."""

    def __init__(self, meta: dict[str, Any], offsets: tuple[int, ...],
                 reader: _Reader) -> None:
        self.meta = meta
        (self._at_offs, self._at_slots, self._at_rows, self._at_ids, self._at_fuzzy,
         self._at_store, self._end) = offsets
        self._reader = reader
        self._offs: Sequence[int] | None = None
        self._slot_cache: dict[int, tuple[tuple[Any, ...], ...]] = {}
        self._rows: dict[int, Row] = {}
        self._entries: dict[int, Entry] = {}
        self._records: dict[int, tuple[Any, ...]] = {}
        self._fuzzy: dict[str, Any] | None = None
        self._ids: dict[str, int] | None = None
        self._table: dict[str, tuple[Any, ...]] | None = None

    @classmethod
    def open(cls, path: str) -> Index:
        reader = _FileReader(path)
        try:
            lens = _check_head(reader.read(0, _HEAD_SIZE), reader.size)
            meta = _loads_meta(reader.read(_HEAD_SIZE, lens[0]))
        except BaseException:
            reader.close()
            raise
        return cls(meta, _blob_ends(lens), reader)

    @classmethod
    def from_bytes(cls, data: bytes) -> Index:
        lens = _check_head(data[:_HEAD_SIZE], len(data))
        meta = _loads_meta(data[_HEAD_SIZE:_HEAD_SIZE + lens[0]])
        return cls(meta, _blob_ends(lens), _BytesReader(data))

    @property
    def key(self) -> str:
        return str(self.meta["key"])

    def __len__(self) -> int:
        return int(self.meta["n"])

    @property
    def _offsets(self) -> Sequence[int]:
        """Row offsets then slot offsets, as one uint32 array read on first use."""
        if self._offs is None:
            raw = self._reader.read(self._at_offs, self._at_slots - self._at_offs)
            if sys.byteorder == "little":
                self._offs = memoryview(raw).cast("I")
            else:  # pragma: no cover - big-endian hosts
                self._offs = [int.from_bytes(raw[i:i + 4], "little")
                              for i in range(0, len(raw), 4)]
        return self._offs

    def _load_rows(self, first: int, count: int, keep: Sequence[bool] | None = None
                   ) -> list[Row]:
        offs = self._offsets
        base = offs[first]
        blob = self._reader.read(self._at_rows + base, offs[first + count] - base)
        out = []
        for k, pos in enumerate(range(first, first + count)):
            if keep is not None and not keep[k]:
                continue
            row = self._rows.get(pos)
            if row is None:
                row = marshal.loads(blob[offs[pos] - base:offs[pos + 1] - base])
                self._rows[pos] = row
            out.append(row)
        return out

    def bucket(self, word: str, present: set[str] | frozenset[str] | None = None) -> list[Row]:
        """The rows filed under a word (the exact-match candidates it brings); with `present`
        (the message's words), only rows whose second rarest word is among them."""
        for w, first, count, seconds in self._slot_items(_slot(word, self.meta["nslots"])):
            if w == word:
                keep = None if present is None else [not s or s in present for s in seconds]
                return self._load_rows(first, count, keep)
        return []

    def _slot_items(self, slot: int) -> tuple[tuple[Any, ...], ...]:
        items = self._slot_cache.get(slot)
        if items is None:
            k = len(self) + 1 + slot
            start, end = self._offsets[k], self._offsets[k + 1]
            items = marshal.loads(self._reader.read(self._at_slots + start, end - start)) if (
                end > start) else ()
            self._slot_cache[slot] = items
        return items

    def row(self, pos: int) -> Row:
        cached = self._rows.get(pos)
        return cached if cached is not None else self._load_rows(pos, 1)[0]

    def rows(self) -> list[Row]:
        """Every row (for list, stats and search; not used on the explain path)."""
        return self._load_rows(0, len(self))

    @property
    def table(self) -> dict[str, tuple[Any, ...]]:
        """Columns over all rows: ids, types, bases, templates, paths, funcs, lines, projs,
        kinds, curated."""
        if self._table is None:
            rows = self.rows()
            names = ("ids", "types", "bases", "templates", "paths", "funcs", "lines", "projs",
                     "kinds", "curated")
            self._table = {n: tuple(r[k + 1] for r in rows) for k, n in enumerate(names)}
        return self._table

    @property
    def fuzzy(self) -> dict[str, Any]:
        if self._fuzzy is None:
            self._fuzzy = marshal.loads(
                self._reader.read(self._at_fuzzy, self._at_store - self._at_fuzzy))
        return self._fuzzy

    def position(self, entry_id: str) -> int | None:
        if self._ids is None:
            self._ids = marshal.loads(
                self._reader.read(self._at_ids, self._at_fuzzy - self._at_ids))
        return self._ids.get(entry_id)

    def entry(self, pos: int) -> Entry:
        """The whole entry at a row position (prose read from the store)."""
        if pos not in self._entries:
            self._entries[pos] = self._make_entry(self.row(pos))
        return self._entries[pos]

    def known_base(self, exc_type: str) -> str | None:
        """The builtin base the catalog records for a custom exception class, if any."""
        base = self.meta["bases"].get(exc_type)
        return str(base) if base else None

    def related(self, pos: int) -> tuple[tuple[str, str, str], ...]:
        """(id, template, exception type) of the entries related to the one at pos."""
        return self._record(self.row(pos))[13]  # type: ignore[no-any-return]

    def _record(self, r: Row) -> tuple[Any, ...]:
        """The prose record of a row, read once (entry() and related() both need it)."""
        rec = self._records.get(r[R_POS])
        if rec is None:
            rec = marshal.loads(self._reader.read(self._at_store + r[R_STORE], r[R_STORE_LEN]))
            self._records[r[R_POS]] = rec
        return rec

    def _make_entry(self, r: Row) -> Entry:
        (condition, doc, versions, removed_in, derived, meaning, trigger, situations,
         solutions, fix, related, examples, catalog_file, _) = self._record(r)
        project = r[R_PROJ]
        version, link, prefix = self.meta["projects"].get(project, (None, None, ""))
        path, line = r[R_PATH], r[R_LINE]
        url = link.format(version=version, prefix=prefix, path=path, line=line) if (
            link and path and line) else None
        return Entry(
            id=r[R_ID], project=project, exception=r[R_TYPE], template=r[R_TEMPLATE],
            source=Source(project, version, path, line, r[R_FUNC], url), base=r[R_BASE],
            kind=r[R_KIND], condition=condition, doc=doc, versions=versions, derived=derived,
            meaning=meaning, trigger=trigger, situations=situations, solutions=solutions,
            example_fix=ExampleFix(*fix) if fix else None, related=related,
            examples=examples, removed_in=removed_in, catalog_file=catalog_file,
        )


def _check_head(head: bytes, size: int) -> tuple[int, ...]:
    if len(head) != _HEAD_SIZE or head[:len(MAGIC)] != MAGIC:
        raise IndexCorrupt("not an index of this format")
    lens = tuple(int.from_bytes(head[i:i + 8], "little")
                 for i in range(len(MAGIC), _HEAD_SIZE, 8))
    if _HEAD_SIZE + sum(lens) != size:
        raise IndexCorrupt("truncated or padded index")
    return lens


def _blob_ends(lens: Iterable[int]) -> tuple[int, ...]:
    """Where each blob ends (= where the next starts), meta first."""
    out, at = [], _HEAD_SIZE
    for n in lens:
        at += n
        out.append(at)
    return tuple(out)


def _loads_meta(data: bytes) -> dict[str, Any]:
    try:
        meta = marshal.loads(data)
    except (EOFError, ValueError, TypeError) as exc:
        raise IndexCorrupt(str(exc)) from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise IndexCorrupt("unknown format")
    return meta


class _BytesReader:
    def __init__(self, data: bytes) -> None:
        self._data = data
        self.size = len(data)

    def read(self, at: int, length: int) -> bytes:
        return self._data[at:at + length]

    def close(self) -> None:
        return None


class _FileReader:
    """Positional reads from one file descriptor, closed when the index is collected."""

    def __init__(self, path: str) -> None:
        self._fd = -1
        self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        self.size = os.fstat(self._fd).st_size


    def read(self, at: int, length: int) -> bytes:
        data = os.pread(self._fd, length, at) if hasattr(os, "pread") else self._seek(at, length)
        if len(data) != length:
            raise IndexCorrupt("the index file changed while in use")
        return data

    def _seek(self, at: int, length: int) -> bytes:
        os.lseek(self._fd, at, os.SEEK_SET)
        return os.read(self._fd, length)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __del__(self) -> None:
        self.close()


_Reader = _BytesReader | _FileReader
