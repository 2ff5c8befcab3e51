"""Pasted text -> `RaisedError` records.

`parse_traceback` finds every error in a paste: full tracebacks, Jupyter/IPython tracebacks,
pastes that start mid-traceback, bare `SomeError: message` lines, exceptions stringified inside
log lines or quoted in prose, and (in a second pass over the lines no exception covers) HTTP error
bodies, exception reprs and error log lines, minus those that echo an exception (`RaisedError.form`
says which). It keeps chains
(`raise ... from`, implicit context) and exception groups, joins multi-line and hard-wrapped
messages, and merges the same error printed by several ranks. Noise (log prefixes, ANSI, fences,
quotes) is removed line by line in `_lines`. The parser is pure, never raises, and runs in time
linear in the size of the input: every regex is anchored or bounded.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex, replace
from errexplain.models import Frame, RaisedError, raises_here
from errexplain.parse.inline import (
    argparse_error,
    error_log_message,
    exception_reprs,
    json_errors,
    pydantic_inner,
)
from errexplain.parse.lines import (
    AT_LINE,
    CHAIN,
    CUT_FRAME,
    ELIDED,
    FRAME,
    JCONTEXT,
    JFRAME,
    JFRAME_OLD,
    NOISE,
    SHORT_FRAME,
    TRACEBACK,
    ByStart,
    Line,
    clean_lines,
    cut_exception_name,
    embedded_exceptions,
    exception_head,
    header_lead,
    indent,
    line_kind,
    named_assert,
    pasted_lines,
    quoted_asserts,
    skippable,
    structural,
    title_text,
)

if TYPE_CHECKING:
    import re
    from collections.abc import Collection, Mapping, Sequence

__all__ = ["parse_traceback"]

_PYTEST = compile_regex(
    r"(?m)(?:^|\s)(?:E {2,}\S|(?:FAILED|ERROR) [^\s:]{1,1000}::)"
    r"|\.py:\d{1,9}: (?:in \w|\w[\w.]{0,200}(?:Error|Exception)\b)"
)
"""A line pytest's failure report may hold (`E   ValueError: ...`, `path.py:12: in f`, a
summary's `FAILED t.py::test_x - ...`): a cheap test on the raw text before reading it
(:mod:`errexplain.parse.pytest`)."""


def _may_be_pytest(text: str) -> bool:
    """A test cheaper than :data:`_PYTEST` (most pastes hold none of its pieces)."""
    return "E  " in text or "::" in text or ".py:" in text


_MAX_DEPTH = 16
_MAX_CHAIN = 64
_WRAP_WIDTH = 72
_CUT_FRAME_MIN = 60
"""Shortest frame line a terminal's width can have cut inside its function name."""
_NAME_REST = compile_regex(r"[a-z0-9_][A-Za-z0-9_]{0,200}>?")
_BARE_STATEMENTS = frozenset(["raise", "pass", "break", "continue", "return", "yield", "await"])
"""Statements a frame's code line may be alone (never the rest of a name)."""


_MAX_SECONDARY = 200
"""At most this many errors found outside exception lines (JSON bodies, reprs, error log
lines) are kept from one paste, which also bounds comparing them with the exceptions."""
_ECHO_CHECKED = 64
_JUPYTER_CONTEXT = "context"


def _reference_only(trace: _Trace, chain: Sequence[RaisedError]) -> bool:
    """Whether a traceback that ended with no exception line is only one place written as
    `path.py:12` (a post pointing at a line of code, `python/sglang/srt/server_args.py:8511`
    and the code under it), with no header and no chain: a reference, not a traceback."""
    return not chain and trace.short == len(trace.frames) == 1 and TRACEBACK not in trace.start.text


_ARROW_CODE = compile_regex(
    r"(?P<func>[\w.<>]{1,200}) {1,10}(?:\u2192|->|=>) {1,10}(?P<code>\S.{0,1000})"
)
"""A frame's function followed by its code after an arrow, as a paster condenses a traceback
(`File "x.py", line 12, in load  ->  param.load_qkv_weight(`): the function is the name before
the arrow, the code what follows it."""


_LOGGING_STACK = compile_regex(r"Stack \(most recent call last\):")
"""The header Python's logging prints above the stack of a record logged with `stack_info`."""
_STACK_HEAD = compile_regex(
    r"(?i)(?:call |full |python )?stack(?: ?trace)?(?: \(most recent call last\))? ?:"
)
"""A line that announces a stack (`Stack trace:`, `Call stack:`)."""
STACK_LEAD = 6
"""Lines read above a `Stack trace:` line for the log record whose stack it is."""


class _Trace:
    """A traceback being read: where it started, the frames seen so far, the last line it
    covers and whether it is an IPython traceback."""

    __slots__ = ("frames", "jupyter", "last", "lead", "short", "stack", "start")

    def __init__(
        self, start: Line, jupyter: bool = False, stack: bool = False, lead: str = ""
    ) -> None:
        self.start = start
        self.frames: list[Frame] = []
        self.jupyter = jupyter
        self.last = start.no
        self.short = 0  # (frames condensed to `path.py:12 ...`)
        self.stack = stack  # (a stack a program printed: :func:`_printed_stack`)
        self.lead = lead  # (the record that announced it on its header's line)


