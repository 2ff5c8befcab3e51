"""The per-entry records of an index build: each entry's row (what matching reads) and prose
record (what is shown), marshalled and checksummed. This is most of a build's own work after
the YAML, so a large catalog is encoded by a forked process per core, each taking a span of the
index order (their memory is the parent's: nothing is pickled on the way in).
"""

from __future__ import annotations

import marshal
import os
import zlib
from itertools import pairwise

from errexplain._startup import TYPE_CHECKING, astuple, record
from errexplain.models import candidate_fields

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from errexplain.catalog.relation import Site
    from errexplain.match.normalize import TemplateFacts
    from errexplain.models import Entry

PARALLEL_MIN_ENTRIES = 4000
"""From this many entries on, records are encoded by a process per core."""


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
    """Encodes the entries at positions [lo, hi) of `order` (see :func:`encode_all`)."""

    def __init__(
        self,
        entries: Sequence[Entry],
        order: Sequence[int],
        facts: dict[str, TemplateFacts] | Any,
    ) -> None:
        self.entries, self.order, self.facts = entries, order, facts
        self.brief = {e.id: e for e in entries}
        self._sites: dict[str, Site] = {}

    def site(self, e: Entry) -> Site:
        """The relation.Site of an entry, made once per build (and only for entries that
        relate or are related)."""
        found = self._sites.get(e.id)
        if found is None:
            from errexplain.catalog.relation import of_entry

            found = self._sites[e.id] = of_entry(e)
        return found

    def __call__(self, span: tuple[int, int]) -> Encoded:
        rows, store = bytearray(), bytearray()
        row_lens, row_sums, store_lens, store_sums = [], [], [], []
        entries, order, facts = self.entries, self.order, self.facts
        for pos in range(*span):
            e = entries[order[pos]]
            rec = marshal.dumps(prose(e, self))
            store += rec
            store_lens.append(len(rec))
            store_sums.append(zlib.crc32(rec))
            rec = marshal.dumps(candidate_fields(pos, e, facts[e.template][0]))
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


def prose(entry: Entry, enc: Encoder) -> tuple[Any, ...]:
    """The prose of an entry, with its related entries resolved to (id, template, type, why)."""
    from errexplain.catalog.relation import related_why

    fix = entry.example_fix
    related = tuple(
        (r.id, r.template, r.exception, related_why(enc.site(entry), enc.site(r)))
        for r in (enc.brief.get(rid) for rid in entry.related)
        if r is not None
    )
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
        if n < PARALLEL_MIN_ENTRIES or workers < 2:
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
