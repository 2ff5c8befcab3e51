"""The compiled catalog index: one file, read without YAML, built once and cached.

A normal run reads only what one message needs, so it stays fast at 100k templates::

    b"ERRXID15" | 9 x uint64 little-endian: the lengths of
    meta | offs | slots | rows | ids | fuzzy | sites | store | releases
    | 9 x uint32: the CRC-32 of each blob | uint32: the CRC-32 of the header before it
    then the blobs.

Every byte is checksummed and verified when read (issue 14: garbage inside a blob gave "bad
marshal data" on every run, or garbled prose): the header and ``meta`` on open, the lazily
loaded blobs (``ids``, ``fuzzy``, ``sites``) whole on first use, ``offs`` page by page
(OFFS_PAGE bytes, their CRC-32s in ``meta``), ``releases`` bucket by bucket (CRC-32s in
``meta``), and ``slots``, ``rows`` and ``store`` record by record, from CRC-32s kept in
``offs`` after the offsets. A run reads and verifies only what it uses (a whole-blob check of
``offs`` and ``releases``, 1 MB, was a fifth of the piped explain's own work). A mismatch
raises :class:`IndexCorrupt`, or, when the index was given a way to rebuild itself
(``repair``), swaps in freshly built bytes and reads again: the answer never changes.

* ``meta`` (marshal, small): format, key, projects, the number of rows and of hash slots, the
  builtin bases of custom exception classes, the CRC-32 of each page of ``offs``, and where
  each bucket of ``releases`` lies (offset, length, CRC-32).
* ``offs``: uint32 array, where each row starts inside ``rows`` (n + 1 values), and then where
  each hash slot starts inside ``slots`` (slot count + 1 values).
* ``slots``: every identifiable template is filed under its rarest literal word and the rows
  of one word are stored contiguously. A word's ``(word, first_row, count)`` lives in hash slot
  ``crc32(word) % slot_count`` (one marshal tuple per slot). The exact-match candidates of a
  message are the buckets of its words: a few small reads, nothing loaded up front.
* ``rows``: one marshal tuple per entry, the fields of :class:`~errexplain.models.Candidate`
  in order (matching reads these, never the prose).
* ``ids`` (marshal, lazy): id -> row, for ``show``/``related``.
* ``fuzzy`` (marshal, lazy): the :class:`~errexplain.models.WordStats` of all templates,
  loaded only when no exact match is found.
* ``sites``: ``"file name\0function"`` -> rows, for the entries matched by traceback frames
  instead of by message (:func:`errexplain.match.sites.locatable`), in SITE_BUCKETS marshalled
  buckets by ``crc32(key)`` ((offset, length, CRC-32) of each in ``meta``), read bucket by
  bucket only for an error without a message (or with an assert statement as its message).
* ``store``: one marshal record per entry (the prose), read by offset for the entries shown.
* ``releases``: for the projects whose history the catalog holds, their {path: release
  ranges} map in PATH_BUCKETS marshalled buckets (the release order is in ``meta``); a paste's
  few frame paths cost a few small reads, only to guess its release.

The format is private to :mod:`errexplain.catalog`: everything else sees an :class:`Index`
through :class:`~errexplain.models.CatalogView` (typed candidates and entries).
Only the standard library is used.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib

from errexplain._startup import TYPE_CHECKING
from errexplain.match.rank import site_key
from errexplain.match.release import Facts
from errexplain.models import (
    Candidate,
    Entry,
    ExampleFix,
    Project,
    Related,
    Source,
    Verified,
    WordStats,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence
    from typing import Any, TypeVar

    _T = TypeVar("_T")

MAGIC = b"ERRXID15"
FORMAT = 25
"""25: a candidate row ends with whether its site is a C++ check that prints its place before its
text (`placed`). 24: a project row ends with its `own_log_prefixes`. 23: an assert whose test
has `self.` is filed under its test without it too. 22: a candidate row ends with the first
release of its check's oldest wording (`since`). 21: a candidate row ends with whether its site
prints the message. 20: a site key's value holds, beside its positions, which of them have a
message; entries filed under no word are in file and line order."""
OFFS_PAGE = 4096
"""Bytes of ``offs`` verified together (the CRC-32 of each page is in ``meta``)."""
ROW_GAP = 32
"""Rows a batched read of a site key's rows reads past between two wanted ones."""
AT_FIELD = 15
"""Where records.prose() puts an entry's `at` in its prose record."""
_NBLOBS = 9
_HEAD_SIZE = len(MAGIC) + 12 * _NBLOBS + 4


