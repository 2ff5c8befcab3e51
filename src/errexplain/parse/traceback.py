"""Pasted text -> `RaisedError` records.

`parse_traceback` finds every error in a paste: full tracebacks, pastes that start mid-traceback,
bare `SomeError: message` lines and exceptions stringified inside log lines. It keeps chains
(`raise ... from`, implicit context) and exception groups, joins multi-line and hard-wrapped
messages, and merges the same error printed by several ranks. Noise (log prefixes, ANSI, fences,
quotes) is removed line by line in `_lines`. The parser is pure, never raises, and runs in time
linear in the size of the input: every regex is anchored or bounded.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, replace
from errexplain.models import Frame, RaisedError
from errexplain.parse.lines import (
    CHAIN,
    FRAME,
    NOISE,
    Line,
    clean_lines,
    embedded_exception,
    exception_head,
    indent,
    line_kind,
    skippable,
    structural,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["parse_traceback"]

_MAX_DEPTH = 16
_MAX_CHAIN = 64
_WRAP_WIDTH = 72


class _Trace:
    """A traceback being read: where it started and the frames seen so far."""

    __slots__ = ("frames", "start")

    def __init__(self, start: Line) -> None:
        self.start = start
        self.frames: list[Frame] = []


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
    groups: dict[tuple[object, ...], tuple[RaisedError, list[int], dict[str, None]]] = {}
    for err in errors:
        key = _key(err)
        if key not in groups:
            groups[key] = (err, [0], {})
        _, count, ranks = groups[key]
        count[0] += err.count
        for rank in err.ranks:
            ranks[rank] = None
    return tuple(
        err if count[0] == err.count else replace(err, count=count[0], ranks=tuple(ranks))
        for err, count, ranks in groups.values()
    )


def _key(err: RaisedError) -> tuple[object, ...]:
    """Same type, message and frames; paths compared by their last two parts."""
    frames = tuple(("/".join(f.path.split("/")[-2:]), f.line, f.function) for f in err.frames)
    return (err.type, err.message, frames, err.truncated)


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
        self.after_frames = False

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
        if st[0] == "|":  # a paste that starts inside an exception group
            st = st.lstrip("| ")
            line = replace(line, text=st)
            if not st:
                return
        kind = line_kind(st)
        lax, self.after_frames = self.after_frames, bool(kind) and kind != "chain"
        if kind:
            self._structure(line, st, kind)
        elif head := exception_head(st, lax=lax and self.trace is not None):
            self._raise(line, head)
        elif head := embedded_exception(st):
            if line.record:
                self._close_trace()
            self._raise(line, head)

    def _structure(self, line: Line, st: str, kind: str) -> None:
        if kind == "header":
            self._close_trace()
            self.trace = _Trace(line)
        elif kind == "group":
            self._group(line)
        elif kind == "chain":
            self._link(CHAIN[st])
        elif kind == "frame":
            self._frame(line, st)

    def _frame(self, line: Line, st: str) -> None:
        m = FRAME.fullmatch(st)
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
        if structural(st) or skippable(st):
            return None
        if indent(nxt.text) <= indent(line.text) and exception_head(st, lax=True):
            return None
        self.i += 1
        return st

    def _raise(self, line: Line, head: tuple[str, str]) -> None:
        prev = self.lines[self.i - 2] if self.i >= 2 else None
        per_line = bool(prev and prev.no != line.no and line.record and prev.prefix == line.prefix)
        message, self.i = _message(self.lines, self.i, line, head[1], per_line)
        trace, self.trace = self.trace, None
        start = trace.start if trace else line
        rank = start.rank or line.rank
        self._emit(
            RaisedError(
                type=head[0],
                message=message,
                frames=tuple(trace.frames) if trace else (),
                ranks=(rank,) if rank else (),
                line_no=line.no,
            )
        )

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
            chain = [*last.chain, replace(last, chain=())]
            # Real chains are a few links long; keep the root cause and the latest links of an
            # absurd one, so that every link costs the same.
            self.chain = (
                chain if len(chain) <= _MAX_CHAIN else [chain[0], *chain[-_MAX_CHAIN + 1 :]]
            )
        self.relation = relation
        self.linkable = False

    def _close_trace(self) -> None:
        """A traceback that ends with no exception line becomes a truncated record."""
        trace, self.trace = self.trace, None
        if trace is None:
            return
        self._flush_chain()
        rank = trace.start.rank
        self.out.append(
            RaisedError(
                type="",
                message="",
                frames=tuple(trace.frames),
                truncated=True,
                ranks=(rank,) if rank else (),
                line_no=trace.start.no,
            )
        )
        self.linkable = False

    def _flush_chain(self) -> None:
        """A chain whose final exception never came: return its last error, as far as it got."""
        if self.chain:
            *earlier, last = self.chain
            self.out.append(replace(last, chain=tuple(earlier)))
        self.chain, self.relation = [], None

    def _group(self, line: Line) -> None:
        """Read an exception group's `|`-margined block into one record with members."""
        margin = line.text[: indent(line.text)]
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
    return text[len(margin) :].lstrip(" ")[:1] in ("|", "+")


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


def _message(
    lines: Sequence[Line], j: int, exc: Line, first: str, per_line: bool
) -> tuple[str, int]:
    """Collect the message lines after an exception line; return it and where reading stops.

    The message ends at a blank line followed by an unindented line, a new log record (unless
    every line of this record carries the same prefix, `per_line`), traceback structure, another
    exception line, a fence, or a log line that echoes the message.
    """
    prefix = exc.prefix if per_line else None
    parts = [first]
    prev = exc.text.rstrip()
    while j < len(lines):
        ln = lines[j]
        if not ln.text.strip():
            k = j
            while k < len(lines) and not lines[k].text.strip() and not lines[k].fence:
                k += 1
            indented = k < len(lines) and lines[k].text[:1].isspace()
            if not indented or _stops(lines[k], prefix, first):
                break
            parts.extend([""] * (k - j))
            j = k
            continue
        if _stops(ln, prefix, first):
            break
        parts = _append(parts, prev, ln.text.rstrip())
        prev = ln.text.rstrip()
        j += 1
    return "\n".join(parts).strip("\n").rstrip(), j


def _append(parts: list[str], prev: str, text: str) -> list[str]:
    """Join a hard-wrapped line to the line before it; keep real line breaks."""
    head = text.split(" ", 1)[0]
    wrapped = (
        len(prev) >= _WRAP_WIDTH
        and prev[-1] not in ".!?:;"
        and (text[:1].islower() or text[:1].isdigit())
        and not head.endswith(":")
    )
    if wrapped and parts[-1]:
        parts[-1] = f"{parts[-1]} {text.strip()}"
    else:
        parts.append(text)
    return parts


def _stops(ln: Line, prefix: str | None, first: str) -> bool:
    """Whether `ln` ends a message whose first line is `first`; `prefix` is the log prefix
    that continuation lines may carry (None: any log prefix starts a new record)."""
    if ln.fence or (ln.prefix and ln.prefix != prefix):
        return True
    st = ln.text.strip()
    if structural(st) or NOISE.match(st):
        return True
    if not ln.text[:1].isspace() and ":" in st and exception_head(st, lax=False):
        return True
    return _echoes(st, first)


def _echoes(st: str, first: str) -> bool:
    """A log line that repeats the message: `... failed with exception <message>`."""
    if len(first) < 16:
        return False
    at = st.find(first)
    return at > 0 and ("exception" in st[:at].lower() or "error" in st[:at].lower())