def parse_traceback(text: str) -> tuple[RaisedError, ...]:
    """Every distinct error in `text`, in order of first appearance, duplicates merged.

    A traceback with no final exception line is returned (with `truncated=True` and an empty
    type) only when the paste holds no complete error.
    """
    lines = clean_lines(text)
    if _may_be_pytest(text) and _PYTEST.search(text):  # (its reader is imported only then)
        from errexplain.parse.pytest import marked_lines, pytest_lines

        lines = pytest_lines(lines, marked_lines(pasted_lines(text)))
    if "╭" in text and "Traceback (most recent call last)" in text:
        from errexplain.parse.richtb import rich_lines  # (only for a rich traceback's panel)

        lines = rich_lines(lines)
    bodies = _json_bodies(lines)
    found: list[RaisedError] = []
    covered: set[int] = set()
    for stream in _streams(lines):
        reader = _Stream(stream, json_lines=bodies.keys())
        found.extend(reader.run())
        covered |= reader.covered
    found.extend(_secondary(lines, bodies, covered, found))
    if "assert " in text:
        found.extend(_title_asserts(text, covered, {e.line_no for e in found}))
    return finish(found, fenced_blocks(lines))


def _title_asserts(text: str, covered: set[int], taken: set[int]) -> list[RaisedError]:
    """Issue titles that are an assert statement (`# [Bug] assert num_gpus % num_nodes == 0`):
    each an AssertionError whose message is the statement, as a test runner prints it (the
    poster named the failing assert as the title of the report). Read from the lines as
    pasted: the cleaner takes a title's tag off, and a bare `assert` line is code."""
    out = []
    for no, raw in enumerate(pasted_lines(text), 1):
        if no in covered or no in taken or "assert " not in raw:
            continue
        title = title_text(raw)
        if title is None or not title.startswith("assert "):
            continue
        test = title[len("assert ") :].strip().rstrip("`'\".,;").strip()
        if len(test) >= 3 and test.count("(") == test.count(")"):
            out.append(RaisedError("AssertionError", f"assert {test}", line_no=no, form="prose"))
    return out


def fenced_blocks(lines: Sequence[Line]) -> dict[int, int]:
    """The fenced block each line number lies in, counted from the paste's start (0 outside
    and before any fence): `{}` when the paste has fewer than two fences."""
    if sum(1 for ln in lines if ln.fence) < 2:
        return {}
    out: dict[int, int] = {}
    block = 0
    for ln in lines:
        if ln.fence:
            block += 1
        out.setdefault(ln.no, block)
    return out


def finish(
    found: list[RaisedError], blocks: Mapping[int, int] | None = None
) -> tuple[RaisedError, ...]:
    """The errors of a paste in order, unwrapped, merged; truncated tracebacks only if the
    paste has no complete error, if the traceback stops at a raise of its own (see
    :func:`_cut_at_raise`), or if a record announced it in a fenced block of its own
    (`blocks`: the block of each line number, :func:`_announced_cut`)."""
    found.sort(key=lambda e: e.line_no)
    found = _without_cut_echoes([_unwrapped(e) for e in found])
    if any(not e.truncated for e in found):
        found = [flushed(e) for e in found]
    complete = [e for e in found if not e.truncated]
    if complete and len(complete) < len(found):
        cut = [e for e in found if e.truncated]
        complete = _frames_of_cut(complete, cut)
        complete += _cut_at_raise(complete, cut)
        complete += _announced_cut(complete, cut, blocks or {})
        complete.sort(key=lambda e: e.line_no)
    return _merge(_interleaved_twins(complete or found))


TWIN_SPAN, TWIN_LEAST = 16, 8
"""Lines at most between the exception lines of one traceback printed by several processes at
once, its lines interleaved (:func:`_interleaved_twins`); characters at least of the message
that tells the twins for one error."""


def _interleaved_twins(found: list[RaisedError]) -> list[RaisedError]:
    """The errors with each one's twins folded into it: the same exception (type, message, the
    record around it, ranks) ending within TWIN_SPAN lines of it. Processes that crash at once
    (the `Process SpawnProcess-N:` tracebacks of ranks with no prefix on their lines) print
    their lines interleaved, so one traceback takes frames of both and the other few or none;
    folded, the error has the frames of both (each once) and counts both. Errors seen apart,
    different, of ranks a prefix told apart, or with no message to tell them by stay apart."""
    out: list[RaisedError] = []
    last: dict[tuple[object, ...], tuple[int, int]] = {}  # (index in out, its latest twin's line)
    for err in found:
        if len(err.message) < TWIN_LEAST:
            out.append(err)  # (one with no message is told by its frames alone)
            continue
        key = (err.type, err.message, err.lead, err.truncated, err.ranks)
        at, end = last.get(key, (-1, 0))
        if at >= 0 and 0 < err.line_no - end <= TWIN_SPAN:
            out[at] = _folded(out[at], err)
            last[key] = (at, err.line_no)
            continue
        last[key] = (len(out), err.line_no)
        out.append(err)
    return out


def _folded(err: RaisedError, twin: RaisedError) -> RaisedError:
    """`err` with its interleaved twin's frames (each frame once: those of the one that took
    more, in their order, then the other's), counts and ranks."""
    more, fewer = (err, twin) if len(err.frames) >= len(twin.frames) else (twin, err)
    seen: dict[tuple[str, int | None, str | None], Frame] = {}
    for f in (*more.frames, *fewer.frames):
        seen.setdefault((f.path, f.line, f.function), f)
    ranks = tuple(dict.fromkeys((*err.ranks, *twin.ranks)))
    return replace(err, frames=tuple(seen.values()), count=err.count + twin.count, ranks=ranks)


def flushed(e: RaisedError) -> RaisedError:
    """A cut traceback that ended a chain, as far as the chain got: its last complete link
    (with the links before it), read where the paste holds complete errors."""
    return _last_link(e.chain) if e.truncated and e.chain else e


