"""Whole logs for `errexplain scan`: which files a path names, how to open them (compressed or
not), and the regions of a log worth parsing, found without decoding or splitting every line.

A log is read in blocks of BLOCK bytes into one reused buffer. In each block, candidate lines are
found by `memchr` (`bytes.find` of one byte) on an anchor byte, checking only what follows it:

* `E` starting `Error`, `Exception` or `ERROR` (exception lines, error log lines),
* `{` followed on its line by `error` or `detail` (HTTP error bodies),

and one `bytes.find` of `Traceback (most recent call last)` (a traceback whose exception has
neither word, such as `KeyboardInterrupt`, is found by its header; no single byte of it is rare
in server logs, so this search costs more than the two above together).

A block where an anchor byte is common (more than one per _DENSE bytes) falls back to one
`bytes.find` per word, which is slower but bounded. Each candidate opens a window of lines
around it (BEFORE above, AFTER below); overlapping windows merge into one region, and only
regions are decoded and parsed. In a run of traceback header lines, each at most HEADER_AFTER
lines below the one before (an error-dense log), the windows join into one whatever lies
between the headers, so the candidates there are not looked for (one `bytes.split` on the header
and a line count per gap; the regions are the same). A region never grows past MAX_REGION bytes:
a dense log is cut at a traceback header that no chain line (`During handling of the above
exception ...`) ties to the traceback above (else at a line end), so memory stays bounded
whatever the input. An error at the very end of the input is part of the last region.
"""

from __future__ import annotations

import os
from itertools import accumulate, pairwise, repeat

from errexplain._startup import TYPE_CHECKING, Record
from errexplain.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import BinaryIO

    Buffer = bytes | bytearray

BLOCK = 2 * 1024 * 1024
"""Bytes read at a time: small enough that the byte searches after the read find the block
still in the CPU cache (1-2 MB blocks scanned a 1 GB log in about 10 % less CPU than 8 MB)."""
BEFORE, AFTER, HEADER_AFTER = 40, 12, 120
"""Lines kept above and below a candidate line, and below a traceback header."""
CONTEXT = 256 * 1024
"""At most this much of a block's end is kept as context for the next block."""
MAX_REGION = 2 * 1024 * 1024
HEADER = b"Traceback (most recent call last)"
_E_WORDS = (b"Error", b"Exception", b"ERROR")
_BODY_WORDS = (b"error", b"detail")
_DENSE = 2048
"""An anchor byte seen more often than once per this many bytes: search per keyword instead."""
COMPRESSED = {".gz": "gzip", ".bz2": "bz2", ".xz": "lzma", ".zst": "zstandard"}


class Region(Record):
    """Bytes of a log worth parsing: `offset` is where they start in the (decompressed) input."""

    offset: int
    data: bytes


def _line_start(buf: Buffer, pos: int) -> int:
    return buf.rfind(b"\n", 0, pos) + 1


def _back(buf: Buffer, start: int, lines: int, floor: int) -> int:
    """Start of the line `lines` lines above the line starting at `start` (not below floor)."""
    for _ in range(lines):
        if start <= floor:
            return floor
        start = buf.rfind(b"\n", floor, start - 1) + 1
    return max(start, floor)


def _forward(buf: Buffer, start: int, lines: int, end: int) -> tuple[int, int]:
    """(end of `lines` lines from `start`, lines still owed when buf[:end] ran out)."""
    stop = start
    for i in range(lines):
        nl = buf.find(b"\n", stop, end)
        if nl < 0:
            return end, lines - i
        stop = nl + 1
    return stop, 0


def _extend(buf: Buffer, line: int, after: int, stop: int, owed: int, end: int) -> tuple[int, int]:
    """(stop, owed) of an open window that ends at `stop` (and is owed `owed` lines past the
    buffer's end) once a candidate at `line` inside it wants `after` lines: the lines already in
    the window are counted in C, only those past `stop` are walked, and the window never
    shrinks, also when both run past the buffer's end."""
    more = after - buf.count(b"\n", line, stop)
    if stop < end:
        return _forward(buf, stop, more, end) if more > 0 else (stop, owed)
    return stop, max(owed, more)


def _line_end(buf: Buffer, pos: int, end: int) -> int:
    nl = buf.find(b"\n", pos, end)
    return end if nl < 0 else nl + 1


def _finds(buf: Buffer, start: int, end: int, words: tuple[bytes, ...]) -> list[int]:
    out = []
    for word in words:
        pos = buf.find(word, start, end)
        while pos >= 0:
            out.append(pos)
            pos = buf.find(word, _line_end(buf, pos, end), end)
    return out


