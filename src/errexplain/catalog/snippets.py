"""The catalog's source snippets: a few lines around each raise site, cut at build time from
the pinned release (tools/snippets.py) and shipped beside the catalog in
``errexplain/_snippets/<project>.snip`` with the project's license. The YAML catalog does not
hold them: the file is keyed by entry id.

File layout (all integers little-endian)::

    b"ERRXSNP1"  u32 count  u32 zdict_len  u32 meta_len
    meta (UTF-8 lines `key<TAB>value`: project, license, license_file, source)
    zdict (a zlib preset dictionary)
    count x (8-byte id, u32 offset, u32 length), sorted by id    blobs (zlib, with zdict)

A blob is ``release \\t path \\t first_line \\t raise_line \\n`` followed by the lines. A lookup
reads the header and bisects the table on disk, so the piped fast path pays one small read.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.models import Snippet

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import BinaryIO

MAGIC = b"ERRXSNP1"
ROW = 18
BLOCK = 16


def _u32(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 4], "little")


def pack(meta: str, zdict: bytes, snippets: Iterable[tuple[str, str]]) -> bytes:
    """The file for (entry id, snippet text) pairs, given in an order that puts snippets of
    one file next to each other."""
    import zlib

    items = list(snippets)
    rows: list[bytes] = []
    blocks: list[bytes] = []
    offset = 0
    for start in range(0, len(items), BLOCK):
        chunk = items[start : start + BLOCK]
        c = zlib.compressobj(9, zdict=zdict) if zdict else zlib.compressobj(9)
        data = c.compress("\0".join(t for _, t in chunk).encode()) + c.flush()
        where = offset.to_bytes(4, "little") + len(data).to_bytes(4, "little")
        rows += [
            bytes.fromhex(i) + where + k.to_bytes(2, "little") for k, (i, _) in enumerate(chunk)
        ]
        blocks.append(data)
        offset += len(data)
    rows.sort()
    meta_b = meta.encode()
    head = MAGIC + b"".join(n.to_bytes(4, "little") for n in (len(rows), len(zdict), len(meta_b)))
    return head + meta_b + zdict + b"".join(rows) + b"".join(blocks)


def read(path: str, entry_id: str) -> Snippet | None:
    """The snippet of one entry in a snippet file, or None (no file, no such id, a damaged
    file: a snippet is a nicety, never an error)."""
    try:
        key = bytes.fromhex(entry_id)
        # unbuffered: the search reads a score of small rows at scattered offsets, and a
        # buffered file reads 8 KB around each of them
        with open(path, "rb", buffering=0) as fh:
            return _find(fh, key)
    except (OSError, ValueError, EOFError):
        return None


def parse_meta(data: bytes) -> dict[str, str]:
    """`key<TAB>value` lines (not JSON: importing json imports re, a third of the fast path)."""
    pairs = (ln.partition("\t") for ln in data.decode().splitlines())
    return {k: v for k, _, v in pairs}


def format_meta(meta: dict[str, str]) -> str:
    return "".join(f"{k}\t{v}\n" for k, v in sorted(meta.items()))


def _find(fh: BinaryIO, key: bytes) -> Snippet | None:
    import zlib

    read_at = _reader(fh)
    head = read_at(0, 20)
    if head[:8] != MAGIC:
        return None
    count, zlen, mlen = _u32(head, 8), _u32(head, 12), _u32(head, 16)
    table_at = 20 + mlen + zlen
    lo, hi = 0, count
    while lo < hi:
        mid = (lo + hi) // 2
        row = read_at(table_at + mid * ROW, ROW)
        if row[:8] == key:
            meta = parse_meta(read_at(20, mlen))
            blob = read_at(table_at + count * ROW + _u32(row, 8), _u32(row, 12))
            d = zlib.decompressobj(zdict=read_at(20 + mlen, zlen)) if zlen else zlib.decompressobj()
            text = d.decompress(blob).decode().split("\0")[int.from_bytes(row[16:18], "little")]
            return parse_blob(text, meta.get("license"))
        lo, hi = (mid + 1, hi) if row[:8] < key else (lo, mid)
    return None


def _reader(fh: BinaryIO) -> Callable[[int, int], bytes]:
    def read_at(at: int, n: int) -> bytes:
        fh.seek(at)
        data = fh.read(n)
        if len(data) != n:
            raise EOFError
        return data

    return read_at


def parse_blob(text: str, license_name: str | None) -> Snippet:
    head, _, body = text.partition("\n")
    release, path, first, at = head.split("\t")
    return Snippet(
        "catalog", release, path, int(first), int(at), tuple(body.split("\n")), license_name
    )


def catalog_snippet(project: str, entry_id: str) -> Snippet | None:
    """The snippet the catalog ships for an entry, if any."""
    from errexplain.catalog.locate import snippets_file

    path = snippets_file(project)
    return read(path, entry_id) if path else None