def _last_link(chain: Sequence[RaisedError]) -> RaisedError:
    """A chain's last error with the links before it as its chain."""
    *earlier, last = chain
    return replace(last, chain=tuple(earlier))


def _without_cut_echoes(found: list[RaisedError]) -> list[RaisedError]:
    """The errors without those that repeat another one's message cut short with an ellipsis
    and no frames of their own (pytest's summary `FAILED t.py::test_x - ValueError: Model
    architecture...`, a log line cut at its width). Linear: the whole messages are looked up
    by type and first characters, at most _ECHO_BUCKET distinct ones each."""
    cut_short = [_first(e.message).endswith(("...", "…")) for e in found]
    cut = [e for e, short in zip(found, cut_short, strict=True) if short and not e.frames]
    if not cut:
        return found
    whole = ByStart(_ECHO_STEM, _ECHO_BUCKET)
    for e, short in zip(found, cut_short, strict=True):
        if not short:
            whole.add(e.message, e.short_type)
    drop = set()
    for e in cut:  # (a line read as its message's continuation may follow the cut one)
        stem = _first(e.message).rstrip(".…").rstrip()
        if len(stem) < _ECHO_STEM:
            continue
        if any(len(m) > len(stem) and m.startswith(stem) for m in whole.near(stem, e.short_type)):
            drop.add(id(e))
    return [e for e in found if id(e) not in drop] if drop else found


_ECHO_STEM, _ECHO_BUCKET = 8, 64
"""Characters a cut message must keep to be told for another error's message; the most whole
messages of one type and start compared with it."""


def _first(message: str) -> str:
    return message.partition("\n")[0].rstrip()


def _cut_at_raise(complete: Sequence[RaisedError], cut: Sequence[RaisedError]) -> list[RaisedError]:
    """Tracebacks cut before their exception line that are errors of their own beside the
    complete ones: the innermost frame shows a `raise` or `assert` (the paste stops where the
    error was raised: the last exception of a chain cut after `During handling ...`) at a
    place where no other error of the paste was raised (another rank's copy of a complete
    traceback, cut, is not one). Not beside an error quoted without frames (in a title or a
    sentence): the cut traceback is most likely that error's, whether its raise fits or not."""
    if any(e.form in _FRAMELESS and not e.frames for e in complete):
        return []
    raised_at = {(e.frames[-1].path, e.frames[-1].line) for e in complete if e.frames}
    out = []
    for tb in cut:
        if not tb.frames:
            continue
        last = tb.frames[-1]
        if raises_here(last.code) and (last.path, last.line) not in raised_at:
            out.append(tb)
    return out


def _announced_cut(
    complete: Sequence[RaisedError], cut: Sequence[RaisedError], blocks: Mapping[int, int]
) -> list[RaisedError]:
    """Tracebacks cut before their exception line that a log record announced on its header's
    line (`[... TP0] Scheduler hit an exception: Traceback (most recent call last):`), in a
    fenced block that holds none of the complete errors and none of whose frames is the cut
    one's innermost frame: another process's error pasted apart (a server's log beside its
    client's traceback), not another rank's copy of a complete one cut shorter, which a log
    prints beside it (whose top may be cut too: the frames need not meet). The explainer reads
    it as its record (or leaves it out)."""
    if not blocks:
        return []
    kept = {id(e) for e in complete}
    taken = {blocks.get(e.line_no) for e in complete}
    seen = {(f.path, f.line) for e in complete for x in (e, *e.chain) for f in x.frames}
    return [
        tb
        for tb in cut
        if tb.lead
        and tb.frames
        and id(tb) not in kept
        and blocks.get(tb.line_no) not in taken
        and (tb.frames[-1].path, tb.frames[-1].line) not in seen
    ]


_FRAMELESS = frozenset({"prose", "line", "log", "repr"})
"""Forms of an error written without its traceback (quoted in a title or a sentence, a bare
`Type: message` line, a log line, a repr)."""


def _frames_of_cut(complete: list[RaisedError], cut: Sequence[RaisedError]) -> list[RaisedError]:
    """The errors of a paste that quotes an error (an issue's title or a sentence:
    `AssertionError: parent does not have child key`) and holds a traceback cut before its
    exception line: when the cut traceback's innermost frame shows the statement that raises
    the quoted error (an `assert` for an AssertionError, `raise <its type>`, maybe cut:
    `raise Runt`) and it is the only frameless error that statement fits, the frames are its
    own (they tell which of the sites that raise the same text raised it)."""
    out = list(complete)
    for tb in cut:
        if not tb.frames:
            continue
        code = (tb.frames[-1].code or "").strip()
        fits = [
            i
            for i, e in enumerate(out)
            if e.form in _FRAMELESS and not e.frames and _shows_raise(code, e.short_type)
        ]
        if len(fits) == 1:
            out[fits[0]] = replace(out[fits[0]], frames=tb.frames)
    return out


def _shows_raise(code: str, short_type: str) -> bool:
    """Whether a frame's source line raises an exception of type `short_type`."""
    if not short_type:
        return False
    if code.startswith("assert ") or code == "assert":
        return short_type == "AssertionError"
    if not code.startswith("raise "):
        return False
    rest = code[len("raise ") :]
    name = rest.split("(", 1)[0].strip().rsplit(".", 1)[-1]
    if not name:
        return False
    # `raise ValueError(` names the type whole; `raise Runt` may be a line cut by the paster
    return name == short_type if "(" in rest else short_type.startswith(name)


