"""The per-entry records of an index build: each entry's row (what matching reads) and prose
record (what is shown), marshalled and checksummed.

Most of a record depends on its entry alone, so the loader processes encode it where they parse
the module file (:func:`encode_part`, kept in the file's cached part) and the build only puts
the index's position into the row and the catalog file's path into the prose
(:class:`Encoder`). A record's bytes are those the build would make from the entry itself:
marshal's output depends on which objects are shared and which are referenced more than once,
so a part is encoded from the entries as the build decodes them (the part's own bytes loaded
back), and only a prose whose related entries are all in the same file (the build checks that
they are the ones it indexes). The rest is encoded by the build, by a forked process per core
when there are many (their memory is the parent's: nothing is pickled on the way in).
"""

from __future__ import annotations

import marshal
import os
import zlib
from itertools import pairwise

from errexplain._startup import TYPE_CHECKING, astuple, record
from errexplain.catalog.relation import of_entry, related_why
from errexplain.models import candidate_fields

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from errexplain.catalog.relation import Site
    from errexplain.match.normalize import TemplateFacts
    from errexplain.models import Entry

    Precoded = tuple[Entry, bytes, bytes | None, bytes | None]
    """What a loader process encoded of an entry (:func:`encode_part`): the entry as the build
    decodes it, its row with POS_MARK for the position, and its prose cut around the catalog
    file (head, tail; None when a related entry lies in another file)."""

PARALLEL_MIN_ENTRIES = 4000
"""From this many entries left to encode whole, records are encoded by a process per core."""

POS_MARK = 2_000_000_011
"""The position written into a row by :func:`encode_part` (a distinct object, so that marshal
writes it, and numbers the objects after it, as it does a build's position >= 257)."""
FILE_MARK = "<the catalog file of this entry>"
"""The catalog file written into a prose record by :func:`encode_part` (one distinct object)."""
_POS_AT = slice(2, 7)  # a row: small-tuple code, field count, then the position (code, int32)
_POS_MARK_BYTES = marshal.dumps((POS_MARK,))[_POS_AT]
_FILE_MARK_BYTES = marshal.dumps((FILE_MARK,))[2:]
SMALL_INTS = 257
"""Positions below this are shared int objects: one may be the row's line or literal length,
which marshal then writes as a reference, so the build encodes those rows itself."""


@record
class Encoded:
    """The records of a span of positions: the rows and prose blobs, each record's length and
    CRC-32, in position order."""

    rows: bytes
    row_lens: tuple[int, ...]
    row_sums: tuple[int, ...]
    store: bytes
    store_lens: tuple[int, ...]
    store_sums: tuple[int, ...]


class Encoder:
    """Encodes the entries at positions [lo, hi) of `order` (see :class:`Pending`), from
    what the loader processes encoded of them (`precoded`, by id) where that holds."""

    def __init__(
        self,
        entries: Sequence[Entry],
        order: Sequence[int],
        facts: dict[str, TemplateFacts] | Any,
        precoded: Mapping[str, Precoded] | None = None,
    ) -> None:
        self.entries, self.order, self.facts = entries, order, facts
        self.brief = {e.id: e for e in entries}
        self.precoded = precoded or {}
        self._sites: dict[str, Site] = {}
        self._files: dict[str, bytes] = {}

    def site(self, e: Entry) -> Site:
        """The relation.Site of an entry, made once per build (and only for entries that
        relate or are related)."""
        found = self._sites.get(e.id)
        if found is None:
            found = self._sites[e.id] = of_entry(e)
        return found

    def row(self, pos: int, e: Entry) -> bytes:
        pre = self.precoded.get(e.id)
        if pre is not None and pre[0] is e and pos >= SMALL_INTS:
            row = pre[1]
            if row[_POS_AT] == _POS_MARK_BYTES:
                return row[:2] + _POS_MARK_BYTES[:1] + pos.to_bytes(4, "little") + row[7:]
        return marshal.dumps(candidate_fields(pos, e, self.facts[e.template][0]))

    def prose(self, e: Entry) -> bytes:
        pre = self.precoded.get(e.id)
        if pre is not None and pre[0] is e and pre[2] is not None and self._local(e):
            return pre[2] + self._file(e.catalog_file) + pre[3]  # type: ignore[operator]
        return marshal.dumps(prose(e, self))

    def _local(self, e: Entry) -> bool:
        """Whether the related entries the build resolves are those the loader resolved: of
        the same file, decoded from the same part (its catalog file is the same object)."""
        brief, where = self.brief, e.catalog_file
        for rid in e.related:
            r = brief.get(rid)
            if r is None or r.catalog_file is not where:
                return False
        return len(where or "") > 1  # (not a shared one-character string)

    def _file(self, path: str | None) -> bytes:
        """The marshal bytes of a catalog file inside a prose record (referenced twice: by
        its entry and by the record)."""
        found = self._files.get(path)  # type: ignore[arg-type]
        if found is None:
            found = self._files[path] = _flagged(marshal.dumps(path))  # type: ignore[index]
        return found

    def __call__(self, span: tuple[int, int]) -> Encoded:
        rows, store = bytearray(), bytearray()
        row_lens, row_sums, store_lens, store_sums = [], [], [], []
        entries, order = self.entries, self.order
        for pos in range(*span):
            e = entries[order[pos]]
            rec = self.prose(e)
            store += rec
            store_lens.append(len(rec))
            store_sums.append(zlib.crc32(rec))
            rec = self.row(pos, e)
            rows += rec
            row_lens.append(len(rec))
            row_sums.append(zlib.crc32(rec))
        return Encoded(
            bytes(rows),
            tuple(row_lens),
            tuple(row_sums),
            bytes(store),
            tuple(store_lens),
            tuple(store_sums),
        )

    def left(self) -> int:
        """How many entries are left to encode whole (no precoded prose)."""
        pre = self.precoded
        return sum(1 for e in self.entries if (p := pre.get(e.id)) is None or p[2] is None)


