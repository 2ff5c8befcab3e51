"""Lines printed by native (C, C++, CUDA) code: errors with no Python exception of their own.

A crash in compiled code often prints its reason on a line of its own, above what Python or the
serving process prints afterwards (`Scheduler ... terminated with 255`, `crashed with exit code
-6`, a `device-side assert triggered` traceback): a CUDA kernel's failed assertion
(`IndexKernel.cu:92: operator(): block: [3,0,0], thread: [5,0,0] Assertion `idx < n` failed.`),
a C/C++ source location followed by its message (`ibgda.cpp:2174: NULL value Unable to create
ah.`, also after FlashInfer's `Error in function 'X' at `), `Fatal Python error: Segmentation
fault` (also quoted in a sentence), and `terminate called after throwing an instance of
'c10::Error'` with its `what():` line. Each is read as an error of form "native" (its frame
the printed source location), one per distinct message: the thread and block coordinates of a
kernel assertion are left out, so the copies every GPU thread prints are counted, not listed.
Pure, linear in the lines, every pattern anchored (the quoted fatal error is searched for,
bounded, only on a line that holds its words).
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex, replace
from errexplain.models import Frame, RaisedError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from errexplain.parse.lines import Line

__all__ = ["native_errors"]

_SOURCE = r"(?P<path>(?:[A-Za-z]:)?[\w./\\~+-]{0,400}?\w\.(?:cu|cuh|cpp|cc|cxx|c|h|hpp))"
_THREAD = r"block: \[[\d, ]{1,40}\], thread: \[[\d, ]{1,40}\]:?"
"""The GPU block and thread a kernel's assertion names (left out of the message)."""
_FAILED = r"Assertion `(?P<cond>[^\n]{1,400})` failed\.?\s*$"
_KERNEL_ASSERT = compile_regex(
    _SOURCE + r":(?P<line>\d{1,7}): (?P<fn>[^\n]{0,300}?):? ?" + _THREAD + " " + _FAILED
)
_LOCATED = compile_regex(_SOURCE + r":(?P<line>\d{1,7})(?::\d{1,5})?:\s*(?P<rest>[^\n]{0,600})$")
_ASSERT_ONLY = compile_regex(r"(?:(?P<fn>[\w:<>~() ]{1,200}?): )?(?:" + _THREAD + " )?" + _FAILED)
_FATAL = compile_regex(r"Fatal Python error: (?P<msg>[^\n]{1,300})$")
_FATAL_QUOTED = compile_regex(
    r"[`'\"\u201c]Fatal Python error: (?P<msg>[^`'\"\u201d\n]{1,120})[`'\"\u201d]"
)
"""`Fatal Python error: ...` quoted in a sentence (the server crashed with "Fatal Python error:
Segmentation fault" under load): the crash the prose reports, up to the closing quote."""
_TERMINATE = compile_regex(
    r"terminate called after throwing an instance of '(?P<type>[\w:<>, ]{1,200})'\s*$"
)
_WHAT = compile_regex(r"what\(\):\s+(?P<msg>[^\n]{1,600})$")
_IN_FUNCTION = compile_regex(r"Error in function '(?P<fn>[^'\n]{1,200})' at (?=\S)")
"""The opening of FlashInfer's error lines (`Error in function 'BatchPrefill...' at
.../prefill.cuh:2215: Unsupported max_mma_kv: 0`): the function, then the source location and
its message."""
_JOINED = compile_regex(r"(?<=failed\.)(?=\S)")
_NOT_ERRORS = ("warning", "note:", "In function", "In member function", "In instantiation")


def native_errors(lines: Sequence[Line]) -> list[RaisedError]:
    """The native errors of a paste's cleaned lines, in order, one per source location (else
    per text) with its count. (The explainer drops those an exception's message holds.)"""
    found: dict[tuple[str, str], RaisedError] = {}  # (by source location, else by text)
    i = 0
    while i < len(lines):
        ln = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        i += 1
        st = ln.text.strip().strip("`").strip()
        if len(st) < 8:
            continue
        # copies of one line that a terminal-width unwrap joined (`... failed./path/x.cu:9: ...`)
        for part in _JOINED.split(st) if "failed." in st else (st,):
            err, used_next = _read(part, ln.no, nxt.text.strip() if nxt is not None else "")
            if err is None:
                continue
            if used_next:
                i += 1
            # one per source location: the copies every thread prints, interleaved or cut
            # mid-line by the terminal, are the same error
            f = err.frames[0] if err.frames else None
            key = (f.path, str(f.line)) if f is not None else (err.type, err.message)
            old = found.get(key)
            found[key] = err if old is None else replace(old, count=old.count + 1)
    return list(found.values())


def _read(st: str, no: int, nxt: str) -> tuple[RaisedError | None, bool]:
    """The native error a line holds (with the next line when its message is printed there)."""
    if ".c" in st or ".h" in st:
        return _located(st, no, nxt)
    if st.startswith("Fatal Python error: "):
        m = _FATAL.match(st)
        if m:
            msg = f"Fatal Python error: {m['msg'].strip()}"
            return RaisedError("", msg, line_no=no, form="native"), False
    if "Fatal Python error: " in st:
        m = _FATAL_QUOTED.search(st)
        if m:
            msg = f"Fatal Python error: {m['msg'].strip()}"
            return RaisedError("", msg, line_no=no, form="native"), False
    if st.startswith("terminate called after throwing"):
        m = _TERMINATE.match(st)
        if m:
            w = _WHAT.match(nxt) if nxt.startswith("what()") else None
            msg = w["msg"].strip() if w else ""
            return RaisedError(m["type"], msg, line_no=no, form="native"), w is not None
    return None, False


def _located(st: str, no: int, nxt: str) -> tuple[RaisedError | None, bool]:
    """A line that opens with a C/C++/CUDA source location (after FlashInfer's `Error in
    function '<name>' at `, if any): a kernel's failed assertion, or a location and its message
    (on the next line when the line ends at the location)."""
    joined = st.endswith(":") and "Assertion `" in nxt  # (the kernel's name ends the line)
    m = _KERNEL_ASSERT.match(f"{st} {nxt}" if joined else st)
    if m:
        frame = Frame(m["path"], int(m["line"]), m["fn"].strip() or None, None)
        msg = f"Assertion `{m['cond']}` failed."
        return RaisedError("", msg, (frame,), line_no=no, form="native"), joined
    named = _IN_FUNCTION.match(st)
    m = _LOCATED.match(st, named.end() if named else 0)
    if not m:
        return None, False
    rest = m["rest"].strip()
    used = False
    if not rest and nxt:
        rest, used = nxt, True  # `file.cpp:180:` and the message on the next line
    if not rest or rest.startswith(_NOT_ERRORS) or rest[:1] in "{}();,":
        return None, False
    fn = named["fn"] if named else None
    a = _ASSERT_ONLY.match(rest)
    if a:
        fn = (a["fn"] or "").strip() or None
        rest = f"Assertion `{a['cond']}` failed."
    frame = Frame(m["path"], int(m["line"]), fn, None)
    return RaisedError("", rest, (frame,), line_no=no, form="native"), used