def _unwrapped(err: RaisedError) -> RaisedError:
    """A pydantic ValidationError (raised as such, or in an HTTP error body) stands for the
    error its validator raised: that error's type and message are what a catalog holds."""
    inner = pydantic_inner(err.message)
    if inner is None:
        return err
    return replace(err, type=inner[0], message=inner[1])


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
    """Same type, message and frames, and for an exception written inside a line of output the
    same words before it (ranks printing one record merge; two records do not); paths compared
    by their last two parts."""
    frames = tuple(("/".join(f.path.split("/")[-2:]), f.line, f.function) for f in err.frames)
    return (err.type, err.message, frames, err.truncated, err.lead)


_LEAD_WORD = compile_regex(r"\b[A-Za-z][a-z]{2,}\b")
_LEAD_CHARS = 300
"""A word of a record's lead: a plain word of its text (values such as ids, counts and hex
digests, identifiers such as a test's name, and level names are not), and how much of the line
before the exception is read for them."""


def lead_words(st: str, typ: str) -> str:
    """The words of line `st` before its exception `typ` (the record reporting it)."""
    at = st.find(typ)
    return " ".join(_LEAD_WORD.findall(st[max(0, at - _LEAD_CHARS) : max(at, 0)]))


def _json_bodies(lines: Sequence[Line]) -> dict[int, list[str]]:
    """The messages of the HTTP error bodies in the cleaned text, by the line of their key."""
    text = "\n".join(ln.text for ln in lines)
    found = json_errors(text)
    out: dict[int, list[str]] = {}
    if not found:
        return out
    starts = [0]
    for ln in lines[:-1]:
        starts.append(starts[-1] + len(ln.text) + 1)
    from bisect import bisect_right

    for offset, message in found:
        no = lines[bisect_right(starts, offset) - 1].no
        out.setdefault(no, []).append(message)
    return out


def _typed(message: str) -> tuple[str, str, tuple[Frame, ...]]:
    """An error body's message as (type, message, frames): `ValueError: x` gives its type; a
    whole traceback in the message gives its final exception; else the type is unknown."""
    first, _, rest = message.partition("\n")
    head = exception_head(first.strip(), lax=False)
    if head is not None:
        return head[0], "\n".join(p for p in (head[1], rest) if p).strip(), ()
    if "Traceback (most recent call last)" in message:
        inner = [e for e in _Stream(clean_lines(message), depth=_MAX_DEPTH).run() if e.type]
        if inner:
            return inner[-1].type, inner[-1].message, inner[-1].frames
    return "", message, ()


def _secondary(
    lines: Sequence[Line],
    bodies: dict[int, list[str]],
    covered: set[int],
    primary: Sequence[RaisedError],
) -> list[RaisedError]:
    """Errors with no exception line of their own, outside every exception's lines: HTTP error
    bodies, exception reprs and error log lines; those that echo an exception are dropped."""
    out = secondary_candidates(lines, bodies, covered, primary)
    seen = [e.message for e in primary if e.message and not e.truncated][:_ECHO_CHECKED]
    return [e for e in out[:_MAX_SECONDARY] if not any(_same(e.message, m) for m in seen)]


def secondary_candidates(
    lines: Sequence[Line],
    bodies: dict[int, list[str]],
    covered: set[int],
    primary: Sequence[RaisedError],
) -> list[RaisedError]:
    """The errors `_secondary` considers, before those that echo an exception are dropped."""
    out = _body_errors(bodies, covered)
    cut = {e.line_no: e for e in primary if e.truncated}
    records = _Records(lines)
    for idx, ln in enumerate(lines):
        no, text, rank, prefix, _, fence = ln  # (unpacked: this loop sees every line)
        if ": error: " in text and no not in covered and (usage := argparse_error(text.strip())):
            out.append(RaisedError("", usage, line_no=no, form="argparse"))
            continue
        if not (prefix or "(" in text or text.lstrip()[:1] == "["):
            continue  # no log prefix, tag or repr
        st = text.strip()
        # (a traceback's frame or code line printed through the logger is no error of its own)
        if not st or no in covered or no in bodies or fence or records.code_line(prefix, text):
            continue
        if len(out) >= _MAX_SECONDARY:
            break
        ranks = (rank,) if rank else ()
        reprs = exception_reprs(st)
        if reprs:
            out.extend(
                RaisedError(t, m, ranks=ranks, line_no=no, form="repr", lead=lead_words(st, t))
                for t, m in reprs
            )
            continue
        err = _log_error(lines, idx, cut)
        if err is not None:
            out.append(replace(err, ranks=ranks))
    return out


_DIGITS = compile_regex(r"\d+")


def _shape(prefix: str) -> str:
    """A log prefix with its numbers masked: the records of one logger share it."""
    return _DIGITS.sub("0", prefix)


class _Records:
    """Whether a record's text is a traceback's frame or code line printed through the logger:
    indented after its prefix deeper than the shallowest record of the same prefix shape (the
    shapes' depths read once, at the first indented record)."""

    def __init__(self, lines: Sequence[Line]) -> None:
        self._lines = lines
        self._least: dict[str, int] | None = None

    def code_line(self, prefix: str, text: str) -> bool:
        if not (prefix and text[:1].isspace()):
            return False
        if self._least is None:
            self._least = _shallowest_records(self._lines)
        return indent(text) > self._least.get(_shape(prefix), 0)


def _shallowest_records(lines: Sequence[Line]) -> dict[str, int]:
    """The least indentation of a record's text after its prefix, per prefix shape. A logger
    that prints a traceback line by line (vLLM's `ERROR 12-05 20:24:46 engine.py:366] ` on
    each) indents the frames and code lines under it deeper than its messages (`KeyError: x`),
    while a level padded to a width (`ERROR    [975] ...`) indents every message alike."""
    least: dict[str, int] = {}
    for ln in lines:
        if ln.prefix and ln.text.strip():
            shape, depth = _shape(ln.prefix), indent(ln.text)
            if depth < least.get(shape, depth + 1):
                least[shape] = depth
    return least


