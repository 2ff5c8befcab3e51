"""Building an index file (:mod:`errexplain.catalog.index` reads it): the bytes of every blob
from the catalog's entries. Kept apart from the reader so that a run that only reads the
prebuilt index (every explain) never loads the builder's code."""

from __future__ import annotations

import marshal
import sys
import zlib

from errexplain._startup import TYPE_CHECKING, astuple
from errexplain.catalog import index as _ix
from errexplain.catalog.index import FORMAT, MAGIC, PATH_BUCKETS, SITE_BUCKETS, _slot, head_key
from errexplain.match.normalize import TemplateFacts, filing_words, template_facts, word_stats
from errexplain.match.sites import site_table

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any

    from errexplain.match.release import Facts
    from errexplain.models import Entry, Project


def _bucket_order(
    entries: Sequence[Entry], known: Mapping[str, TemplateFacts]
) -> tuple[list[int], dict[str, Any]]:
    """Order entries by the word they are filed under; return (order, rare) where
    ``rare[word] = (first_row, count, seconds)`` and ``seconds`` holds each member's second
    filing word (see :func:`errexplain.match.normalize.filing_words`)."""
    filed = filing_words([e.template for e in entries], known)
    buckets: dict[str, list[int]] = {}
    generic: list[int] = []
    for i, f in enumerate(filed):
        if f is None:
            generic.append(i)
        else:
            buckets.setdefault(f[0], []).append(i)
    order: list[int] = []
    rare: dict[str, Any] = {}
    for word in sorted(buckets):
        members = sorted(buckets[word], key=lambda i: entries[i].id)
        seconds = tuple(filed[i][1] for i in members)  # type: ignore[index]
        rare[word] = (len(order), len(members), seconds)
        order.extend(members)
    # entries filed under no word (mostly message-less sites) are found by their file and
    # function (the sites table): in file and line order, a function's sites are a few runs
    # of near rows, which a frame's lookup reads together (Index.sites_at)
    order.extend(sorted(generic, key=lambda i: _site_order(entries[i])))
    return order, rare


def _site_order(e: Entry) -> tuple[str, int, str]:
    return (e.source.path or "", e.source.line or 0, e.id)


def build_bytes(
    entries: Sequence[Entry],
    projects: Iterable[Project],
    key: str,
    release_facts: Iterable[Facts] = (),
    template_facts: Mapping[str, TemplateFacts] | None = None,
    parallel: bool | None = None,
) -> bytes:
    """Compile entries into the bytes of an index file (`template_facts`: those already
    computed, by template; see :class:`~errexplain.catalog.load.Catalog`). The records are
    encoded by a process per core when there are many, or as `parallel` says (see
    :func:`~errexplain.catalog.parts.workers`): the bytes are the same."""
    from errexplain.catalog.parts import intern_single_chars, no_gc

    intern_single_chars()
    with no_gc():
        return _build_bytes(entries, projects, key, tuple(release_facts), template_facts, parallel)


def _build_bytes(
    entries: Sequence[Entry],
    projects: Iterable[Project],
    key: str,
    release_facts: tuple[Facts, ...],
    template_facts: Mapping[str, TemplateFacts] | None,
    parallel: bool | None,
) -> bytes:
    known = _complete_facts(entries, template_facts)
    from errexplain.catalog.records import Encoder, Pending

    encoder = Encoder(entries, known)
    pending = Pending(encoder, parallel)  # the rows and prose, while we go on
    try:
        order, rare = _bucket_order(entries, known)
        bases = {e.exception: e.base for e in entries if e.base and e.base != e.exception}
        nslots, slots, slot_offs = _slots(rare)
        ids, fuzzy, sites, site_spans = _lookups(entries, order, known, release_facts)
        done = encoder.in_order(pending.result(), order)
    finally:
        pending.close()
    from itertools import accumulate, chain, pairwise

    slot_sums = [zlib.crc32(slots[a:b]) for a, b in pairwise(slot_offs)]
    page = _ix.OFFS_PAGE  # (read at build time: a test writes small pages)
    rows, store = done.rows, done.store
    row_offs = accumulate(done.row_lens, initial=0)
    store_offs = accumulate(done.store_lens, initial=0)
    offs = _uint32s(
        chain(row_offs, slot_offs, store_offs, done.row_sums, slot_sums, done.store_sums)
    )
    releases, release_meta = _release_buckets(release_facts)
    meta = marshal.dumps(
        {
            "format": FORMAT,
            "key": key,
            "n": len(order),
            "nslots": nslots,
            "bases": bases,
            "projects": [astuple(p) for p in projects],
            "history": sorted({f.project for f in release_facts}),
            "heads": _heads(entries, order),
            "offs_pages": tuple(zlib.crc32(offs[i : i + page]) for i in range(0, len(offs), page)),
            "releases": release_meta,
            "sites": site_spans,
        }
    )
    blobs = (meta, offs, slots, rows, ids, fuzzy, sites, store, releases)
    head = MAGIC + b"".join(len(b).to_bytes(8, "little") for b in blobs)
    head += b"".join(zlib.crc32(b).to_bytes(4, "little") for b in blobs)
    head += zlib.crc32(head).to_bytes(4, "little")
    return b"".join((head, *blobs))


