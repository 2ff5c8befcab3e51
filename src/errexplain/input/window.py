"""Keep only the neighbourhood of traceback-like lines of a huge log, a block at a time.

A line "looks interesting" when it matches INTERESTING. It is kept together with the `before`
lines above it and `after` lines from it down (windows merge). Blocks of about 8 MB are
scanned with one regex search each, and lines are only counted with `bytes.find`/`count`, so a
1 GB log of ordinary log lines costs little more than reading it.

Bounds (:mod:`errexplain.bounds`): a line longer than LINE_BYTES is cut to that length (the rest
is counted as skipped); once the kept lines reach INPUT_BYTES - TAIL_BYTES no more windows are
kept, but the last TAIL_BYTES of the input always are, so a log dense with error-like lines
still keeps the traceback it ends with.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.bounds import LINE_BYTES

if TYPE_CHECKING:
    from typing import BinaryIO

# [ \t]* rather than \s*: in a multi-line block, \s* would run across line ends
INTERESTING = (
    rb"Traceback \(most recent|^[ \t]*File \"|Error\b|Exception\b|Error[:(]|"
    rb"Warning:|^[ \t]*\|?[ \t]*\+|During handling|direct cause"
    # error log lines and HTTP error bodies (issue #9): `ERROR ...`, `error: ...`, `{"error": `,
    # `{"detail": ...}`
    rb"|ERROR|error[:\"']|detail[\"']"
)
BLOCK = 4 * 1024 * 1024
KEYWORDS = (
    b"Traceback (most recent",
    b'File "',
    b"Error",
    b"Exception",
    b"Warning:",
    b"During handling",
    b"direct cause",
    b"+",
    b"ERROR",
    b"error",
    b"detail",
)
"""Every INTERESTING match contains one of these: `bytes.find` locates candidates at memory
speed, and the regex only confirms their lines (a regex scan of every byte is ~30x slower)."""


def bound_lines(buf: bytes, limit: int = LINE_BYTES) -> tuple[bytes, int]:
    """`buf` with every line longer than `limit` bytes cut to `limit` (its line end kept), and
    the number of bytes cut. Linear: it jumps `limit` bytes at a time over ordinary lines."""
    if len(buf) <= limit:
        return buf, 0
    parts: list[bytes] = []
    pos = done = cut = 0
    n = len(buf)
    while pos + limit < n:
        nl = buf.rfind(b"\n", pos, pos + limit + 1)
        if nl >= 0:
            pos = nl + 1
            continue
        end = buf.find(b"\n", pos + limit)  # a long line starts at pos
        stop = n if end < 0 else end
        parts.append(buf[done : pos + limit])
        cut += stop - pos - limit
        done = pos = stop
    if not parts:
        return buf, 0
    parts.append(buf[done:])
    return b"".join(parts), cut


def _line_start(buf: bytes, pos: int) -> int:
    return buf.rfind(b"\n", 0, pos) + 1


def _back(buf: bytes, start: int, lines: int, floor: int) -> int:
    """Start of the line `lines` lines above the line starting at `start` (not below floor)."""
    for _ in range(lines):
        if start <= floor:
            return floor
        start = buf.rfind(b"\n", floor, start - 1) + 1 or floor
    return max(start, floor)


def _forward(buf: bytes, start: int, lines: int) -> tuple[int, int]:
    """(end of `lines` lines from `start`, lines still wanted when the buffer ran out)."""
    end = start
    for i in range(lines):
        nl = buf.find(b"\n", end)
        if nl < 0:
            return len(buf), lines - i
        end = nl + 1
    return end, 0


class Windows:
    """Feed complete lines block by block; collect the kept bytes and count the skipped."""

    def __init__(self, before: int, after: int, limit: int, tail: int = 0) -> None:
        import re

        self.pattern = re.compile(INTERESTING, re.MULTILINE)
        self.before, self.after, self.limit = before, after, limit - tail
        self.kept: list[bytes] = []
        self.kept_size = self.total = self.line_cut = 0
        self.cut = False
        self.tail_size = tail
        self.tail = b""  # after the cut: the input's last lines, at most `tail` bytes
        self._overlap = b""  # the previous buffer's last `before` lines (already counted)
        self._pending = 0  # `after` lines still owed from the previous buffer

    def _emit(self, buf: bytes, a: int, b: int) -> None:
        if b > a:
            self.kept.append(buf[a:b])
            self.kept_size += b - a
            self.cut = self.cut or self.kept_size > self.limit

    def feed(self, lines: bytes) -> None:
        """Take a block that ends with a complete line."""
        lines, dropped = bound_lines(lines)
        self.total += dropped
        self.line_cut += dropped
        if self.cut:
            self.total += len(lines)
            self._keep_tail(lines)
            return
        buf = self._overlap + lines
        base = len(self._overlap)
        self.total += len(lines)
        # The overlap holds only lines not emitted yet (they may become context above a match);
        # a window still open from the last block left no overlap.
        done = 0
        if self._pending:
            end, self._pending = _forward(buf, base, self._pending)
            self._emit(buf, base, end)
            done = end
        if not self.cut:
            done = self._scan(buf, base, done)
        if self.kept_size > self.limit:  # the budget ran out in this block: its rest is tail
            self._keep_tail(buf[done:])
            self._overlap = b""
            return
        self._overlap = buf[_back(buf, len(buf), self.before, done) :]

    def _extend(self, buf: bytes, start: int, end: int, trigger: int) -> int:
        """A new trigger line inside the open window: the window now ends `after` lines below
        it. Counting only the lines since the previous trigger keeps dense logs linear."""
        if trigger < 0:  # the window was carried over from the previous block
            new_end, self._pending = _forward(buf, start, self.after)
        elif self._pending:  # the window already runs to the end of this block
            self._pending += buf.count(b"\n", trigger, start)
            new_end = end
        else:
            new_end, self._pending = _forward(buf, end, buf.count(b"\n", trigger, start))
        self._emit(buf, end, new_end)
        return max(end, new_end)

    def _triggers(self, buf: bytes, base: int) -> list[int]:
        """Sorted starts of the lines (from base on) that match INTERESTING."""
        starts: set[int] = set()
        for kw in KEYWORDS:
            pos = buf.find(kw, base)
            while pos >= 0:
                start = _line_start(buf, pos)
                nl = buf.find(b"\n", pos)
                stop = len(buf) if nl < 0 else nl + 1
                if start not in starts and self.pattern.search(buf, start, stop):
                    starts.add(start)
                pos = buf.find(kw, stop) if nl >= 0 else -1
        return sorted(starts)

    def _scan(self, buf: bytes, base: int, done: int) -> int:
        end = done
        trigger = -1
        for start in self._triggers(buf, base):
            if start < end:
                end = self._extend(buf, start, end, trigger)
            else:
                a = max(_back(buf, start, self.before, 0), end)
                end, self._pending = _forward(buf, start, self.after)
                self._emit(buf, a, end)
            trigger = start
            if self.cut:
                break
        return end

    def _keep_tail(self, lines: bytes) -> None:
        tail = self.tail + lines
        if len(tail) > self.tail_size:
            tail = tail[tail.find(b"\n", len(tail) - self.tail_size - 1) + 1 :]
        self.tail = tail

    def text(self) -> bytes:
        """The kept bytes: the windows, then the input's last lines if they were cut off."""
        return b"".join((*self.kept, self.tail))

    @property
    def skipped(self) -> int:
        return self.total - self.kept_size - len(self.tail)


def filter_stream(
    head: bytes, stream: BinaryIO, before: int, after: int, limit: int, tail: int = 0
) -> Windows:
    """Run the windows over `head` and the rest of the stream, a block at a time. A line that
    has not ended after LINE_BYTES is cut there and the rest of it read past."""
    win = Windows(before, after, limit, tail)
    carry, dropping = head, False
    while True:
        block = stream.read(BLOCK)
        eof = not block
        if dropping:
            nl = block.find(b"\n")
            skip = len(block) if nl < 0 else nl + 1
            win.total += skip
            win.line_cut += skip if nl < 0 else nl  # the line end was kept (see below)
            block, dropping = block[skip:], nl < 0 and not eof
            if dropping:
                continue
        data = carry + block
        if eof:
            if data:
                win.feed(data)
            return win
        cut = data.rfind(b"\n") + 1
        if cut:
            win.feed(data[:cut])
        carry = data[cut:]
        if len(carry) > LINE_BYTES:  # a line longer than the bound: keep its start, ended
            win.feed(carry[:LINE_BYTES] + b"\n")
            win.total += len(carry) - LINE_BYTES - 1
            win.line_cut += len(carry) - LINE_BYTES
            carry, dropping = b"", True