def _body_errors(bodies: dict[int, list[str]], covered: set[int]) -> list[RaisedError]:
    out: list[RaisedError] = []
    for no, messages in bodies.items():
        if no in covered:
            continue
        for message in messages:
            typ, msg, frames = _typed(message)
            out.append(RaisedError(typ, msg, frames=frames, line_no=no, form="json"))
    return out


def _log_error(lines: Sequence[Line], idx: int, cut: dict[int, RaisedError]) -> RaisedError | None:
    """The error of a log line (`cut`: the tracebacks that lost their exception line, by the
    line of their header)."""
    ln = lines[idx]
    logged = error_log_message(ln)
    frames: tuple[Frame, ...] = ()
    if _before_header(lines, idx):
        follows = cut.get(lines[idx + 1].no)
        if follows is None:
            return None  # the traceback below has its own exception line
        # It was cut before its exception line: the line that introduced it (as
        # `logger.exception(msg)` prints msg, then the traceback) is all there is.
        frames = follows.frames
        if logged is None and ln.prefix:
            logged = ln.text.strip()
    if logged is None or NOISE.match(logged):
        return None
    typ, msg, _ = _typed(logged)
    return RaisedError(typ, msg, frames=frames, line_no=ln.no, form="log")


def _before_header(lines: Sequence[Line], idx: int) -> bool:
    """A log line right above a traceback (or its header on the same line) introduces it."""
    nxt = lines[idx + 1] if idx + 1 < len(lines) else None
    return nxt is not None and line_kind(nxt.text.strip() or " ") in ("header", "jheader")


def _same(message: str, exception: str) -> bool:
    """Whether an error found in a log line or body merely repeats an exception's message."""
    if message == exception:
        return True
    head = exception[:200]
    if len(head) >= 12 and head in message:
        return True
    return len(message) >= 12 and message[:200] in exception[:2000]


