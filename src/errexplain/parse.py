"""Pasted text -> `RaisedError` records.

`parse_traceback` finds every error in a paste: full tracebacks, pastes that start mid-traceback,
bare `SomeError: message` lines and exceptions stringified inside log lines. It keeps chains
(`raise ... from`, implicit context) and exception groups, joins multi-line and hard-wrapped
messages, and merges the same error printed by several ranks. Noise (log prefixes, ANSI, fences,
quotes) is removed line by line in `_lines`. The parser is pure, never raises, and runs in time
linear in the size of the input: every regex is anchored or bounded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from errexplain._lines import Line, clean_lines
from errexplain.models import Frame, RaisedError

__all__ = ["parse_traceback"]

_FRAME = re.compile(
    r'File "(?P<path>[^"\n]{1,1000})", line (?P<line>\d{1,9})(?:, in (?P<func>.{1,500}))?'
)
_HEADER = re.compile(r"(?:Exception Group )?Traceback \(most recent call last\):")
_GROUP = "+ Exception Group Traceback (most recent call last):"
_CHAIN = {
    "The above exception was the direct cause of the following exception:": "cause",
    "During handling of the above exception, another exception occurred:": "context",
}
_NAME = r"(?:[A-Za-z_]\w{0,100}\.){0,10}"
_HEAD = re.compile(
    rf"(?P<type>{_NAME}[A-Za-z_]\w{{0,100}})(?P<args>\([^()\n]{{0,300}}\))?(?::(?P<msg>.*))?"
)
_EMBEDDED = re.compile(
    rf"(?<![\w.])(?P<type>{_NAME}[A-Z]\w{{0,100}}(?:Error|Exception|Interrupt|Exit))"
    r"(?P<args>\([^()\n]{0,300}\))?:(?: |$)"
)
_SEPARATOR = re.compile(r"\+(?:-\+)?-{3,}(?: (?:\d+|\.\.\.) -{3,})?")
_NOISE = re.compile(
    r"Killed$|Aborted(?: \(core dumped\))?$|Segmentation fault|Received sigquit"
    r"|Exception ignored in|Fatal Python error|\S{1,500}\.py:\d{1,9}: \w{0,100}Warning:"
)
_SUFFIXES = ("Error", "Exception", "Warning", "Interrupt", "Exit")
_EMBEDDED_HINTS = ("Error", "Exception", "Interrupt", "Exit")
_KNOWN = frozenset({
    "BaseException", "Exception", "ExceptionGroup", "BaseExceptionGroup", "KeyboardInterrupt",
    "StopIteration", "StopAsyncIteration", "SystemExit", "GeneratorExit", "OutOfResources",
})
_MAX_DEPTH = 16
_WRAP_WIDTH = 72


@dataclass
class _Trace:
    """A traceback being read: where it started and the frames seen so far."""

    start: Line
    frames: list[Frame] = field(default_factory=list)


def parse_traceback(text: str) -> tuple[RaisedError, ...]:
    """Every distinct error in `text`, in order of first appearance, duplicates merged.

    A traceback with no final exception line is returned (with `truncated=True` and an empty
    type) only when the paste holds no complete error.
    """
    found: list[RaisedError] = []
    for stream in _streams(clean_lines(text)):
        found.extend(_Stream(stream).run())
    found.sort(key=lambda e: e.line_no)
    complete = [e for e in found if not e.truncated]
    return _merge(complete or found)


def _streams(lines: Sequence[Line]) -> list[list[Line]]:
    """Split lines by their stream prefix (`[rank3]:`), so interleaved ranks parse apart."""
    streams: dict[str, list[Line]] = {}
    for line in lines:
        streams.setdefault(line.stream, []).append(line)
    return list(streams.values())


def _merge(errors: Sequence[RaisedError]) -> tuple[RaisedError, ...]:
    """Merge records with the same `_key`: counts added, rank labels kept in order seen."""
    first: dict[tuple[object, ...], RaisedError] = {}
    counts: dict[tuple[object, ...], int] = {}
    ranks: dict[tuple[object, ...], dict[str, None]] = {}
    for err in errors:
        key = _key(err)
        first.setdefault(key, err)
        counts[key] = counts.get(key, 0) + err.count
        ranks.setdefault(key, {}).update(dict.fromkeys(err.ranks))
    return tuple(
        err if counts[k] == err.count else replace(err, count=counts[k], ranks=tuple(ranks[k]))
        for k, err in first.items()
    )


def _key(err: RaisedError) -> tuple[object, ...]:
    """Same type, message and frames; paths compared by their last two parts."""
    frames = tuple(("/".join(f.path.split("/")[-2:]), f.line, f.function) for f in err.frames)
    return (err.type, err.message, frames, err.truncated)


@lru_cache(maxsize=512)
def _exception_head(st: str, lax: bool) -> tuple[str, str] | None:
    """(type, first message line) if `st` is an exception line such as `ValueError: bad`.

    Strict mode wants a name ending in Error/Exception/Warning/Interrupt/Exit or a known
    builtin; `lax` (right after frames) also takes any CamelCase name followed by a colon.
    """
    if not (st[:1].isalpha() or st[:1] == "_"):
        return None
    m = _HEAD.fullmatch(st)
    if m is None or (m["args"] and m["msg"] is None):
        return None
    name = m["type"]
    last = name.rsplit(".", 1)[-1]
    if not _plausible(last) and not (lax and _camel(last) and (m["msg"] is not None)):
        return None
    return name, (m["msg"] or "").strip()


def _plausible(last: str) -> bool:
    if last in _KNOWN:
        return True
    if not last.endswith(_SUFFIXES) or last in _SUFFIXES:
        return False
    return last[:1].isupper() and not last.isupper()


def _camel(last: str) -> bool:
    return last[:1].isupper() and not last.isupper() and last.isidentifier()


def _embedded(st: str) -> tuple[str, str] | None:
    """An exception stringified inside a log line: `... with exception KVTransferError(x): msg`."""
    if ":" not in st or not any(s in st for s in _EMBEDDED_HINTS):
        return None
    m = _EMBEDDED.search(st)
    if m is None:
        return None
    return m["type"], st[m.end():].strip()


def _kind(st: str) -> str:
    """Classify a non-blank stripped line by its structure, cheapest tests first."""
    c = st[0]
    if c == "F":
        return "frame" if st.startswith('File "') and _FRAME.fullmatch(st) else ""
    if c in "+~^.[":
        if st.startswith(_GROUP):
            return "group"
        return "skip" if _SEPARATOR.fullmatch(st) or _skippable(st) else ""
    if c in "TE" and _HEADER.fullmatch(st):
        return "header"
    if c in "TD" and st in _CHAIN:
        return "chain"
    return ""


def _skippable(st: str) -> bool:
    """Caret lines, elided frames and `[Previous line repeated N more times]`."""
    if not st.strip("~^ "):
        return True
    return st == "..." or st.startswith(("[Previous line repeated", "...<"))


def _structural(st: str) -> bool:
    """A line that belongs to traceback structure, never to a message."""
    return _kind(st) in ("header", "frame", "chain", "group")


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


class _Stream:
    """Reads the lines of one stream, top to bottom, into records."""

    def __init__(self, lines: Sequence[Line], depth: int = 0) -> None:
        self.lines = lines
        self.depth = depth
        self.i = 0
        self.out: list[RaisedError] = []
        self.trace: _Trace | None = None
        self.chain: list[RaisedError] = []
        self.relation: str | None = None
        self.linkable = False

    def run(self) -> list[RaisedError]:
        while self.i < len(self.lines):
            line = self.lines[self.i]
            self.i += 1
            self._step(line)
        self._close_trace()
        self._flush_chain()
        return self.out

    def _step(self, line: Line) -> None:
        st = line.text.strip()
        if not st or line.fence:
            return
        kind = _kind(st)
        if kind == "header":
            self._close_trace()
            self.trace = _Trace(line)
        elif kind == "group":
            self._group(line)
        elif kind == "chain":
            self._link(_CHAIN[st])
        elif kind == "frame":
            self._frame(line, st)
        elif kind == "skip":
            return
        elif head := _exception_head(st, lax=self.trace is not None):
            self._raise(line, head)
        elif head := _embedded(st):
            if line.record:
                self._close_trace()
            self._raise(line, head)

    def _frame(self, line: Line, st: str) -> None:
        m = _FRAME.fullmatch(st)
        if m is None:
            return
        if self.trace is None:
            self.trace = _Trace(line)
        func = m["func"].strip() if m["func"] else None
        self.trace.frames.append(Frame(m["path"], int(m["line"]), func, self._code_after(line)))

    def _code_after(self, line: Line) -> str | None:
        """Consume and return the source line printed under a frame, if there is one."""
        if self.i >= len(self.lines):
            return None
        nxt = self.lines[self.i]
        st = nxt.text.strip()
        if not st or nxt.fence or (nxt.record and nxt.prefix != line.prefix):
            return None
        if _structural(st) or _skippable(st):
            return None
        if _indent(nxt.text) <= _indent(line.text) and _exception_head(st, lax=True):
            return None
        self.i += 1
        return st

    def _raise(self, line: Line, head: tuple[str, str]) -> None:
        message, self.i = _message(self.lines, self.i, line, head[1])
        trace, self.trace = self.trace, None
        start = trace.start if trace else line
        rank = start.rank or line.rank
        self._emit(RaisedError(
            type=head[0], message=message, frames=tuple(trace.frames) if trace else (),
            ranks=(rank,) if rank else (), line_no=line.no,
        ))

    def _emit(self, err: RaisedError) -> None:
        if self.chain:
            ranks = err.ranks or self.chain[0].ranks
            err = replace(err, chain=tuple(self.chain), chain_relation=self.relation, ranks=ranks)
        self.chain, self.relation = [], None
        self.out.append(err)
        self.linkable = True

    def _link(self, relation: str) -> None:
        """A chain separator: the error just read becomes part of the next one's chain."""
        self._close_trace()
        if self.linkable and self.out and not self.out[-1].truncated:
            last = self.out.pop()
            self.chain = [*last.chain, replace(last, chain=())]
        self.relation = relation
        self.linkable = False

    def _close_trace(self) -> None:
        """A traceback that ends with no exception line becomes a truncated record."""
        trace, self.trace = self.trace, None
        if trace is None:
            return
        self._flush_chain()
        rank = trace.start.rank
        self.out.append(RaisedError(
            type="", message="", frames=tuple(trace.frames), truncated=True,
            ranks=(rank,) if rank else (), line_no=trace.start.no,
        ))
        self.linkable = False

    def _flush_chain(self) -> None:
        """A chain whose final exception never came: return its last error, as far as it got."""
        if self.chain:
            *earlier, last = self.chain
            self.out.append(replace(last, chain=tuple(earlier)))
        self.chain, self.relation = [], None

    def _group(self, line: Line) -> None:
        """Read an exception group's `|`-margined block into one record with members."""
        margin = line.text[: _indent(line.text)]
        start, j = self.i - 1, self.i
        while j < len(self.lines) and _in_region(self.lines[j].text, margin):
            j += 1
        self.i = j
        self._close_trace()
        err = _parse_region(self.lines[start:j], margin, self.depth + 1)
        if err is not None:
            self._emit(err)


