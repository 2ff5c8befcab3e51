"""Error-dense regions of a log for `errexplain scan`: each distinct traceback parsed once.

A crash-looping server writes the same traceback again and again, differing only in the time
and rank of its log prefixes. A region with several tracebacks is cut into units at its
traceback header lines (errexplain.parse.units). A unit's key is its bytes with the timestamp
of each `[YYYY-MM-DD hh:mm:ss ...]` log prefix at a line start taken out (the parser uses such
a prefix only to tell log records apart, by equality, so the key keeps which of them are equal),
plus the first line of the next unit (what the parser may look at past the unit's end). The
first unit with a key is parsed and checked to be self-contained; its errors are kept in a
bounded cache. Every occurrence, a repeat too, adds its count, ranks, time (from its own
prefixes) and file, so groups, counts, ranks and first/last seen are those of a parse of the
whole region. A region holding a unit that is not self-contained, or bytes that the parser's
cleaning treats across line ends (CR, escapes, NUL), is parsed whole as before.
"""

from __future__ import annotations

import re
from itertools import accumulate, repeat

from errexplain._startup import TYPE_CHECKING, replace
from errexplain.parse.lines import pasted_lines
from errexplain.parse.stamps import stamp
from errexplain.parse.traceback import _key as parser_key
from errexplain.parse.traceback import flushed
from errexplain.parse.units import self_contained

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from errexplain.models import RaisedError

    Fold = tuple[list[tuple[RaisedError, list[str], Callable[[], str]]], int]

CACHE_KEYS = 4096
"""Distinct units whose parse is kept (the oldest is dropped first)."""
MARK, NEXT = b"\x00", b"\x01"
_RANKS = rb"(?:Z|[+-]\d\d:?\d\d)?(?: [A-Z]{1,4}\d{1,6}){0,8}\]"
# The `[stamp ...ranks]` log prefix that opens a unit (the parser's first prefix pattern).
_OPENING = re.compile(rb"\[(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?)(?=" + _RANKS + rb")")
_MARKED = re.compile(rb"\[[\x00\x01]" + _RANKS)
_SUSPECT = (MARK, NEXT, b"\r", b"\x1b")
"""Bytes that the parser's cleaning removes or turns into line ends (NUL is also the mark);
also the C1 control CSI, U+009B (looked for only when its last byte is there)."""
HEADER = b"Traceback (most recent call last)"
_UNCLEAN: tuple[Contribution, ...] = ()


class Contribution:
    """What one error of a unit adds to its region: `pid` numbers its parser key; `needle`
    is the text the dates are read from, `hits` how often the unit shows it, `dated` whether
    a line that shows it carries the unit's stamp, `fixed` the other lines' dates."""

    __slots__ = ("dated", "err", "fixed", "hits", "needle", "pid", "safe")

    def __init__(self, pid: int, err: RaisedError, lines: list[str], marked: list[bool]) -> None:
        self.pid, self.err = pid, err
        self.needle = needle(err)
        self.safe = _safe(self.needle)
        shown = [k for k, ln in enumerate(lines) if self.needle and self.needle in ln]
        self.hits = sum(lines[k].count(self.needle) for k in shown)
        self.dated = any(marked[k] for k in shown)
        self.fixed = tuple(s for k in shown if not marked[k] for s in (stamp(lines[k]),) if s)


def needle(err: RaisedError) -> str:
    """The text whose lines date an error: its message's first line (at most 60 characters),
    or its type when that is shorter than 8."""
    first = err.message.strip().split("\n", 1)[0][:60]
    return first if len(first) >= 8 else err.type or first


def _safe(text: str) -> bool:
    """Whether `text` can never overlap a prefix's timestamp (its count in the bytes of a
    region is then the count of the lines of the units that show it)."""
    if not text or "[" in text or "\ufffd" in text:
        return False
    return not (text[0] in "0123456789-:., " or (text[0] == "T" and text[1:2].isdigit()))


