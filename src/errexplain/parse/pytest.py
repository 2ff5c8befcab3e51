"""pytest's failure reports, read as the Python tracebacks they stand for.

pytest prints a failing test's traceback in its own shapes (`--tb=auto`, the default, mixes the
first two):

- long: each entry shows its function's source, the failing line marked `>`, and ends with a
  location line `path.py:12: ` (the last one names the exception: `path.py:4326: AssertionError`);
  the exception itself comes before that, on lines marked `E` (`E       ValueError: msg`);
  entries are parted by `_ _ _ _` lines;
- short: `path.py:12: in func` above the code line, the `E` lines after the last entry;
- line: one line per failure, `path.py:4326: AssertionError` or `path.py:63: ValueError: msg`.

:func:`pytest_lines` rewrites each report into the lines of the standard traceback (a header,
`File "path", line N, in func` and the code line per entry, then the exception lines), each
numbered as the pasted line it comes from, and drops the source context around them (a shown
`raise ValueError("...")` is code, not an error). Everything else is passed on as it is.
pytest's own explanation of a failed assert in a test (`E  assert 3 == 4`, `E  +  where ...`)
stands for an AssertionError raised by the statement the `>` line shows.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex, replace
from errexplain.parse.lines import ByStart

if TYPE_CHECKING:
    import re
    from collections.abc import Collection, Sequence

    from errexplain.parse.lines import Line

__all__ = ["marked_lines", "pytest_lines"]

_LOCATION = compile_regex(
    r"(?P<path>[^\s\"':]{1,1000}\.py):(?P<line>\d{1,9}):(?: {1,4}(?:in (?P<func>[\w<>.]{1,200})"
    r"|(?P<exc>[A-Za-z_][\w.]{0,200}(?:Error|Exception|Exit|Interrupt|Failed|Iteration|Timeout))"
    r"(?:: (?P<msg>.{0,5000}))?))? {0,4}"
)
"""A pytest location line (fullmatch): `path.py:12: `, `path.py:12: in func`,
`path.py:12: ValueError` or (`--tb=line`) `path.py:12: ValueError: message`."""
_E_LINE = compile_regex(r"E(?: {1,40}(?P<rest>.{0,5000}))?")
_SEPARATOR = compile_regex(r"(?:_ ){3,}_?|_{3,}.{0,300}_{3,}|={3,}.{0,300}={3,}")
_HEADER = compile_regex(r"_{3,} (?P<name>[\w.\[\]-]{1,300}) _{3,}")
"""A report's header: `____ test_prefill ____`, `____ TestSched.test_prefill ____`."""
_SUMMARY = compile_regex(
    r"(?:FAILED|ERROR) (?:[^\s:]{1,1000}::)(?P<test>[^\s]{1,500}) - (?P<error>\S.{0,5000})"
)
"""A line of pytest's short test summary (fullmatch)."""
_DEF = compile_regex(r"(?:async +)?def +(?P<func>[A-Za-z_]\w{0,200}) {0,4}\(")
_LOCAL = compile_regex(r"[A-Za-z_]\w{0,100} = .{0,5000}")


def marked_lines(pasted: Sequence[str]) -> set[int]:
    """The numbers (from 1) of the pasted lines pytest marks as failing (`>   code`)."""
    return {no for no, raw in enumerate(pasted, 1) if raw[:1] == ">" and raw[1:2] in (" ", "")}


def pytest_lines(lines: Sequence[Line], marked: Collection[int]) -> list[Line]:
    """The lines with every pytest failure report rewritten as a standard traceback;
    `marked`: the numbers of the pasted lines that start with pytest's `>` mark (the cleaner
    takes it off as a blockquote's)."""
    out: list[Line] = []
    reported = {m["name"] for ln in lines if (m := _HEADER.fullmatch(_text(ln)))}
    raised = ByStart(_START, _BUCKET)  # the lines of the reports rewritten so far
    i = done = 0  # done: lines before it were rewritten (a report starts no earlier)
    while i < len(lines):
        end = _report_end(lines, i)
        if end is None:
            out.extend(_summary(lines[i], reported, raised))
            i += 1
            continue
        start = _report_start(lines, i, done)
        del out[len(out) - (i - start) :]
        rewritten = _rewritten(lines[start:end], marked)
        out.extend(rewritten)
        for ln in rewritten:
            raised.add(_text(ln))
        i = done = end
    return out