def _in_region(text: str, margin: str) -> bool:
    if not text.startswith(margin):
        return False
    return text[len(margin):].lstrip(" ")[:1] in ("|", "+")


def _parse_region(lines: Sequence[Line], margin: str, depth: int) -> RaisedError | None:
    if depth > _MAX_DEPTH:
        return None
    own, members = _split_region(lines, margin)
    records = _Stream(own, depth).run()
    complete = [r for r in records if not r.truncated] or records
    if not complete:
        return None
    subs = (_parse_region(m, "", depth + 1) for m in members if m)
    return replace(complete[-1], members=tuple(s for s in subs if s is not None))


def _split_region(lines: Sequence[Line], margin: str) -> tuple[list[Line], list[list[Line]]]:
    """Split a group block into its own lines (margin removed) and each member's lines."""
    own: list[Line] = []
    members: list[list[Line]] = []
    k = len(margin)
    for ln in lines:
        body = ln.text[k:]
        if body.startswith("+-+") or (body.startswith("  +-") and not body.startswith("  +-+")):
            members.append([])
        elif body.startswith("  ") and members:
            members[-1].append(replace(ln, text=body[2:]))
        else:
            own.append(replace(ln, text=body[2:] if body[:1] in ("|", "+") else body))
    return own, members


def _message(lines: Sequence[Line], j: int, exc: Line, first: str) -> tuple[str, int]:
    """Collect the message lines after an exception line; return it and where reading stops."""
    parts = [first]
    prev = exc.text.rstrip()
    while j < len(lines):
        ln = lines[j]
        if not ln.text.strip():
            k = j
            while k < len(lines) and not lines[k].text.strip() and not lines[k].fence:
                k += 1
            if k >= len(lines) or _stops(lines[k], exc, first):
                break
            parts.extend([""] * (k - j))
            j = k
            continue
        if _stops(ln, exc, first):
            break
        parts = _append(parts, prev, ln.text.rstrip())
        prev = ln.text.rstrip()
        j += 1
    return "\n".join(parts).strip("\n").rstrip(), j


def _append(parts: list[str], prev: str, text: str) -> list[str]:
    """Join a hard-wrapped line to the line before it; keep real line breaks."""
    head = text.split(" ", 1)[0]
    wrapped = (
        len(prev) >= _WRAP_WIDTH and prev[-1] not in ".!?:;"
        and (text[:1].islower() or text[:1].isdigit()) and not head.endswith(":")
    )
    if wrapped and parts[-1]:
        parts[-1] = f"{parts[-1]} {text.strip()}"
    else:
        parts.append(text)
    return parts


def _stops(ln: Line, exc: Line, first: str) -> bool:
    """Whether `ln` ends the message begun on line `exc`."""
    if ln.fence or (ln.record and ln.prefix != exc.prefix):
        return True
    st = ln.text.strip()
    if _structural(st) or _NOISE.match(st):
        return True
    if not ln.text[:1].isspace() and ":" in st and _exception_head(st, lax=False):
        return True
    return _echoes(st, first)


def _echoes(st: str, first: str) -> bool:
    """A log line that repeats the message: `... failed with exception <message>`."""
    if len(first) < 16:
        return False
    at = st.find(first)
    return at > 0 and ("exception" in st[:at].lower() or "error" in st[:at].lower())