class Memo:
    """The parse of each distinct unit (bounded), and a number for each parser key."""

    def __init__(self, size: int = CACHE_KEYS) -> None:
        self.size = size
        self.units: dict[tuple[object, ...], tuple[Contribution, ...]] = {}
        self.pids: dict[tuple[object, ...], int] = {}
        self.parsed = 0  # bytes parsed (units seen for the first time)

    def get(
        self, key: tuple[bool, bytes, bool], stamps: tuple[bytes | None, bytes | None]
    ) -> tuple[Contribution, ...]:
        """The contributions of a unit: `key` is (whether it starts the region, `\n` + its
        bytes and the next unit's first line with the stamps marked, whether that line is
        there); `stamps` are the stamps marked: the unit's (MARK) and, if it differs, the next
        line's (NEXT)."""
        found = self.units.get(key)
        if found is None:
            found = self._parse(*key, *stamps)
            if len(self.units) >= self.size:
                del self.units[next(iter(self.units))]
            self.units[key] = found
        return found

    def _parse(
        self, first: bool, keyed: bytes, ahead: bool, own: bytes | None, nxt: bytes | None
    ) -> tuple[Contribution, ...]:
        real = keyed
        for mark, raw in ((MARK, own), (NEXT, nxt)):
            if raw is None:
                continue
            if not all(_MARKED.match(keyed, at + 1) for at in _finds(keyed, b"\n[" + mark)):
                return _UNCLEAN  # a marked stamp that the parser would read as text
            real = real.replace(b"\n[" + mark, b"\n[" + raw)
        # the unit and the next unit's first line; at the end of the region, the unit without
        # the region's last line end (a blank last line changes no parse)
        probe = real[1:-1] if real.endswith(b"\n") else real[1:]
        lines = probe.decode("utf-8", errors="replace").split("\n")
        n = len(lines) - 1 if ahead else len(lines)
        self.parsed += len(probe)
        errors = self_contained("\n".join(lines), n, first)
        if errors is None:
            return _UNCLEAN
        marked = [ln.startswith("[\x00") for ln in keyed[1:].decode("utf-8", "replace").split("\n")]
        return tuple(Contribution(self._pid(e), e, lines[:n], marked) for e in errors)

    def _pid(self, err: RaisedError) -> int:
        key = parser_key(err)
        pid = self.pids.get(key)
        if pid is None:
            pid = self.pids[key] = len(self.pids)
        return pid

    def trim(self) -> None:
        """Between regions: forget everything once the parser keys outgrow the bound (a key's
        number must stay the same within a region)."""
        if len(self.pids) > 16 * self.size:
            self.pids.clear()
            self.units.clear()


def _finds(data: bytes, word: bytes) -> list[int]:
    out, at = [], data.find(word)
    while at >= 0:
        out.append(at)
        at = data.find(word, at + 1)
    return out


class _Merged:
    __slots__ = ("count", "first", "hi", "hits", "lo", "pos", "ranks")

    def __init__(self, first: Contribution, pos: int) -> None:
        self.first, self.pos = first, pos
        self.count, self.hits = 0, 0
        self.ranks: dict[str, None] = {}
        self.lo: str | None = None
        self.hi: str | None = None

    def date(self, d: str) -> None:
        if self.lo is None or d < self.lo:
            self.lo = d
        if self.hi is None or d > self.hi:
            self.hi = d


def _breaks(data: bytes, end: int) -> int:
    """Line breaks in ``data[:end]`` as the parser counts them: `\n`, and a lone `\r` (a
    progress bar's redraw)."""
    return data.count(b"\n", 0, end) + data.count(b"\r", 0, end) - data.count(b"\r\n", 0, end)


def fold_units(
    data: bytes,
    memo: Memo,
    dates: Callable[[list[str], RaisedError], list[str]],
    sample: Callable[[list[str], int], str],
) -> Fold | None:
    """The errors of a region with their dates and a sample (a function: only a new group
    needs one) and the bytes parsed; None when the region must be parsed whole.
    `dates(lines, err)` dates an error the way a whole-region parse does (for the errors
    whose text also shows outside their own units, or that no prefix dates); `sample(lines,
    line_no)` is the text kept around an error's first occurrence."""
    if any(b in data for b in _SUSPECT) or (b"\x9b" in data and b"\xc2\x9b" in data):
        return None
    memo.trim()
    before = memo.parsed
    merged: dict[int, _Merged] = {}
    keys = _keys(data)
    for key, (pos, stamps, each) in keys.items():
        found = memo.get(key if isinstance(key, tuple) else (False, key, True), stamps)
        if found is _UNCLEAN:
            return None
        count = len(each)
        dated = [t.translate(_NORM) for t in each if t is not None]
        lo, hi = (min(dated), max(dated)) if dated else (None, None)
        for c in found:
            mg = merged.get(c.pid)
            if mg is None:
                mg = merged[c.pid] = _Merged(c, pos)
            mg.count += c.err.count * count
            mg.ranks.update(dict.fromkeys(c.err.ranks))
            mg.hits += c.hits * count
            if c.dated and lo is not None and hi is not None:
                mg.date(_stamp(lo))
                mg.date(_stamp(hi))
            for d in c.fixed:
                mg.date(d)
    shown = {pid: _shown(keys, m.first) for pid, m in merged.items()}
    return _finish(data, merged, shown, dates, sample), memo.parsed - before


def _shown(keys: dict[object, list[Any]], c: Contribution) -> int:
    """How often the region shows the text that dates `c` (counted in the units' keys, which
    show it as the region does when it is `safe`; -1 when it is not)."""
    if not c.safe:
        return -1
    word, total = c.needle.encode(), 0
    for key, seen in keys.items():
        _, keyed, ahead = key if isinstance(key, tuple) else (False, key, True)
        if ahead:  # (the next unit's first line is not this unit's)
            keyed = keyed[: keyed.rfind(b"\n", 0, len(keyed) - 1) + 1]
        total += keyed.count(word) * len(seen[2])
    return total