class _Stream:
    """Reads the lines of one stream, top to bottom, into records."""

    def __init__(
        self, lines: Sequence[Line], depth: int = 0, json_lines: Collection[int] = ()
    ) -> None:
        self.lines = lines
        self.depth = depth
        self.json_lines = json_lines
        self.covered: set[int] = set()
        self.i = 0
        self.out: list[RaisedError] = []
        self.trace: _Trace | None = None
        self.chain: list[RaisedError] = []
        self.relation: str | None = None
        self.linkable = False
        self.after_frames = False
        self.shown: set[str] = set()  # code lines the stream's frames showed so far

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
        if not kind and self.trace is not None and self.trace.jupyter:
            kind = self._jupyter_line(line, st)
        lax, self.after_frames = self.after_frames, kind not in ("", "chain", "rule")
        if kind:
            self._structure(line, st, kind)
        elif head := exception_head(st, lax=lax and self.trace is not None):
            self._raise(line, head, "line", more=st != head[0])
        elif lax and self.trace is not None and (name := cut_exception_name(st)):
            # the paste stops inside the exception line (`AssertionErro`): the class is known,
            # its message lost as if no exception line had come
            self.trace.last = line.no
            self._close_trace(name)
        elif line.no not in self.json_lines:
            if self.trace is not None and line.text[:4] == "    " and len(self.shown) < SHOWN_MOST:
                self.shown.add(st)  # (a code line no frame took: another trace's, interleaved)
            self._inline(line, st)

    def _inline(self, line: Line, st: str) -> None:
        """Exceptions inside a line of output or prose; else assert statements quoted in it."""
        heads = embedded_exceptions(st)
        if heads:
            if line.record:
                self._close_trace()
            for typ, message, quoted in heads:  # quoted: prose; else a line of output
                form, lead = ("prose", "") if quoted else ("log", lead_words(st, typ))
                self._raise(line, (typ, message), form, more=not quoted, lead=lead)
        elif "assert" in st:
            self._prose_asserts(line, st)

    def _prose_asserts(self, line: Line, st: str) -> None:
        """Assert statements quoted in prose, each an AssertionError whose message is the
        statement, at the file the line names (if any); else an assert the line names by its
        module and function, a message-less AssertionError with a frame there."""
        tests = quoted_asserts(st) if "assert " in st else []
        if tests:
            errors = [
                RaisedError(
                    "AssertionError",
                    f"assert {test}",
                    (Frame(where[0], where[1], None, f"assert {test}"),) if where else (),
                    form="prose",
                )
                for test, where in tests
            ]
        elif (named := named_assert(st)) is not None:
            frame = Frame(named[0], None, named[1], None)
            errors = [RaisedError("AssertionError", "", (frame,), form="prose")]
        else:
            return
        self._close_trace()
        self.covered.add(line.no)
        for err in errors:
            self._emit(replace(err, line_no=line.no))

    def _structure(self, line: Line, st: str, kind: str) -> None:
        if kind in ("header", "jheader"):
            self._close_trace()
            # (the record that announced it on its header's line: `Scheduler hit an exception:`)
            lead, _ = header_lead(self.lines, self.i - 1, line.text)
            self.trace = _Trace(line, jupyter=kind == "jheader", lead=lead)
        elif kind == "group":
            self._group(line)
        elif kind == "chain":
            self._link(CHAIN[st])
        elif kind == "frame":
            self._frame(line, st)
        elif kind == "jframe":
            m = JFRAME.fullmatch(st)
            assert m is not None  # line_kind matched it
            self._jframe(line, m)

    def _jupyter_line(self, line: Line, st: str) -> str:
        """Inside an IPython traceback: a context line (`---> 70 code` gives the frame its
        code) or an IPython 7 frame (`/x.py in f(a)`); never a message or an error."""
        assert self.trace is not None
        m = JCONTEXT.fullmatch(st)
        if m is not None:
            frames = self.trace.frames
            if m["arrow"] and frames:
                code = (m["code"] or "").strip() or None
                no = frames[-1].line if frames[-1].line is not None else int(m["no"])
                frames[-1] = replace(frames[-1], line=no, code=code)
            self.trace.last = line.no
            return _JUPYTER_CONTEXT
        old = JFRAME_OLD.fullmatch(st)
        if old is not None:
            self._jframe(line, old)
            return _JUPYTER_CONTEXT
        return ""

    def _frame(self, line: Line, st: str) -> None:
        m = FRAME.fullmatch(st) or CUT_FRAME.fullmatch(st)
        short = SHORT_FRAME.fullmatch(st) if m is None else None
        if m is None and short is None:
            return
        if self.trace is None:
            self.trace = _Trace(line, stack=self._printed_stack(self.i - 1))
        raised = None
        if short is not None:  # condensed: its code, if any, is on the same line
            code = short["acode"] or short["scode"] or short["code"]
            # (or the exception it raised: `dflash.py:969  RuntimeError: ...`, a summary's
            # last frame with the error written after it)
            raised = exception_head(code, False) if code and short["code"] else None
            code = None if raised else code
            frame = Frame(short["path"], int(short["line"]), _dunder(short["func"]), code)
            self.trace.short += 1
        else:
            assert m is not None
            func = _dunder(m["func"].strip()) if m["func"] else None
            arrow = _ARROW_CODE.fullmatch(func) if func else None
            if arrow is not None:  # (a condensed frame: its code written after an arrow)
                func = arrow["func"]
            elif func and len(line.text) >= _CUT_FRAME_MIN:
                func += self._func_rest(line)
            code = self._code_after(line) or (arrow["code"] if arrow is not None else None)
            more = self._code_more(line) if code else None
            frame = Frame(m["path"], int(m["line"]), func, code, more)
        self.trace.frames.append(frame)
        self.trace.last = self.lines[self.i - 1].no
        if raised is not None:
            self._raise(line, raised, "line")

    def _printed_stack(self, at: int) -> bool:
        """Whether the frame line at `at`, read with no traceback header above it, starts a
        stack a program printed rather than an error's traceback: the line above it is
        Python logging's `Stack (most recent call last):` (`stack_info=True`), or a bare
        `Stack trace:` / `Call stack:` closing a log record's lines (at most STACK_LEAD of
        them, no blank line between: `[... TP0] <warning>:`, its detail lines, then the
        stack it dumps with `traceback.format_stack()`)."""
        if at < 1:
            return False
        head = self.lines[at - 1].text.strip()
        if _LOGGING_STACK.fullmatch(head):
            return True
        if not _STACK_HEAD.fullmatch(head):
            return False
        for j in range(at - 2, max(-1, at - 2 - STACK_LEAD), -1):
            prev = self.lines[j]
            if not prev.text.strip() or prev.fence or prev.no in self.covered:
                return False
            if prev.record:
                return True
        return False

    def _jframe(self, line: Line, m: re.Match[str]) -> None:
        """An IPython frame: `File ~/x.py:70, in f(a)`, `Cell In[3], line 5`; its code comes
        from the `--->` context line below it."""
        if self.trace is None or not self.trace.jupyter:
            self._close_trace()
            self.trace = _Trace(line, jupyter=True)
        groups = m.groupdict()
        path = groups.get("path") or groups.get("cell") or groups.get("input") or ""
        no = groups.get("line") or groups.get("cline")
        self.trace.frames.append(Frame(path.strip(), int(no) if no else None, m["func"]))
        self.trace.last = line.no

    def _func_rest(self, line: Line) -> str:
        """Consume and return the rest of a frame's function name that a terminal's width
        carried to the next line (`  File "...", line 398, in l` / `oad_weights`): a bare
        lower-case name no deeper than the frame line, with code deeper than it or the
        traceback going on after it (a bare name alone at the margin is an exception line)."""
        if self.i + 1 >= len(self.lines):
            return ""
        nxt, after = self.lines[self.i], self.lines[self.i + 1]
        st = nxt.text.strip()
        if (
            not _NAME_REST.fullmatch(st)
            or st in _BARE_STATEMENTS
            or nxt.fence
            or nxt.record
            or indent(nxt.text) > indent(line.text)
        ):
            return ""
        rest = after.text.strip()
        if not rest or after.fence:
            return ""
        if not (indent(after.text) > indent(line.text) or structural(rest)):
            return ""
        self.i += 1
        return st

    def _code_after(self, line: Line) -> str | None:
        """Consume and return the source line printed under a frame, if there is one."""
        if self.i >= len(self.lines):
            return None
        nxt, skip = self.lines[self.i], 1
        if not nxt.text.strip() and not nxt.fence and self.i + 1 < len(self.lines):
            # a double-spaced paste: Python prints no blank line under a frame, so a line
            # indented under it after one blank line is its code (never an exception line)
            nxt, skip = self.lines[self.i + 1], 2
            if indent(nxt.text) <= indent(line.text) or exception_head(nxt.text.strip(), True):
                return None
        st = nxt.text.strip()
        if not st or nxt.fence or (nxt.record and nxt.prefix != line.prefix):
            return None
        if structural(st) or skippable(st):
            return None
        if indent(nxt.text) <= indent(line.text) and exception_head(st, lax=True):
            return None
        self.i += skip
        return st

    def _code_more(self, line: Line) -> str | None:
        """Consume the further lines of a statement shown over several lines (Python 3.13:
        the expression that failed, its caret lines and `...<N lines>...`, each indented at
        least as deep as the first code line) and return them (None: one line only)."""
        first = self.lines[self.i - 1]
        deep = indent(first.text)
        more: list[str] = []
        while self.i < len(self.lines):
            nxt = self.lines[self.i]
            st = nxt.text.strip()
            if not st or nxt.fence or (nxt.record and nxt.prefix != line.prefix):
                break
            if indent(nxt.text) < deep or indent(nxt.text) <= indent(line.text):
                break
            if structural(st) or self._indented_raise(st, deep):
                break
            self.i += 1
            if st.startswith("...<") and st.endswith(">..."):
                more.append("…")
            elif not skippable(st):  # (a caret line is under the code, part of it)
                more.append(st)
        return "\n".join(more) if any(m != "…" for m in more) else None

    def _indented_raise(self, st: str, deep: int) -> bool:
        """Whether the line at `self.i` (`st`, stripped) is the exception line its paster
        indented with the code above it (`    TypeError: unsupported operand ...` as the last
        indented line of a traceback whose margin a flattened paste lost), not more code: an
        exception line ending the indented run."""
        if exception_head(st, lax=False) is None:
            return False
        after = self.lines[self.i + 1] if self.i + 1 < len(self.lines) else None
        return after is None or not after.text.strip() or after.fence or indent(after.text) < deep

    def _spaced(self, line: Line) -> bool:
        """Whether the traceback ending at the exception line `line` (at `self.i - 1`) was
        pasted double-spaced, a blank line after each of its lines (a copy from a web log
        viewer): one blank line between its last code line and the exception line, where
        Python prints none. Its message's lines are double-spaced too."""
        at = self.i - 1
        if self.trace is None or at < 2 or self.lines[at] is not line:
            return False
        blank, code = self.lines[at - 1], self.lines[at - 2]
        return not blank.text.strip() and not blank.fence and bool(code.text.strip())

    def _raise(
        self, line: Line, head: tuple[str, str], form: str, more: bool = True, lead: str = ""
    ) -> None:
        """An exception line: its message (continued on the lines below when `more`; never
        after a bare `NotImplementedError` or a quoted one) ends the traceback being read.
        `lead`: the words before it of the line of output it was written in."""
        message = head[1]
        # (read before the message's further lines are: a bare assert's statement above it)
        bare_assert = not message and head[0].rsplit(".", 1)[-1] == "AssertionError"
        above = self._statement_above(self.i - 1) if bare_assert and self.trace is None else ""
        if more:
            prev = self.lines[self.i - 2] if self.i >= 2 else None
            per_line = bool(
                prev and prev.no != line.no and line.record and prev.prefix == line.prefix
            )
            spaced = self._spaced(line)
            self._note_shown(self.trace)
            message, self.i = _message(
                self.lines, self.i, line, head[1], per_line, spaced, self.shown
            )
        trace, self.trace = self.trace, None
        start = trace.start if trace else line
        self.covered.update(range(start.no, self.lines[self.i - 1].no + 1))
        rank = start.rank or line.rank
        typ, frames = head[0], tuple(trace.frames) if trace else ()
        if trace is not None:
            form = "jupyter" if trace.jupyter else "traceback"
        if "message" in message or "detail" in message:
            bodies = json_errors(message)
            if bodies:  # `openai.BadRequestError: Error code: 400 - {...}`: the inner error
                typ, message, frames = _typed(bodies[0][1])
                form = "json"
        # every field positionally: binding keywords costs as much as the rest of this call
        ranks = (rank,) if rank else ()
        shown = above if not message.strip() else ""  # (no further lines came)
        err = RaisedError(
            typ, message, frames, (), None, (), 1, ranks, False, line.no, form, lead, shown
        )
        self._emit(err)

    def _note_shown(self, trace: _Trace | None) -> None:
        """Keep the code lines `trace`'s frames showed, a statement's further lines too (up to
        SHOWN_MOST of the stream's)."""
        if trace is not None and len(self.shown) < SHOWN_MOST:
            for f in trace.frames:
                for code in (f.code, *(f.more or "").split("\n")):
                    if code and (c := code.strip()) and c != "\u2026":
                        self.shown.add(c)

    def _statement_above(self, at: int) -> str:
        """The assert statement printed right above the exception line at `at` (its caret
        lines skipped) when no frame line came before: a paste that starts at the code line
        of the innermost frame (`    assert x == y` then `AssertionError`)."""
        line, j = self.lines[at], at - 1
        while j >= 0:
            prev = self.lines[j]
            st = prev.text.strip()
            if not st or prev.fence or prev.prefix != line.prefix or prev.no in self.covered:
                return ""
            if not skippable(st):
                return st if st.startswith(("assert ", "assert(")) else ""
            j -= 1
        return ""

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

    def _close_trace(self, cut_type: str = "") -> None:
        """A traceback that ends with no exception line becomes a truncated record (of
        `cut_type` when the paste stopped inside the exception line, in the class's name)."""
        trace, self.trace = self.trace, None
        if trace is None:
            return
        self._note_shown(trace)
        # a chain's last traceback cut before its exception line: the error the chain led to
        # was not pasted; the errors above it are its chain (:func:`finish` flushes it back to
        # its last link when the paste holds a complete error elsewhere)
        if _reference_only(trace, self.chain):
            return
        self.covered.update(range(trace.start.no, trace.last + 1))
        if trace.stack and not self.chain:
            # a stack a program printed, no error's traceback: the record above it is what
            # the paste reports (read as a line with no exception in it)
            return
        chain, relation = tuple(self.chain), self.relation
        self.chain, self.relation = [], None
        rank = trace.start.rank
        self.out.append(
            RaisedError(
                type=cut_type,
                message="",
                frames=tuple(trace.frames),
                chain=chain,
                chain_relation=relation if chain else None,
                truncated=True,
                ranks=(rank,) if rank else (),
                line_no=trace.start.no,
                form="jupyter" if trace.jupyter else "traceback",
                lead=trace.lead,
            )
        )
        self.linkable = False

    def _flush_chain(self) -> None:
        """A chain whose final exception never came: return its last error, as far as it got."""
        if self.chain:
            self.out.append(_last_link(self.chain))
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
            members[-1].append(_retext(ln, body[2:]))
        else:
            own.append(_retext(ln, body[2:] if body[:1] in ("|", "+") else body))
    return own, members