class IndexCorrupt(Exception):
    """The file is not a complete index of this format (it gets rebuilt)."""


SITE_BUCKETS = 256
"""The frame-lookup table (32,000 keys, 2 MB marshalled for the sglang history) is stored in
this many marshalled buckets by ``crc32(key)``: an error located by its frames reads the few
buckets of its frames' keys (a fraction of a millisecond), not the whole table (35 ms)."""


def head_key(entry_id: str, longest: int) -> bytes | None:
    """The key of `entry_id` in a lineage-head table whose longest id has `longest` bytes: its
    length, then the id padded with NULs (one width, and no id the prefix of another's key)."""
    raw = entry_id.encode()
    if len(raw) > min(longest, 255):
        return None
    return bytes((len(raw),)) + raw.ljust(longest, b"\0")


def head_row(heads: tuple[int, bytes, bytes], entry_id: str) -> int | None:
    """The row of lineage head `entry_id` in the table
    :func:`~errexplain.catalog.index_build._heads` builds, or None."""
    longest, keys, rows = heads
    key = head_key(entry_id, longest)
    if key is None or not keys:
        return None
    width = longest + 1
    lo, hi = 0, len(keys) // width
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid * width : (mid + 1) * width] < key:
            lo = mid + 1
        else:
            hi = mid
    if keys[lo * width : (lo + 1) * width] != key:
        return None
    return int.from_bytes(rows[4 * lo : 4 * lo + 4], "little")


PATH_BUCKETS = 64


class _LazyPaths:
    """The path map of a project's release facts, its buckets read (verified) and
    unmarshalled on demand: `read(k)` gives the bytes of bucket k of `n`."""

    def __init__(self, n: int, read: Callable[[int], bytes]) -> None:
        self._n = n
        self._read = read
        self._loaded: dict[int, dict[str, str]] = {}

    def _load(self, k: int) -> dict[str, str]:
        got = self._loaded.get(k)
        if got is None:
            got = self._loaded[k] = marshal.loads(self._read(k))
        return got

    def _bucket(self, path: str) -> dict[str, str]:
        return self._load(_slot(path, self._n))

    def __getitem__(self, path: str) -> str:
        return self._bucket(path)[path]

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and path in self._bucket(path)

    def get(self, path: str, default: str | None = None) -> str | None:
        return self._bucket(path).get(path, default)

    def __iter__(self) -> Iterator[str]:
        for k in range(self._n):
            yield from sorted(self._load(k))

    def __len__(self) -> int:
        return sum(len(self._load(k)) for k in range(self._n))

    def items(self) -> Iterator[tuple[str, str]]:
        for path in self:
            yield path, self[path]

    def __eq__(self, other: object) -> bool:
        items = getattr(other, "items", None)
        return callable(items) and dict(self.items()) == dict(items())

    __hash__ = None  # type: ignore[assignment]


def _slot(word: str, nslots: int) -> int:
    return zlib.crc32(word.encode()) % nslots


