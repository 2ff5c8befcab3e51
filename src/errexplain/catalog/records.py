"""The per-entry records of an index build: each entry's row (what matching reads) and prose
record (what is shown), marshalled and checksummed. This is most of a build's own work after
the YAML, so a large catalog is encoded by a forked process per core, each taking a span of the
entries (their memory is the parent's: nothing is pickled on the way in), while the parent
orders the index and builds its lookups. Entries are encoded in the order they were loaded,
which is the order they lie in memory (a fifth faster than in index order), each row with
POS_MARK for its position; :meth:`Encoder.in_order` writes the positions in and puts the
records in index order.

The bytes are those of encoding each record at its position: marshal writes an object it
meets twice as a reference, and one referenced more than once elsewhere with a flag, so the
mark is an int object of its own as a position >= SMALL_INTS is (a smaller one is a shared
object that the row's line or literal length may be: those rows are encoded again), and each
record is marshalled as a temporary (a variable would be a second reference).
"""

from __future__ import annotations

import marshal
import zlib
from itertools import pairwise

from errexplain._startup import TYPE_CHECKING, Record, astuple
from errexplain.models import candidate_fields, lineage_since

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    from errexplain.catalog.relation import Traits
    from errexplain.match.normalize import TemplateFacts
    from errexplain.models import Entry

PARALLEL_MIN_ENTRIES = 4000
"""From this many entries on, records are encoded by a process per core (a build's `parallel`
argument overrides it: see :func:`~errexplain.catalog.parts.workers`)."""
POS_MARK = 2_000_000_011
"""The position a row is encoded with before its position is known (see the module doc)."""
SMALL_INTS = 257
"""Positions below this are CPython's shared small int objects."""
_POS_MARK_BYTES = marshal.dumps((POS_MARK,))[2:7]


class Encoded(Record):
    """The records of a span of entries, in entry order: each one's row (with POS_MARK) and
    prose record, and the prose records' CRC-32s."""

    rows: list[bytes]
    store: list[bytes]
    store_sums: list[int]


class Blobs(Record):
    """The records of all entries in index order: the rows and prose blobs, each record's
    length and CRC-32."""

    rows: bytes
    row_lens: list[int]
    row_sums: list[int]
    store: bytes
    store_lens: list[int]
    store_sums: list[int]


class Encoder:
    """Encodes the entries [lo, hi) (see :class:`Pending`)."""

    def __init__(self, entries: Sequence[Entry], facts: dict[str, TemplateFacts] | Any) -> None:
        self.entries, self.facts = entries, facts
        self.brief = {e.id: e for e in entries}
        self._traits: dict[str, Traits] = {}
        self.since = lineage_since(entries)

    def traits(self, e: Entry) -> Traits:
        """The relation traits of an entry, made once per build (and only for entries that
        relate or are related)."""
        found = self._traits.get(e.id)
        if found is None:
            from errexplain.catalog.relation import of_entry, traits

            found = self._traits[e.id] = traits(of_entry(e))
        return found

    def __call__(self, span: tuple[int, int]) -> Encoded:
        rows: list[bytes] = []
        store: list[bytes] = []
        entries, facts = self.entries, self.facts
        for i in range(*span):
            e = entries[i]
            store.append(marshal.dumps(prose(e, self)))
            rows.append(
                marshal.dumps(
                    candidate_fields(POS_MARK, e, facts[e.template][0], self.since.get(e.id))
                )
            )
        return Encoded(rows, store, list(map(zlib.crc32, store)))

    def row(self, pos: int, i: int, marked: bytes) -> bytes:
        """The row of entry i at `pos`, from its row encoded with POS_MARK."""
        if pos >= SMALL_INTS and marked[2:7] == _POS_MARK_BYTES:
            return marked[:3] + pos.to_bytes(4, "little") + marked[7:]
        e = self.entries[i]
        since = self.since.get(e.id)
        return marshal.dumps(candidate_fields(pos, e, self.facts[e.template][0], since))

    def in_order(self, done: Iterable[Encoded], order: Sequence[int]) -> Blobs:
        """The records of spans that cover the entries in turn, in index order (`order`)."""
        marked: list[bytes] = []
        store: list[bytes] = []
        store_sums: list[int] = []
        for d in done:
            marked += d.rows
            store += d.store
            store_sums += d.store_sums
        rows = [self.row(pos, i, marked[i]) for pos, i in enumerate(order)]
        store = [store[i] for i in order]
        return Blobs(
            b"".join(rows),
            list(map(len, rows)),
            list(map(zlib.crc32, rows)),
            b"".join(store),
            list(map(len, store)),
            [store_sums[i] for i in order],
        )


def prose(entry: Entry, enc: Encoder) -> tuple[Any, ...]:
    """The prose of an entry, with its related entries resolved to (id, template, type, why)."""
    fix = entry.example_fix
    related = _related(entry, enc) if entry.related else ()
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
        entry.catalog_file,
        entry.releases,
        entry.at,
        entry.lineage,
        entry.replaced_by,
        astuple(entry.verified) if entry.verified else None,
        related,
    )


def _related(entry: Entry, enc: Encoder) -> tuple[tuple[str, str, str, str], ...]:
    from errexplain.catalog.relation import why

    mine, brief = enc.traits(entry), enc.brief
    return tuple(
        (r.id, r.template, r.exception, why(mine, enc.traits(r)))
        for r in (brief.get(rid) for rid in entry.related)
        if r is not None
    )


class Pending:
    """Records being encoded (by forked processes when there are many): `result()` gives the
    spans in order. The caller works on while they run, and calls `close()` in the end."""

    def __init__(self, enc: Encoder, parallel: bool | None = None) -> None:
        from errexplain.catalog.forked import Forked, can_fork
        from errexplain.catalog.parts import workers

        n = len(enc.entries)
        count = workers(n >= PARALLEL_MIN_ENTRIES, parallel)
        self._children: Forked | None = None
        self._done: list[Encoded] | None = None
        if count < 2 or not n or not can_fork():  # one process
            self._done = [enc((0, n))]
            return
        spans = list(pairwise([n * k // count for k in range(count + 1)]))
        self._children = Forked(count, lambda k: (enc(spans[k]),))

    def result(self) -> list[Encoded]:
        if self._done is None:
            assert self._children is not None
            got = dict(self._children.results())
            self._done = [got[k] for k in range(len(got))]
        return self._done

    def close(self) -> None:
        """Stop the workers (after `result`, or when the build was interrupted)."""
        if self._children is not None:
            self._children.close()
            self._children = None
