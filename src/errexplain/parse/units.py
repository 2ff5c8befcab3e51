"""Whether one traceback of a longer log parses the same alone as inside the log: the check
that lets `errexplain scan` parse each distinct traceback of an error-dense log once.

A unit is the lines from a traceback's header line up to the next header line (the first unit
of a text may start anywhere). `self_contained` parses the unit followed by the first line of
the next unit (the lookahead) and returns the unit's errors only when the parse of the whole
text is, at both ends of the unit, the parse of its parts:

* every line (lookahead included) is in one stream (no interleaved `[rankN]:` streams);
* no line of the unit mentions `message` or `detail` (no HTTP error body can span units);
* reading the unit never reads into the lookahead (a message or a frame's code line that would
  continue onto the next unit) and leaves no traceback or chain open at its end;
* before its header, the unit's first line holds nothing the parser acts on (so neither a
  `During handling ...` line nor an exception line can link to or read the unit above);
* no line of the unit is an error found outside exception lines (log lines, reprs, bodies):
  whether such a line counts depends on the exceptions of the whole text (echoes, caps).

Then the state carried from one unit to the next is the empty state, and the errors of the
whole text are those of its units, merged. Pure.
"""

from __future__ import annotations

from bisect import bisect_right

from errexplain._startup import TYPE_CHECKING
from errexplain.parse.lines import clean_lines, line_kind
from errexplain.parse.traceback import _Stream, finish, secondary_candidates

if TYPE_CHECKING:
    from errexplain.models import RaisedError
    from errexplain.parse.lines import Line


def self_contained(text: str, unit_lines: int, first: bool) -> tuple[RaisedError, ...] | None:
    """The errors of the first `unit_lines` lines of `text` (the rest is the lookahead line,
    or nothing at the end of the input), or None when the unit is not self-contained. `first`:
    the unit starts the text being parsed (nothing above it to link to)."""
    lines = clean_lines(text)
    n = bisect_right([ln.no for ln in lines], unit_lines)
    if not n or len({ln.stream for ln in lines}) > 1:
        return None
    if any("message" in ln.text or "detail" in ln.text for ln in lines[:n]):
        return None
    reader = _Stream(lines)
    if not first and not _opens_cleanly(reader, lines, n):
        return None
    while reader.i < n:
        line = lines[reader.i]
        reader.i += 1
        reader._step(line)
    if n < len(lines):  # the next unit follows: nothing may cross into it
        if reader.i != n or reader.trace is not None or reader.chain or reader.relation:
            return None
    else:  # the end of the input: the parse ends here too
        reader._close_trace()
        reader._flush_chain()
    if secondary_candidates(lines, {}, reader.covered, reader.out):
        return None
    return finish(reader.out)


def _opens_cleanly(reader: _Stream, lines: list[Line], n: int) -> bool:
    """Step the unit's lines before its header (on its first line): each must leave the
    parser as empty as it found it. True when the header is reached so."""
    while reader.i < n and lines[reader.i].no == lines[0].no:
        line = lines[reader.i]
        st = line.text.strip()
        kind = line_kind(st) if st else ""
        if kind in ("header", "jheader"):
            return True
        if kind == "chain":
            return False
        reader.i += 1
        reader._step(line)
        if reader.out or reader.trace is not None or reader.chain or reader.relation:
            return False
    return False