def _flagged(data: bytes) -> bytes:
    """Marshal bytes of one object as written when it is referenced more than once."""
    return bytes((data[0] | _REF_FLAG,)) + data[1:]


_REF_FLAG = 0x80


def encode_part(entries: Sequence[Entry], facts: Mapping[str, TemplateFacts]) -> tuple[Any, ...]:
    """(row, prose head, prose tail) of each entry of a module file (see the module doc):
    `entries` decoded from the file's part with FILE_MARK for their catalog file, `facts` the
    part's own."""
    enc = Encoder(entries, range(len(entries)), facts)
    out = []
    for e in entries:
        row = marshal.dumps(candidate_fields(POS_MARK, e, facts[e.template][0]))
        head = tail = None
        if e.catalog_file is FILE_MARK and all(rid in enc.brief for rid in e.related):
            # (each record a temporary, as the build dumps it: marshal marks an object
            # referenced more than once, and a variable is a reference)
            data = marshal.dumps(prose(e, enc))
            cut = len(marshal.dumps(prose_head(e)))  # the same length, flags aside
            end = cut + len(_FILE_MARK_BYTES)
            if data[cut:end] == _FILE_MARK_BYTES:
                head, tail = data[:cut], data[end:]
        out.append((row, head, tail))
    return tuple(out)


def prose(entry: Entry, enc: Encoder) -> tuple[Any, ...]:
    """The prose of an entry, with its related entries resolved to (id, template, type, why)."""
    related = tuple(
        (r.id, r.template, r.exception, related_why(enc.site(entry), enc.site(r)))
        for r in (enc.brief.get(rid) for rid in entry.related)
        if r is not None
    )
    return (
        *prose_head(entry),
        entry.catalog_file,
        entry.releases,
        entry.at,
        entry.lineage,
        entry.replaced_by,
        astuple(entry.verified) if entry.verified else None,
        related,
    )


def prose_head(entry: Entry) -> tuple[Any, ...]:
    """The fields of a prose record before the catalog file."""
    fix = entry.example_fix
    return (
        entry.condition,
        entry.doc,
        entry.via,
        entry.versions,
        entry.removed_in,
        entry.derived,
        entry.meaning,
        entry.trigger,
        entry.situations,
        entry.solutions,
        (fix.before, fix.after, fix.language) if fix else None,
        entry.related,
        entry.examples,
    )


_encoder: list[Encoder] = []


def _use(enc: Encoder) -> None:  # a pool initializer: the encoder comes in by fork
    _encoder[:] = [enc]


def _encode_span(span: tuple[int, int]) -> Encoded:
    return _encoder[0](span)


class Pending:
    """Records being encoded (by forked processes when there are many): `result()` gives the
    spans in order. The caller works on while they run, and calls `close()` in the end."""

    def __init__(self, enc: Encoder) -> None:
        n = len(enc.order)
        workers = min(os.cpu_count() or 1, 4)
        self._pool: Any = None
        self._done: list[Encoded] | None = None
        if enc.left() < PARALLEL_MIN_ENTRIES or workers < 2:
            self._done = [enc((0, n))]
            return
        import multiprocessing

        try:
            ctx = multiprocessing.get_context("fork")
        except ValueError:  # no fork on this platform: stay in one process
            self._done = [enc((0, n))]
            return
        bounds = [n * k // workers for k in range(workers + 1)]
        spans = list(pairwise(bounds))
        from errexplain.catalog.parts import children_ignore_ctrl_c

        with children_ignore_ctrl_c():
            self._pool = ctx.Pool(workers, initializer=_start, initargs=(enc,))
        self._async = self._pool.map_async(_encode_span, spans)

    def result(self) -> list[Encoded]:
        if self._done is None:
            self._done = list(self._async.get())
        return self._done

    def close(self) -> None:
        """Stop the workers (after `result`, or when the build was interrupted)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def _start(enc: Encoder) -> None:
    from errexplain.catalog.parts import quiet_worker

    quiet_worker()
    _use(enc)