def _retext(ln: Line, text: str) -> Line:
    """`ln` with another text (positional: the generic `replace` costs 4x as much, and a
    nested group rewrites each of its lines once per level)."""
    return Line(ln.no, text, ln.rank, ln.prefix, ln.stream, ln.fence)


SHOWN_MOST = 4096
"""Distinct code lines of a stream's frames kept to end a message at (:func:`_message`)."""


def _message(
    lines: Sequence[Line],
    j: int,
    exc: Line,
    first: str,
    per_line: bool,
    spaced: bool = False,
    shown: Collection[str] = (),
) -> tuple[str, int]:
    """Collect the message lines after an exception line; return it and where reading stops.

    The message ends at a blank line followed by an unindented line, a new log record (unless
    every line of this record carries the same prefix, `per_line`), traceback structure, another
    exception line, a fence, or a log line that echoes the message. In a double-spaced paste
    (`spaced`) a single blank line is the paste's, not the message's: two end it. A line that
    repeats a code line a frame of the stream showed (`shown`) ends it too: another process
    printing the same traceback at once, its lines interleaved with these.
    """
    prefix = exc.prefix if per_line else None
    parts = [first]
    prev = exc.text.rstrip()
    item = _LIST_ITEM.match(exc.text) is not None
    while j < len(lines):
        ln = lines[j]
        if item and _LIST_ITEM.match(ln.text) and indent(ln.text) == indent(exc.text):
            break  # (the next item of the list the exception line is an item of)
        if not ln.text.strip():
            k = j
            while k < len(lines) and not lines[k].text.strip() and not lines[k].fence:
                k += 1
            if spaced and k == j + 1 and k < len(lines) and not _stops(lines[k], prefix, first):
                j = k  # the paste's own blank line between two lines of the message
                continue
            indented = k < len(lines) and lines[k].text[:1].isspace()
            # after a blank line, only an indented block that the message introduces
            opens = parts[-1].rstrip().endswith(":") or not "".join(parts).strip()
            if not (indented and opens) or _stops(lines[k], prefix, first):
                break
            parts.extend([""] * (k - j))
            j = k
            continue
        if _stops(ln, prefix, first) or _comment_dedent(ln.text, exc.text):
            break
        if shown and ln.text.strip() in shown:
            break
        parts = _append(parts, prev, ln.text.rstrip())
        prev = ln.text.rstrip()
        j += 1
    return "\n".join(parts).strip("\n").rstrip(), j