class Index:
    """A loaded index (a :class:`~errexplain.models.CatalogView`). Rows, ids, word stats and
    prose are read on demand."""

    def __init__(
        self,
        meta: dict[str, Any],
        offsets: tuple[int, ...],
        reader: _Reader,
        sums: tuple[int, ...] = (),
        repair: Callable[[], bytes] | None = None,
    ) -> None:
        self.meta = meta
        self._sums = sums
        self.repair = repair
        """Called once on a checksum mismatch: fresh bytes of the same index (see module doc)."""
        self.repaired = False
        self._set_offsets(offsets)
        self._reader = reader
        self._offs: _PagedOffsets | None = None
        self._slot_cache: dict[int, tuple[tuple[Any, ...], ...]] = {}
        self._rows: dict[int, Candidate] = {}
        self._entries: dict[int, Entry] = {}
        self._prose: dict[int, tuple[Any, ...]] = {}
        self._stats: WordStats | None = None
        self._ids: dict[str, int] | None = None
        self._sites: dict[int, dict[str, tuple[tuple[int, ...], bytes]]] = {}
        self._facts: dict[str, Facts] | None = None
        self._projects = {p[0]: Project(*p) for p in meta["projects"]}

    def _set_offsets(self, offsets: tuple[int, ...]) -> None:
        (
            self._at_offs,
            self._at_slots,
            self._at_rows,
            self._at_ids,
            self._at_fuzzy,
            self._at_sites,
            self._at_store,
            self._at_releases,
            self._end,
        ) = offsets

    @classmethod
    def open(cls, path: str, repair: Callable[[], bytes] | None = None) -> Index:
        reader = _FileReader(path)
        try:
            lens, sums = _check_head(reader.read(0, _HEAD_SIZE), reader.size)
            meta = _loads_meta(reader.read(_HEAD_SIZE, lens[0]), sums[0])
        except BaseException:
            reader.close()
            raise
        return cls(meta, _blob_ends(lens), reader, sums, repair)

    @classmethod
    def from_bytes(cls, data: bytes, repair: Callable[[], bytes] | None = None) -> Index:
        lens, sums = _check_head(data[:_HEAD_SIZE], len(data))
        meta = _loads_meta(data[_HEAD_SIZE : _HEAD_SIZE + lens[0]], sums[0])
        return cls(meta, _blob_ends(lens), _BytesReader(data), sums, repair)

    def _read(self, at: int, length: int, crc: int) -> bytes:
        """Bytes whose CRC-32 must be `crc`; on a mismatch the index repairs itself once (the
        fresh bytes have the same entries in the same positions) and reads again."""
        data = self._reader.read(at, length)
        if zlib.crc32(data) == crc:
            return data
        raise IndexCorrupt("checksum mismatch")

    def _verified(self, read: Callable[[], _T]) -> _T:
        try:
            return read()
        except IndexCorrupt:
            if self.repair is None or self.repaired:
                raise
        self._adopt(self.repair())
        return read()

    def _adopt(self, data: bytes) -> None:
        """Serve from freshly built bytes of the same catalog (after a checksum mismatch)."""
        lens, sums = _check_head(data[:_HEAD_SIZE], len(data))
        meta = _loads_meta(data[_HEAD_SIZE : _HEAD_SIZE + lens[0]], sums[0])
        if meta.get("key") != self.meta.get("key") or meta.get("n") != self.meta.get("n"):
            raise IndexCorrupt("the rebuilt index is of another catalog")
        self.repaired = True
        self._reader.close()
        self._reader, self._sums, self.meta = _BytesReader(data), sums, meta
        self._set_offsets(_blob_ends(lens))
        self._offs = None
        self._slot_cache.clear()

    def _blob(self, k: int, start: int, end: int) -> bytes:
        """The whole k-th blob (0 meta, 1 offs, ... as in the header), verified."""
        return self._verified(lambda: self._read(start, end - start, self._sums[k]))

    def _record_bytes(self, blob_at: int, k: int, sum_k: int) -> bytes:
        """One record of a record-checksummed blob: bytes between offsets k and k+1."""

        def read() -> bytes:
            offs = self._offsets
            return self._read(blob_at + offs[k], offs[k + 1] - offs[k], offs[sum_k])

        return self._verified(read)

    @property
    def key(self) -> str:
        return str(self.meta["key"])

    def __len__(self) -> int:
        return int(self.meta["n"])

    @property
    def _sum_base(self) -> int:
        """Where the record checksums start in the offsets array (rows, slots, prose)."""
        return 2 * len(self) + 2 + int(self.meta["nslots"]) + 1

    @property
    def _offsets(self) -> _PagedOffsets:
        """Row offsets, slot offsets, prose offsets, then the CRC-32 of every row, slot and
        prose record: a uint32 array read (and verified) page by page as it is used. Read it
        inside :meth:`_verified`: a page that fails its check raises IndexCorrupt."""
        if self._offs is None:
            self._offs = _PagedOffsets(self._offs_page, len(self.meta["offs_pages"]))
        return self._offs

    def _offs_page(self, page: int) -> bytes:
        at = self._at_offs + page * OFFS_PAGE
        length = min(OFFS_PAGE, self._at_slots - at)
        return self._read(at, length, self.meta["offs_pages"][page])

    def _load_rows(
        self, first: int, count: int, keep: Sequence[bool] | None = None
    ) -> list[Candidate]:
        wanted = [
            pos
            for k, pos in enumerate(range(first, first + count))
            if (keep is None or keep[k]) and pos not in self._rows
        ]
        if wanted:
            recs = self._verified(lambda: self._row_bytes(wanted))
            for pos, rec in zip(wanted, recs, strict=True):
                self._rows[pos] = Candidate(*marshal.loads(rec))
        return [
            self._rows[pos]
            for k, pos in enumerate(range(first, first + count))
            if keep is None or keep[k]
        ]

    def _row_bytes(self, wanted: Sequence[int]) -> list[bytes]:
        """The records of rows `wanted` (ascending), read in one go and each verified."""
        first, last, sums = wanted[0], wanted[-1], self._sum_base
        offs = self._offsets.values(first, last + 2)  # offs[first] .. offs[last + 1]
        crcs = self._offsets.values(sums + first, sums + last + 1)
        base = offs[0]
        blob = self._reader.read(self._at_rows + base, offs[-1] - base)
        out = []
        for pos in wanted:
            k = pos - first
            rec = blob[offs[k] - base : offs[k + 1] - base]
            if zlib.crc32(rec) != crcs[k]:
                raise IndexCorrupt("checksum mismatch")
            out.append(rec)
        return out

    def bucket(self, word: str, present: set[str]) -> list[Candidate]:
        """The candidates filed under a word whose second filing word is in `present`."""
        for w, first, count, seconds in self._slot_items(_slot(word, self.meta["nslots"])):
            if w == word:
                return self._load_rows(first, count, [not s or s in present for s in seconds])
        return []

    def _slot_items(self, slot: int) -> tuple[tuple[Any, ...], ...]:
        items = self._slot_cache.get(slot)
        if items is None:
            k = len(self) + 1 + slot
            raw = self._record_bytes(self._at_slots, k, self._sum_base + len(self) + slot)
            items = marshal.loads(raw) if raw else ()
            self._slot_cache[slot] = items
        return items

    def candidate(self, pos: int) -> Candidate:
        cached = self._rows.get(pos)
        return cached if cached is not None else self._load_rows(pos, 1)[0]

    def candidates(self) -> list[Candidate]:
        return self._load_rows(0, len(self))

    def word_stats(self) -> WordStats:
        if self._stats is None:
            post, idf, wsum = marshal.loads(self._blob(5, self._at_fuzzy, self._at_sites))
            self._stats = WordStats(post, idf, wsum)
        return self._stats

    def position(self, entry_id: str) -> int | None:
        head = head_row(self.meta["heads"], entry_id)
        if head is not None:
            return int(head)
        if self._ids is None:
            self._ids = marshal.loads(self._blob(4, self._at_ids, self._at_fuzzy))
        return self._ids.get(entry_id)

    def sites(self, file_name: str, function: str) -> list[Candidate]:
        return self.sites_at(site_key(file_name, function))

    def site_positions(self, key: str, messages: bool = True) -> tuple[int, ...]:
        spans = self.meta["sites"]
        k = _slot(key, len(spans))
        bucket = self._sites.get(k)
        if bucket is None:
            bucket = self._sites[k] = marshal.loads(self._bucket_bytes(self._at_sites, spans[k]))
        positions, messaged = bucket.get(key, ((), b""))
        if messages:
            return tuple(positions)
        return tuple([p for p, m in zip(positions, messaged, strict=True) if not m])

    def sites_at(self, key: str, messages: bool = True) -> list[Candidate]:
        positions = self.site_positions(key, messages)
        self._load_positions(positions)
        return [self._rows[pos] for pos in positions]

    def _load_positions(self, positions: Sequence[int]) -> None:
        """Load the rows at `positions` not loaded yet, one read per run of near positions
        (a file's sites lie close together in the index, so a site key's rows are a few runs;
        a run's gaps cost their bytes, at most ROW_GAP rows each)."""
        todo = sorted({p for p in positions if p not in self._rows})
        k = 0
        while k < len(todo):
            end = k + 1
            while end < len(todo) and todo[end] - todo[end - 1] <= ROW_GAP:
                end += 1
            first, last = todo[k], todo[end - 1]
            run = set(todo[k:end])
            self._load_rows(first, last - first + 1, [p in run for p in range(first, last + 1)])
            k = end

    def history_projects(self) -> tuple[str, ...]:
        return tuple(self.meta.get("history", ()))

    def project(self, name: str) -> Project | None:
        return self._projects.get(name)

    def release_facts(self, project: str) -> Facts | None:
        if project not in self.meta.get("history", ()):
            return None
        if self._facts is None:
            self._facts = {
                p: Facts(p, tuple(order), self._lazy_paths(spans))  # type: ignore[arg-type]
                for p, (order, spans) in self.meta["releases"].items()
            }
        return self._facts.get(project)

    def _lazy_paths(self, spans: Sequence[tuple[int, int, int]]) -> _LazyPaths:
        return _LazyPaths(len(spans), lambda k: self._bucket_bytes(self._at_releases, spans[k]))

    def _bucket_bytes(self, blob_at: int, span: tuple[int, int, int]) -> bytes:
        """One bucket of a bucketed blob (``sites``, ``releases``), verified."""
        at, length, crc = span
        return self._verified(lambda: self._read(blob_at + at, length, crc))

    def known_base(self, exc_type: str) -> str | None:
        base = self.meta["bases"].get(exc_type)
        return str(base) if base else None

    def _record(self, pos: int) -> tuple[Any, ...]:
        """The prose record at a position, read once (entry() and related() both need it)."""
        rec = self._prose.get(pos)
        if rec is None:
            k = len(self) + 1 + self.meta["nslots"] + 1 + pos
            sum_k = self._sum_base + len(self) + self.meta["nslots"] + pos
            rec = marshal.loads(self._record_bytes(self._at_store, k, sum_k))
            self._prose[pos] = rec
        return rec

    def related(self, pos: int) -> tuple[Related, ...]:
        *_, related = self._record(pos)  # the last field of a prose record (see _prose)
        return tuple(Related(*r) for r in related)

    def at(self, pos: int) -> str | None:
        """The `at` field of a prose record, without building the entry (a frame compared with
        the release lines of a few dozen sites reads only this)."""
        built = self._entries.get(pos)
        return built.at if built is not None else self._record(pos)[AT_FIELD]

    def entry(self, pos: int) -> Entry:
        if pos not in self._entries:
            self._entries[pos] = self._make_entry(self.candidate(pos))
        return self._entries[pos]

    def _make_entry(self, c: Candidate) -> Entry:
        (
            condition,
            doc,
            via,
            versions,
            removed_in,
            derived,
            meaning,
            trigger,
            situations,
            solutions,
            fix,
            related,
            examples,
            catalog_file,
            releases,
            at,
            lineage,
            replaced_by,
            verified,
            _,
        ) = self._record(c.pos)
        project = self._projects.get(c.project) or Project(c.project)
        version = releases[1] if releases else project.version
        return Entry(
            id=c.id,
            project=c.project,
            exception=c.exception,
            template=c.template,
            source=Source(
                c.project,
                version,
                c.path,
                c.line,
                c.function,
                project.url(c.path, c.line, version),
            ),
            base=c.base,
            kind=c.kind,
            condition=condition,
            statement=c.statement,
            via=via,
            doc=doc,
            versions=versions,
            derived=derived,
            meaning=meaning,
            trigger=trigger,
            situations=situations,
            solutions=solutions,
            example_fix=ExampleFix(*fix) if fix else None,
            related=related,
            examples=examples,
            removed_in=removed_in,
            catalog_file=catalog_file,
            releases=releases,
            at=at,
            lineage=lineage,
            replaced_by=replaced_by,
            verified=Verified(*verified) if verified else None,
        )