def _lookups(
    entries: Sequence[Entry],
    order: Sequence[int],
    known: Mapping[str, TemplateFacts],
    release_facts: Sequence[Facts] = (),
) -> tuple[bytes, bytes, bytes, tuple[tuple[int, int, int], ...]]:
    """The ``ids``, ``fuzzy`` and ``sites`` blobs, and where each ``sites`` bucket lies. An id
    a history build merged into another wording (``formerly``) finds that wording's row."""
    ids = marshal.dumps(_rows_by_id(entries, order, release_facts))
    stats = word_stats([entries[i].template for i in order], known)
    fuzzy = marshal.dumps((stats.postings, stats.idf, stats.weight_sums))
    ordered = [entries[i] for i in order]
    sites, spans = _site_buckets(site_table(ordered), [bool(e.template) for e in ordered])
    return ids, fuzzy, sites, spans


def _rows_by_id(
    entries: Sequence[Entry], order: Sequence[int], release_facts: Sequence[Facts]
) -> dict[str, int]:
    rows = {entries[i].id: pos for pos, i in enumerate(order)}
    for f in release_facts:
        for old, new in f.formerly:
            if old not in rows and new in rows:
                rows[old] = rows[new]
    return rows


def _site_buckets(
    table: Mapping[str, tuple[int, ...]], messaged: Sequence[bool]
) -> tuple[bytes, tuple[tuple[int, int, int], ...]]:
    """The ``sites`` blob and (offset, length, CRC-32) of each of its buckets. A key's value is
    its positions and, in the same order, a byte each: 1 for an entry with a message (a frame's
    lookup for a message-less error reads only the rows of the others)."""
    blob = bytearray()
    items = ((k, (table[k], bytes(messaged[p] for p in table[k]))) for k in sorted(table))
    spans = _append_buckets(blob, _buckets(items, SITE_BUCKETS))
    return bytes(blob), spans


def _buckets(items: Iterable[tuple[str, Any]], n: int) -> tuple[bytes, ...]:
    """A string-keyed map in `n` marshalled parts by ``crc32(key)``, keys in the given order, so
    that a lookup loads one small part, not the whole map."""
    parts: list[dict[str, Any]] = [{} for _ in range(n)]
    for key, value in items:
        parts[_slot(key, n)][key] = value
    return tuple(marshal.dumps(p) for p in parts)


def _append_buckets(blob: bytearray, parts: Iterable[bytes]) -> tuple[tuple[int, int, int], ...]:
    """Append the parts to `blob`; (offset in it, length, CRC-32) of each."""
    spans = []
    for part in parts:
        spans.append((len(blob), len(part), zlib.crc32(part)))
        blob += part
    return tuple(spans)


def _uint32s(values: Iterable[int]) -> bytes:
    """Values as little-endian uint32s."""
    from array import array

    out = array("I", values)
    if sys.byteorder != "little":  # pragma: no cover - big-endian hosts
        out.byteswap()
    return out.tobytes()


def _complete_facts(
    entries: Sequence[Entry], known: Mapping[str, TemplateFacts] | None
) -> Mapping[str, TemplateFacts]:
    """The facts of every template of `entries`: `known` ones, the rest computed."""
    missing = {e.template for e in entries if not known or e.template not in known}
    if not missing:
        return known or {}
    out = dict(known or {})
    out.update((t, template_facts(t)) for t in missing)
    return out


def _heads(entries: Sequence[Entry], order: Sequence[int]) -> tuple[int, bytes, bytes]:
    """Row of every entry that another names as its lineage head: an older wording's answer
    needs its head, and this map spares loading every id. Stored as (the longest id's length,
    the ids' keys of one width in sorted order, their rows as uint32s): two byte strings
    unmarshal at the speed of a copy, where a dict of 2,000 ids cost a fifth of a millisecond
    at every start (:func:`~errexplain.catalog.index.head_row` searches it)."""
    wanted = {e.lineage for e in entries if e.lineage}
    heads = [(entries[i].id, pos) for pos, i in enumerate(order) if entries[i].id in wanted]
    longest = max((len(i.encode()) for i, _ in heads), default=0)
    rows = sorted((head_key(i, longest), pos) for i, pos in heads)
    if any(k is None for k, _ in rows):
        raise ValueError("an entry id longer than 255 bytes")
    return longest, b"".join(k for k, _ in rows if k), _uint32s(r for _, r in rows)


def _release_buckets(
    facts: Iterable[Facts],
) -> tuple[bytes, dict[str, tuple[tuple[str, ...], tuple[tuple[int, int, int], ...]]]]:
    """The ``releases`` blob (every project's path buckets, one after another) and, for meta,
    each project's release order and (offset, length, CRC-32) of each of its buckets."""
    blob = bytearray()
    where = {}
    for f in facts:  # a paste's few frame paths cost a few small loads, not the whole map
        spans = _append_buckets(blob, _buckets(f.paths.items(), PATH_BUCKETS))
        where[f.project] = (tuple(f.order), spans)
    return bytes(blob), where


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