_START, _BUCKET = 8, 64
"""Report lines are looked up by their first characters, at most _BUCKET of each start (a
summary line is compared with a bounded number of them, however long the paste)."""


def _summary(line: Line, reported: Collection[str], raised: ByStart) -> list[Line]:
    """A line as read: a summary line (`FAILED t.py::test_x - ValueError: msg`) is its error
    alone (a blank line after it: the next summary line is not its message's), or nothing
    when the paste holds that test's report or a report raising that error (`raised`: the
    lines of the reports, the summary's message may be cut short with `...`)."""
    m = _SUMMARY.fullmatch(_text(line)) if line.text[:1] in "FE" else None
    if m is None:
        return [line]
    error = m["error"]
    stem = error.removesuffix("...")
    if (
        m["test"].replace("::", ".") in reported
        or m["test"].rsplit("::", 1)[-1] in reported
        or error in raised.near(error)
        or (stem != error and any(r.startswith(stem) for r in raised.near(stem)))
    ):
        return []
    if error.startswith("assert "):  # pytest's explanation of a failed assert in the test
        error = f"AssertionError: {error}"
    return [replace(line, text=error), replace(line, text="")]


def _text(line: Line) -> str:
    return line.text.strip()


def _report_end(lines: Sequence[Line], i: int) -> int | None:
    """Where the report that has an `E` line or a location line at `i` ends (after its last
    location line or `E` line), or None when line `i` opens none."""
    st = _text(lines[i])
    if not (_is_e(st) or _LOCATION.fullmatch(st)):
        return None
    end = i + 1
    j = i + 1
    while j < len(lines):
        st = _text(lines[j])
        if _is_e(st) or _LOCATION.fullmatch(st):
            end = j + 1
        elif st and not _context(lines[j]) and not _SEPARATOR.fullmatch(st):
            break
        j += 1
    return end


def _report_start(lines: Sequence[Line], i: int, done: int) -> int:
    """The first line of the report whose first `E` or location line is `i`: the source
    context (indented lines, `>` lines, locals such as `self = <...>`) and blank lines above
    it, back to a separator or other text (never before `done`)."""
    start = i
    while start > done and _context(lines[start - 1]):
        start -= 1
    while start < i and not _text(lines[start]):
        start += 1
    return start


def _is_e(st: str) -> bool:
    return st[:1] == "E" and _E_LINE.fullmatch(st) is not None


def _context(line: Line) -> bool:
    """A line of an entry's shown source or locals (or a blank line between them)."""
    text = line.text
    st = text.strip()
    if not st:
        return True
    return text[:1] in (" ", "\t", ">") or _LOCAL.fullmatch(st) is not None


class _Entry:
    """One traceback entry of a report: its location line, path, line number, function and
    shown code (the `>` line and the lines of its statement below it)."""

    __slots__ = ("code", "func", "loc", "no", "path")

    def __init__(self, loc: Line, path: str, no: int, func: str | None, code: list[Line]) -> None:
        self.loc, self.path, self.no, self.func, self.code = loc, path, no, func, code