def _anchored(
    buf: Buffer, start: int, end: int, byte: bytes, words: tuple[bytes, ...], near: bool = False
) -> list[int]:
    """Positions of `words` found through one anchor byte (`memchr` speed): each word starts
    with the byte, or (`near`) follows it on its line. Too many anchors: one find per word."""
    out = []
    most = max((end - start) // _DENSE, 64)
    seen = 0
    pos = buf.find(byte, start, end)
    while pos >= 0:
        seen += 1
        if seen > most:
            return _finds(buf, start, end, words)
        if near:
            stop = min(_line_end(buf, pos, end), pos + 400)
            if any(buf.find(w, pos, stop) >= 0 for w in words):
                out.append(pos)
        elif buf.startswith(words, pos):
            out.append(pos)
        pos = buf.find(byte, pos + 1, end)
    return out


def candidates(buf: Buffer, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(line start, lines wanted below it) of every candidate line in buf[start:end], sorted."""
    end = len(buf) if end is None else end
    hits = _anchored(buf, start, end, b"E", _E_WORDS)
    hits += _anchored(buf, start, end, b"{", _BODY_WORDS, near=True)
    wanted = {_line_start(buf, pos): AFTER for pos in hits}
    for pos in _finds(buf, start, end, (HEADER,)):
        wanted[_line_start(buf, pos)] = HEADER_AFTER
    return sorted(wanted.items())


RUN = 8
"""At least this many traceback headers in the first RUN_PROBE bytes of a block: look for runs
of them in the block first (a guess that costs a small search: the regions are the same)."""
RUN_PROBE = 64 * 1024


def _runs(buf: Buffer, start: int, end: int) -> list[tuple[int, int]]:
    """(first, last) line starts of each run of traceback header lines in buf[start:end] where
    each header is at most HEADER_AFTER lines below the one before it: the header windows of a
    run join into one, whatever other candidates lie between them (an error-dense log)."""
    if buf.count(HEADER, start, min(start + RUN_PROBE, end)) < RUN:
        return []
    pieces = bytes(buf[start:end]).split(HEADER)
    ends = list(accumulate(map(len, pieces)))  # header k starts at ends[k] + k * len(HEADER)
    gaps = list(map(bytes.count, pieces[1:-1], repeat(b"\n")))  # lines from one to the next
    far = [] if max(gaps) <= HEADER_AFTER else [k for k, g in enumerate(gaps) if g > HEADER_AFTER]
    runs, first = [], 0
    for k in [*far, len(gaps)]:
        if k > first:  # headers first..k joined
            a, b = (start + ends[j] + j * len(HEADER) for j in (first, k))
            runs.append((_line_start(buf, a), _line_start(buf, b)))
        first = k + 1
    return runs


def _candidates(buf: Buffer, start: int, end: int) -> list[tuple[int, int, int]]:
    """`candidates` with a third field: for the first header of a run, the line start of its
    last header (the window reaches that header's window; the candidates between are inside
    it and are not looked for), else -1."""
    out: list[tuple[int, int, int]] = []
    for first, last in _runs(buf, start, end):
        out += [(line, after, -1) for line, after in candidates(buf, start, first)]
        out.append((first, HEADER_AFTER, last))
        start = last
    return out + [(line, after, -1) for line, after in candidates(buf, start, end)]


def _cuts(buf: Buffer, start: int, end: int, most: int) -> list[int]:
    """Cut points of [start, end) into pieces of at most `most` bytes (unless a line is
    longer), each cut at a traceback header in the piece's second half that does not follow
    a chain line (`During handling of the above exception ...`), else at a line start."""
    cuts = [start]
    while end - cuts[-1] > most:
        a = cuts[-1]
        cut = _unchained_header(buf, a + most // 2, a + most)
        cut = _line_start(buf, cut) if cut >= 0 else buf.rfind(b"\n", a, a + most) + 1
        if cut <= a:
            cut = _line_end(buf, a + most, end)
        cuts.append(min(cut, end))
    cuts.append(end)
    return cuts


CHAINS = (b"During handling of the above exception", b"The above exception was the direct")
CHAIN_REACH = 400
"""Bytes above a header line looked at for a chain line (which ties the traceback to the one
above it: a cut there would part them)."""


def _unchained_header(buf: Buffer, lo: int, hi: int) -> int:
    """The last traceback header in buf[lo:hi] whose line does not follow a chain line, or -1."""
    at = buf.rfind(HEADER, lo, hi)
    while at >= 0:
        line = _line_start(buf, at)
        if not any(buf.find(c, max(line - CHAIN_REACH, 0), line + 1) >= 0 for c in CHAINS):
            return at
        at = buf.rfind(HEADER, lo, line)
    return -1


def _emit(buf: Buffer, base: int, start: int, end: int, most: int) -> list[Region]:
    cuts = _cuts(buf, start, end, most)
    return [Region(base + a, bytes(buf[a:b])) for a, b in pairwise(cuts) if b > a]


class RegionFinder:
    """Turns a buffer of complete lines into regions. The caller keeps the bytes from the
    index `feed` returns at the front of its next buffer: context lines for a candidate near the
    start of the next block, or a region still open at the end of this one."""

    def __init__(self, max_region: int = MAX_REGION) -> None:
        self.max_region = max_region
        self.open = False  # whether the kept bytes are a region still owed `owed` lines
        self.owed = 0

    def feed(self, buf: Buffer, carried: int, end: int, base: int) -> tuple[list[Region], int]:
        """buf[:carried] was kept from the last call, buf[carried:end] are new lines; `base`
        is the input offset of buf[0]. Returns the regions completed and the index to keep."""
        out: list[Region] = []
        start = stop = -1
        if self.open:
            start = 0
            stop, self.owed = _forward(buf, carried, self.owed, end)
        for line, after, last in _candidates(buf, carried, end):
            if start >= 0 and line <= stop:  # inside the open window: extend it
                stop, self.owed = _extend(buf, line, after, stop, self.owed, end)
            else:
                if start >= 0:
                    out += _emit(buf, base, start, stop, self.max_region)
                start = _back(buf, line, BEFORE, max(stop, 0))
                stop, self.owed = _forward(buf, line, after, end)
            if last > line:  # a run of headers: the window reaches the last one's
                far, owed = _forward(buf, last, after, end)
                stop, self.owed = max(stop, far), max(self.owed, owed)
        self.open = start >= 0 and (self.owed > 0 or stop >= end)
        if self.open:
            cuts = _cuts(buf, start, end, self.max_region)
            out += [Region(base + a, bytes(buf[a:b])) for a, b in pairwise(cuts[:-1])]
            keep = cuts[-2]
            self.open = keep < end
            return out, keep
        if start >= 0:
            out += _emit(buf, base, start, stop, self.max_region)
        keep = _back(buf, end, BEFORE, max(stop, 0))
        if end - keep > CONTEXT:
            keep = _line_end(buf, end - CONTEXT, end)
        return out, keep

    def close(self, buf: Buffer, end: int, base: int) -> list[Region]:
        """The region still open at the end of the input, if any."""
        if self.open and end > 0:
            self.open = False
            return [Region(base, bytes(buf[:end]))]
        return []


def regions(
    stream: BinaryIO,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
    max_region: int | None = None,
) -> Iterator[Region]:
    """The regions of a stream worth parsing, reading at most `limit` bytes (a range of a file
    that ends at a line end); `progress` is called with the bytes read so far. One buffer of
    BLOCK bytes is reused: what a block leaves open is moved to its front."""
    finder = RegionFinder(max_region or MAX_REGION)
    buf = bytearray(BLOCK)
    view = memoryview(buf)
    keep = carried = base = done = 0  # kept bytes (carried: whole lines of them); offsets
    while True:
        if len(buf) - keep < len(buf) // 4:  # kept bytes fill the buffer (very long lines)
            view.release()
            buf.extend(bytes(len(buf)))
            view = memoryview(buf)
        room = len(buf) - keep
        want = room if limit is None else min(room, limit - done)
        n = stream.readinto(view[keep : keep + want]) if want > 0 else 0  # type: ignore[attr-defined]
        if not n:
            break
        done += n
        end = keep + n
        cut = buf.rfind(b"\n", carried, end) + 1 or (end if end == len(buf) else 0)
        if cut:
            found, drop = finder.feed(buf, carried, cut, base)
            yield from found
            buf[: end - drop] = buf[drop:end]
            base, keep, carried = base + drop, end - drop, cut - drop
        else:
            keep = end
        if progress is not None:
            progress(done)
    if keep > carried:  # a last line with no line end
        if keep < len(buf):
            buf[keep : keep + 1] = b"\n"
            keep += 1
        last, drop = finder.feed(buf, carried, keep, base)
        yield from last
        buf[: keep - drop] = buf[drop:keep]
        base, keep = base + drop, keep - drop
    yield from finder.close(buf, keep, base)


class LogFile(Record):
    """An opened log: `stream` gives its (decompressed) bytes; `raw` is the file on disk, whose
    position tells how much of it was read (progress), or None for stdin."""

    stream: BinaryIO
    raw: BinaryIO | None
    size: int

    def close(self) -> None:
        self.stream.close()
        if self.raw is not None:
            self.raw.close()


def open_log(path: str) -> LogFile:
    """Open a log file, decompressing it by its extension."""
    module = COMPRESSED.get(os.path.splitext(path)[1].lower())
    if module == "zstandard" and not zstd_available():
        raise InputError(
            f"{path}: reading .zst needs the optional zstandard module",
            hint="pip install 'errexplain[zstd]'",
        )
    try:
        raw: BinaryIO = open(path, "rb", buffering=0)  # noqa: SIM115 (closed by LogFile.close)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file", hint="check the path") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    size = os.fstat(raw.fileno()).st_size
    if module is None:
        return LogFile(raw, raw, size)
    return LogFile(_decompressing(module, raw), raw, size)


def _decompressing(module: str, raw: BinaryIO) -> BinaryIO:
    if module == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    if module == "bz2":
        import bz2

        return bz2.BZ2File(raw)  # type: ignore[return-value]
    if module == "lzma":
        import lzma

        return lzma.LZMAFile(raw)  # type: ignore[return-value]
    import zstandard

    stream: BinaryIO = zstandard.ZstdDecompressor().stream_reader(raw)
    return stream


def zstd_available() -> bool:
    """Whether the optional zstandard module is installed (errexplain[zstd])."""
    import importlib.util

    return importlib.util.find_spec("zstandard") is not None


def expand(paths: list[str]) -> list[str]:
    """Files named by the paths: a directory stands for every file under it (sorted, hidden
    files and directories skipped); `-` is stdin. A missing path is an error."""
    out: list[str] = []
    for path in paths:
        if path == "-" or os.path.isfile(path):
            out.append(path)
        elif os.path.isdir(path):
            out.extend(_walk(path))
        elif not os.path.exists(path):
            raise InputError(f"{path}: no such file or directory", hint="check the path")
        else:
            raise InputError(f"{path}: not a regular file or directory")
    return list(dict.fromkeys(out))


def _walk(top: str) -> list[str]:
    found: list[str] = []
    for root, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(root, f) for f in sorted(files) if not f.startswith("."))
    return found


SPLIT_SAMPLE = 4 * 1024 * 1024
SPLIT_LINES = 2 * (BEFORE + HEADER_AFTER)
"""A range boundary has no candidate line within this many (average) lines on either side."""


def quiet_split(
    path: str, parts: int, seamless: Callable[[bytes, bytes], bool] | None = None
) -> list[tuple[int, int]]:
    """Byte ranges of an uncompressed file for `parts` workers, each boundary moved to a line
    start with no candidate line near it (SPLIT_LINES), so that no window crosses it and every
    error is read whole by one worker. Where there is none within SPLIT_SAMPLE bytes (an
    error-dense log), the boundary goes before a traceback header line that `seamless(the
    traceback above, the traceback below)` accepts (the log parses the same cut there), else
    it is dropped: fewer, longer ranges."""
    size = os.path.getsize(path)
    cuts = [0]
    with open(path, "rb") as fh:
        for k in range(1, parts):
            cut = _quiet_point(fh, size * k // parts)
            if cut is None and seamless is not None:
                cut = _seam(fh, size * k // parts, seamless)
            if cut is not None and cuts[-1] < cut < size:
                cuts.append(cut)
    cuts.append(size)
    return list(pairwise(cuts))


def _quiet_point(fh: BinaryIO, target: int) -> int | None:
    lo = max(target - SPLIT_SAMPLE // 4, 0)
    fh.seek(lo)
    buf = fh.read(SPLIT_SAMPLE)
    margin = int(len(buf) / max(buf.count(b"\n"), 1) * SPLIT_LINES) + 1
    hits = [line for line, _ in candidates(buf)]
    cand = target - lo
    while cand + margin < len(buf):
        near = [h for h in hits if cand - margin <= h < cand + margin]
        if not near:
            nl = buf.find(b"\n", cand)
            return lo + nl + 1 if nl >= 0 else None
        cand = max(near) + margin + 1
    return None


SEAM_TRIES = 16


def _seam(fh: BinaryIO, target: int, seamless: Callable[[bytes, bytes], bool]) -> int | None:
    """The first of the next SEAM_TRIES traceback header lines at or after `target` that
    `seamless(the traceback above it, the traceback it starts)` accepts."""
    lo = max(target - SPLIT_SAMPLE // 4, 0)
    fh.seek(lo)
    buf = fh.read(SPLIT_SAMPLE)
    heads: list[int] = []  # line starts of the header lines
    tries = 0
    at = buf.find(HEADER)
    while at >= 0 and tries <= SEAM_TRIES:
        line = _line_start(buf, at)
        if not heads or line > heads[-1]:
            heads.append(line)
            tries += len(heads) > 2 and heads[-2] >= target - lo
        at = buf.find(HEADER, at + len(HEADER))
    for a, cut, b in zip(heads, heads[1:], heads[2:], strict=False):
        if cut >= target - lo and seamless(buf[a:cut], buf[cut:b]):
            return lo + cut
    return None