def _check_head(head: bytes, size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(blob lengths, blob CRC-32s) of a verified header."""
    if len(head) != _HEAD_SIZE or head[: len(MAGIC)] != MAGIC:
        raise IndexCorrupt("not an index of this format")
    if zlib.crc32(head[:-4]) != int.from_bytes(head[-4:], "little"):
        raise IndexCorrupt("header checksum mismatch")
    at = len(MAGIC) + 8 * _NBLOBS
    lens = tuple(int.from_bytes(head[i : i + 8], "little") for i in range(len(MAGIC), at, 8))
    sums = tuple(int.from_bytes(head[i : i + 4], "little") for i in range(at, at + 4 * _NBLOBS, 4))
    if _HEAD_SIZE + sum(lens) != size:
        raise IndexCorrupt("truncated or padded index")
    return lens, sums


def _blob_ends(lens: Iterable[int]) -> tuple[int, ...]:
    """Where each blob ends (= where the next starts), meta first."""
    out, at = [], _HEAD_SIZE
    for n in lens:
        at += n
        out.append(at)
    return tuple(out)


def _loads_meta(data: bytes, crc: int) -> dict[str, Any]:
    if zlib.crc32(data) != crc:
        raise IndexCorrupt("checksum mismatch in the index's meta data")
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
        return self._data[at : at + length]

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


class _PagedOffsets:
    """The uint32 array of ``offs``, each page read and verified on first use
    (`read(page)` gives its verified bytes)."""

    def __init__(self, read: Callable[[int], bytes], pages: int) -> None:
        self._read = read
        self._per_page = OFFS_PAGE // 4
        self._pages: list[Sequence[int] | None] = [None] * pages

    def _page(self, page: int) -> Sequence[int]:
        values = self._pages[page]
        if values is None:
            raw = self._read(page)
            if sys.byteorder == "little":
                values = memoryview(raw).cast("I")
            else:  # pragma: no cover - big-endian hosts
                values = [int.from_bytes(raw[j : j + 4], "little") for j in range(0, len(raw), 4)]
            self._pages[page] = values
        return values

    def __getitem__(self, i: int) -> int:
        page, at = divmod(i, self._per_page)
        return self._page(page)[at]

    def values(self, lo: int, hi: int) -> list[int]:
        """Values lo .. hi - 1, in one call (a bucket's rows read hundreds of them)."""
        per = self._per_page
        out: list[int] = []
        for page in range(lo // per, (hi - 1) // per + 1):
            start = page * per
            out.extend(self._page(page)[max(lo - start, 0) : hi - start])
        return out