_NORM = bytes.maketrans(b"T,", b" .")


def _stamp(raw: bytes) -> str:
    s = stamp(raw.decode())
    assert s is not None  # (a stamp the opening pattern matched)
    return s


def _keys(data: bytes) -> dict[object, list[Any]]:
    """Each distinct key of the units of a region, in order of first occurrence: (whether the
    unit starts the region, `\n` + its bytes + the next unit's first line, with the stamps
    marked, whether that line is there), or for a unit in the middle, only those bytes; with
    [position of its first unit, that unit's stamps (they restore its text), the stamp of
    each unit (None: no stamp opens it)]."""
    out: dict[object, list[Any]] = {}
    get, match, find = out.get, _OPENING.match, data.find
    cuts = _cuts(data)
    last = len(cuts) - 2
    m = match(data)
    opens = m[1] if m else None  # the stamp that opens the next unit
    b = 0
    for k in range(last + 1):
        a, b, s = b, cuts[k + 1], opens
        if k < last:
            m = match(data, b)
            opens = m[1] if m else None
            c = find(b"\n", b) + 1 or cuts[k + 2]  # end of the next unit's first line
        else:
            opens, c = None, b
        if s is not None and opens == s and a:  # (the usual case: one stamp for both)
            key: object = data[a - 1 : c].replace(b"\n[" + s, b"\n[" + MARK)
            s2 = None
        else:
            s2 = None if opens == s else opens  # the next line's stamp, when it is another
            keyed = data[a - 1 : b] if a else b"\n" + data[:b]
            keyed = keyed if s is None else keyed.replace(b"\n[" + s, b"\n[" + MARK)
            keyed += data[b:c] if s2 is None else b"[" + NEXT + data[b + 1 + len(s2) : c]
            key = keyed
        if not 0 < k < last:
            key = (k == 0, key, k < last)
        seen = get(key)
        if seen is None:
            seen = out[key] = [a, (s, s2), []]
        seen[2].append(s)
    return out


def seamless(above: bytes, below: bytes) -> bool:
    """Whether a log cut between two tracebacks (`above` ends where `below`, a traceback from
    its header line up to the next, starts) parses as the two parts: both are self-contained
    and nothing in the cut region needs the region parsed whole."""
    return fold_units(above + below, Memo(), lambda *_: [], lambda *_: "") is not None


def _cuts(data: bytes) -> list[int]:
    """Where the units of `data` start (0, and each line that holds a traceback header), and
    its end."""
    pieces = data.split(HEADER)
    lens = list(map(len, pieces))
    ends = list(accumulate(lens))
    breaks = list(map(bytes.rfind, pieces, repeat(b"\n")))  # the header's line starts after
    h = len(HEADER)
    lines = [
        e - n + k * h + r + 1
        for k, (e, n, r) in enumerate(zip(ends[:-1], lens, breaks, strict=False))
        if r >= 0 or k == 0  # (no line end before it: on the line of the header before)
    ]
    return [0, *lines[lines[0] == 0 :], len(data)] if lines else [0, len(data)]


def _finish(
    data: bytes,
    merged: dict[int, _Merged],
    shown: dict[int, int],
    dates: Callable[[list[str], RaisedError], list[str]],
    sample: Callable[[list[str], int], str],
) -> list[tuple[RaisedError, list[str], Callable[[], str]]]:
    """Each merged error as the whole-region parse gives it: line numbers in the region,
    truncated tracebacks only when no error is complete, dates and a sample."""
    text: list[str] = []  # the region's lines, decoded when first needed

    def lines() -> list[str]:
        if not text:
            text.extend(pasted_lines(data.decode("utf-8", errors="replace")))
        return text

    complete = any(not m.first.err.truncated for m in merged.values())
    out = []
    for pid, m in merged.items():
        # (beside a complete error, a cut chain is read as far as it got, as the parser reads
        # it, and a cut traceback with no chain is left out)
        err = flushed(m.first.err) if complete else m.first.err
        if complete and err.truncated:
            continue
        no = err.line_no + _breaks(data, m.pos)
        err = replace(err, count=m.count, ranks=tuple(m.ranks), line_no=no)
        exact = shown[pid] == m.hits  # no line outside its own units shows its text
        when = [m.lo, m.hi] if exact and m.lo is not None else dates(lines(), err)
        out.append((err, [d for d in when if d], _sampler(lines, no, sample)))
    return out


def _sampler(
    lines: Callable[[], list[str]], no: int, sample: Callable[[list[str], int], str]
) -> Callable[[], str]:
    return lambda: sample(lines(), no)