_LIST_ITEM = compile_regex(r"\s*(?:[-*+]|\d{1,3}[.)])\s+\S")
"""A markdown list item's marker: an exception line that is one ends where the next item of
its list starts (`- vLLM: ValueError: ...` then `- SGLang: ...`)."""


def _comment_indent(text: str) -> int | None:
    """How far the text of a `#` comment line is indented after its `#`, or None."""
    st = text.strip()
    if not st.startswith("#") or st.startswith("#!"):
        return None
    body = st.lstrip("#")
    return len(body) - len(body.lstrip())


def _comment_dedent(text: str, exc: str) -> bool:
    """An error quoted in a code comment (`#   AssertionError: ...`) ends at a comment line
    indented less after its `#` (`# See: ...`: the comment goes on with its own words); a
    message wrapped inside the comment keeps the indent."""
    mine, theirs = _comment_indent(exc), _comment_indent(text)
    return mine is not None and theirs is not None and theirs < mine


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
    if structural(st) or NOISE.match(st) or (st[:3] == "at " and AT_LINE.fullmatch(st)):
        return True
    if st[:1] in ".[(\u2026" and ELIDED.fullmatch(st):  # lines left out: the message ended
        return True
    if st[:1] == "`" and st[:3] != "```":  # the next inline-code span of prose or a list
        return True
    if not ln.text[:1].isspace() and ":" in st and exception_head(st, lax=False):
        return True
    if ":" in st and any(not quoted for _, _, quoted in embedded_exceptions(st)):
        return True  # prose that goes on to the next error (`with --ep-size 1 got ValueError: x`)
    return _echoes(st, first)


def _echoes(st: str, first: str) -> bool:
    """A log line that repeats the message: `... failed with exception <message>`."""
    if len(first) < 16:
        return False
    at = st.find(first)
    return at > 0 and ("exception" in st[:at].lower() or "error" in st[:at].lower())


def _dunder(func: str | None) -> str | None:
    """A function name as Python wrote it, where markdown read its underscores as bold
    (`**init**` of `__init__` in a paste rendered by an issue tracker)."""
    if func and len(func) > 4 and func.startswith("**") and func.endswith("**"):
        inner = func[2:-2]
        if inner.isidentifier():
            return f"__{inner}__"
    return func