class _Report:
    """Reads a report's lines (:meth:`add`) into standard traceback lines (`out`)."""

    def __init__(self, marked: Collection[int]) -> None:
        self.marked = marked
        self.entries: list[_Entry] = []
        self.func: str | None = None  # of the entry being read (long format: its `def`)
        self.code: list[Line] = []
        self.errors: list[Line] = []
        self.short = False  # the line after a short entry's location is its code
        self.going = False  # the lines below a `>` line are its statement's
        self.out: list[Line] = []

    def add(self, line: Line) -> None:
        st = _text(line)
        m = _LOCATION.fullmatch(st)
        if m is not None:
            self._location(line, m)
        elif _is_e(st):
            self.errors.append(line)
            self.short = self.going = False
        elif self.short and st:
            self.entries[-1].code = [line]
            self.short = False
        elif (d := _DEF.match(st)) is not None:
            self.func, self.code = d["func"], []
        elif line.no in self.marked or line.text[:1] == ">":
            # (the cleaner takes a `>` off as a blockquote's, unless a log prefix came first)
            self.code, self.going = [replace(line, text=line.text.lstrip(">"))], True
        elif self.going and st and line.text[:1] in (" ", "\t"):
            self.code.append(line)  # the failing statement goes on below its `>` line
        else:
            self.going = False
            if _SEPARATOR.fullmatch(st):
                self.func, self.code = None, []

    def _location(self, line: Line, m: re.Match[str]) -> None:
        if m["func"]:  # short format: `path.py:12: in func`, its code on the next line
            if self.errors:  # a new report after the last one's E lines
                self.flush()
            self.entries.append(_Entry(line, m["path"], int(m["line"]), m["func"], []))
            self.short = True
            return
        self.entries.append(_Entry(line, m["path"], int(m["line"]), self.func, self.code))
        self.func, self.code, self.short, self.going = None, [], False, False
        if m["exc"]:  # the last entry's location names the exception
            self.flush(line)

    def flush(self, ended: Line | None = None) -> None:
        """Write the traceback read so far."""
        if not self.entries:  # `E` lines alone: read as they are
            self.out.extend(self.errors)
            self.errors = []
            return
        first = self.entries[0].loc
        self.out.append(_as(first, "Traceback (most recent call last):"))
        for e in self.entries:
            where = f'  File "{e.path}", line {e.no}' + (f", in {e.func}" if e.func else "")
            self.out.append(_as(e.loc, where))
            for n, shown in enumerate(e.code):
                self.out.append(_as(shown, "    " * (1 + bool(n)) + _text(shown)))
        last = self.entries[-1].code[:1]
        raised = _exception(self.errors, ended, last)
        self.out.extend(raised)
        if raised:  # the message ends with the report (a blank line stands for its location)
            self.out.append(_as(raised[-1], ""))
        self.entries, self.errors = [], []


def _rewritten(block: Sequence[Line], marked: Collection[int]) -> list[Line]:
    """A report's lines as the traceback they stand for; as they are when no location line
    says where it was raised (`E` lines alone, maybe not pytest's)."""
    if not any(_LOCATION.fullmatch(_text(line)) for line in block):
        return list(block)
    report = _Report(marked)
    for line in block:
        report.add(line)
    report.flush()
    return report.out


def _as(line: Line, text: str) -> Line:
    """A line of the rewritten traceback, numbered as the pasted line it comes from."""
    return replace(line, text=text)


def _pytest_says(line: Line) -> bool:
    """An `E` line of pytest's own explanation of a failed assert (`E  assert False`)."""
    return _text(line)[1:].lstrip().startswith("assert ")


def _exception(errors: Sequence[Line], ended: Line | None, shown: Sequence[Line]) -> list[Line]:
    """The exception lines: the `E` lines without their mark (their common indent taken
    off); else what the last location line names (`--tb=line` prints the message there)."""
    if not errors:
        m = _LOCATION.fullmatch(_text(ended)) if ended is not None else None
        if ended is None or m is None or not m["exc"]:
            return []
        head = m["exc"] + (f": {m['msg']}" if m["msg"] else "")
        return [_as(ended, head)]
    explained = next((n for n, e in enumerate(errors) if n and _pytest_says(e)), len(errors))
    errors = errors[:explained]  # (pytest's explanation of the assert follows the message)
    bodies = [_text(e)[1:] for e in errors]
    deep = min((len(b) - len(b.lstrip()) for b in bodies if b.strip()), default=0)
    texts = [b[deep:].rstrip() for b in bodies]
    if texts[0].startswith("assert ") and shown and _text(shown[0]).startswith("assert"):
        # pytest's explanation of a failed assert (values filled in): the statement shown
        # above raised a plain AssertionError
        return [_as(errors[0], "AssertionError")]
    return [_as(e, t) for e, t in zip(errors, texts, strict=True)]
