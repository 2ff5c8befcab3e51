"""Errors written inside other text rather than as a Python exception line.

- HTTP error bodies, as JSON or as a Python dict's repr, on one line or pretty-printed:
  `{"object": "error", "message": "...", "code": 400}`, `{"error": {"message": ...}}`,
  `{"detail": "..."}` (`json_errors`).
- Exception reprs: `exception=RuntimeError('boom')`, `failed: ValueError("bad")`
  (`exception_reprs`).
- Error log lines that carry no exception: an error level in the log prefix, or an
  `Error:` marker (`error_log_message`).

String literals are decoded as JSON and Python write them (`decode_literal`). Every pattern is
anchored or bounded and every scan moves forward, so all of this is linear in the input.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex
from errexplain.models import ELLIPSES

if TYPE_CHECKING:
    import re

    from errexplain.parse.lines import Line

_ESCAPE = compile_regex(r"\\(?:u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|[\s\S])")
_SURROGATE = compile_regex("[\ud800-\udfff]")
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "0": "\0", "a": "\a", "v": "\v"}

# The body of a string literal after its opening quote, and its closing quote.
_STRING = {
    '"': compile_regex(r'(?:[^"\\\n]|\\.){0,200000}"'),
    "'": compile_regex(r"(?:[^'\\\n]|\\.){0,200000}'"),
}
_KEY = compile_regex(r"""(["'])(message|detail)\1[ \t\n]{0,40}:[ \t\n]{0,40}(["'])""")
# What makes an object around a message key an error body (searched once over the text).
_MARKER = compile_regex(
    r"""["'](?:error|errors)["'][ \t\n]{0,40}:"""
    r"""|["'](?:object|status|level)["'][ \t\n]{0,40}:[ \t\n]{0,40}["']"""
    r"""(?:error|failed|failure|ERROR|critical|CRITICAL|fatal|FATAL)["']"""
    r"""|["']type["'][ \t\n]{0,40}:[ \t\n]{0,40}["'][\w.]{0,100}(?:Error|Exception|error)["']"""
    r"""|["'](?:code|status|status_code)["'][ \t\n]{0,40}:[ \t\n]{0,40}["']?[45]\d\d\b"""
    r"""|[Ee]rror code:? [45]\d\d\b|\bHTTP/[\d.]{1,5}"? [45]\d\d\b"""
    r"""|\b[45]\d\d (?:Bad|Client|Server)"""
)
_WINDOW = 400
"""How far (characters) from a message key an error marker may be."""
_MAX_BODIES = 200

_LEVEL_WORD = compile_regex(r"\b(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b")
_ERROR_LEVELS = ("ERROR", "CRITICAL", "FATAL")
_GLOG_ERROR = compile_regex(r"\[?[EF]\d{4} ")
_TAGS = compile_regex(r"(?:\[[^\[\]\n]{1,100}\] ?){1,3}")
_MARKED = compile_regex(r"(?:Error|error|ERROR): ")
_MARK_INSIDE = compile_regex(r"\b[Ee]rror: ")

_NAME = r"(?:[A-Za-z_]\w{0,100}\.){0,10}"
_REPR = compile_regex(
    rf"(?:(?<=\\[nrt])|(?<![\w.\\]))(?P<type>{_NAME}[A-Z]\w{{0,100}}(?:Error|Exception|Interrupt|Exit))"
    r"\((?:(?P<q>['\"])|\))"
)
_CODE_BEFORE = ("raise", "return", "yield", " =", "except", "isinstance(", "assert")
_MAX_REPRS = 16


def decode_literal(body: str) -> str:
    """The text of a JSON or Python string literal's body (what is between its quotes)."""
    if "\\" not in body:
        return body
    out = _ESCAPE.sub(_unescape, body)
    if _SURROGATE.search(out):  # a JSON surrogate pair, \ud83d\ude00
        out = out.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return out


def _unescape(m: re.Match[str]) -> str:
    s = m.group(0)[1:]
    if len(s) > 1:  # \uXXXX, \UXXXXXXXX, \xXX
        code = int(s[1:], 16)
        return chr(code) if code <= 0x10FFFF else m.group(0)
    return _SIMPLE.get(s, s)


def string_at(text: str, pos: int, quote: str) -> tuple[str, int] | None:
    """The decoded string literal whose body starts at `pos` (after `quote`), and its end."""
    m = _STRING[quote].match(text, pos)
    if m is None:
        return None
    return decode_literal(text[pos : m.end() - 1]), m.end()


def _cut_at_end(text: str, pos: int) -> tuple[str, int] | None:
    """A string whose body starts at `pos` and runs, unclosed, to the end of the text (a paste
    cut inside the body's message): its text so far, ending with an ellipsis (the cut is as
    sure as one the paster marked: the matcher reads the text as the start of a message), else
    None."""
    end = text.find("\n", pos)
    if end >= 0 and text[end:].strip():
        return None
    body = text[pos:] if end < 0 else text[pos:end]
    if not body.strip():
        return None
    message = decode_literal(body.rstrip("\\")).rstrip()
    return (message if message.endswith(ELLIPSES) else message + "..."), len(text)


_NESTED_KEY = compile_regex(r'(?<!\\)\\{1,15}"(?:message|detail)\\{1,15}"')
"""An escaped key (`\\"message\\"`), tried only where a run of backslashes starts, and bounded:
a long run of them is linear to scan."""
_ONE_ESCAPE = compile_regex(r'\\(["\\])')
_NESTING = 3
"""How many levels of bodies escaped inside another body's strings are read."""


def json_errors(text: str) -> list[tuple[int, str]]:
    """(offset of the key, decoded message) of every HTTP error body in `text`: a `message` or
    `detail` string key in an object that shows it is an error (an `error` key, an error
    `object`/`type`/`status`, a 4xx/5xx code) or a body that is only `{"detail": ...}`. A
    message cut by the end of the paste is read up to there. A body escaped inside another's
    string (a gateway's `"raw": "{\\"error\\":{\\"message\\": ...}}"`, the backend's own reply)
    is read too, level by level, at the offset of its line."""
    found = _bodies(text)
    level = text
    for _ in range(_NESTING):
        if not _NESTED_KEY.search(level):
            break
        level = _ONE_ESCAPE.sub(r"\1", level)  # (one level of escaping off; lines kept)
        seen = {message for _, message in found}
        nested = [(offset, m) for offset, m in _bodies(level) if m not in seen]
        if nested:
            from bisect import bisect_right  # (here: not on the start-up path)

            # an offset in `level` maps to the start of the same line in `text`
            starts, at = _line_starts(text), _line_starts(level)
            found += [(starts[bisect_right(at, offset) - 1], m) for offset, m in nested]
    return found


def _line_starts(text: str) -> list[int]:
    """The offset where each line of `text` starts."""
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def _bodies(text: str) -> list[tuple[int, str]]:
    """The bodies of :func:`json_errors` at one level of escaping."""
    if "message" not in text and "detail" not in text:
        return []
    markers = [m.start() for m in _MARKER.finditer(text)]
    found: list[tuple[int, str]] = []
    pos, k = 0, 0
    while len(found) < _MAX_BODIES:
        m = _KEY.search(text, pos)
        if m is None:
            break
        literal = string_at(text, m.end(), m.group(3)) or _cut_at_end(text, m.end())
        if literal is None:
            pos = m.end()
            continue
        message, pos = literal
        while k < len(markers) and markers[k] < m.start() - _WINDOW:
            k += 1
        near = k < len(markers) and markers[k] <= pos + _WINDOW
        before = text[max(0, m.start() - 40) : m.start()].rstrip()
        detail_only = m.group(2) == "detail" and before.endswith("{")
        if message.strip().isdigit():  # (a status code where the text belongs: `type` has it)
            message = _type_text(text, m.start(), pos) or message
        if (near or detail_only) and message.strip():
            found.append((m.start(), message.strip()))
    return found


_TYPE_KEY = compile_regex(r"""(["'])type\1[ \t\n]{0,40}:[ \t\n]{0,40}(["'])""")


def _type_text(text: str, start: int, end: int) -> str | None:
    """The `type` string of the body around a message that is only a status code, when it is a
    sentence (not a class name): a server that passed its text and its code to the error
    helper the wrong way round (`{"message": "400", "type": "Failed to parse ..."}`)."""
    lo, hi = max(0, start - _WINDOW), min(len(text), end + _WINDOW)
    for t in _TYPE_KEY.finditer(text, lo, hi):
        literal = string_at(text, t.end(), t.group(2))
        if literal is not None and " " in literal[0].strip():
            return literal[0]
    return None


def exception_reprs(st: str) -> list[tuple[str, str]]:
    """(type, message) of each exception repr in a line: `exception=ValueError('bad')`.

    Code (`raise ValueError('x')`, `err = ValueError('x')`) is not a repr. A KeyError's
    message keeps its quotes, as Python prints it."""
    if "(" not in st:
        return []
    out: list[tuple[str, str]] = []
    pos = 0
    while len(out) < _MAX_REPRS:
        m = _REPR.search(st, pos)
        if m is None:
            break
        pos = m.end()
        quote = m["q"]
        if quote:
            literal = string_at(st, m.end(), quote)
            if literal is None or not st.startswith(")", literal[1]):
                continue
            message, pos = literal[0], literal[1] + 1
        else:
            message = ""
        if st[: m.start()].rstrip().endswith(_CODE_BEFORE) or st.lstrip().startswith("def "):
            continue
        if m["type"].rsplit(".", 1)[-1] == "KeyError" and quote:
            message = repr(message)
        out.append((m["type"], message))
    return out


def error_log_message(line: Line) -> str | None:
    """The message of an error log line that names no exception, else None.

    The line needs an error level in its log prefix (`ERROR ...`, `... - ERROR - `,
    `ERROR:root:`, glog `E0512 ...`) or, after a log prefix or `[tag]`, an `Error:` marker.
    A lower level (INFO, WARNING) is never an error line.
    """
    st = line.text.strip()
    if not st or not (line.prefix or st[0] == "["):
        return None
    level = _LEVEL_WORD.search(line.prefix) if line.prefix else None
    if level is not None:
        if level.group(0) not in _ERROR_LEVELS:
            return None
        return _after_marker(st)
    if line.prefix and _GLOG_ERROR.match(line.prefix.lstrip()):
        return _after_marker(st)
    tags = _TAGS.match(st)
    if not (line.prefix or tags):
        return None
    rest = st[tags.end() :] if tags else st
    lead = _LEVEL_WORD.match(rest)  # `[tag] ERROR ...`, `[tag] INFO ...`
    if lead is not None:
        if lead.group(0) not in _ERROR_LEVELS:
            return None
        return _after_marker(rest[lead.end() :].lstrip(" :-|"))
    if _MARKED.match(rest):
        return _after_marker(rest)
    if line.prefix and _MARK_INSIDE.search(rest):
        return rest
    return None


def _after_marker(st: str) -> str | None:
    m = _MARKED.match(st)
    text = (st[m.end() :] if m else st).strip()
    return text or None


_PYDANTIC_KINDS = (
    ("Value error, ", " [type=value_error", "ValueError"),
    ("Assertion failed, ", " [type=assertion_error", "AssertionError"),
)


def pydantic_inner(message: str) -> tuple[str, str] | None:
    """The error a pydantic (v2) validator raised, from the ValidationError that wraps it:
    ``1 validation error for Req\\n  Value error, <msg> [type=value_error, input_value=...``
    gives ``("ValueError", "<msg>")``; the first such error of several."""
    if "validation error" not in message[:200]:
        return None
    best: tuple[int, str, str] | None = None
    for opener, closer, exc in _PYDANTIC_KINDS:
        start = message.find(opener)
        if start < 0:
            continue
        end = message.find(closer, start)
        if end < 0:
            continue
        inner = message[start + len(opener) : end].strip()
        if inner and (best is None or start < best[0]):
            best = (start, exc, inner)
    return (best[1], best[2]) if best else None


_ARGPARSE = compile_regex(r"(?P<prog>[\w.][\w. /-]{0,100}): error: (?P<msg>\S.{0,2000})")


def argparse_error(st: str) -> str | None:
    """The message of argparse's last line, ``<prog>: error: <message>`` (printed after the
    usage text before it exits with status 2): ``launch_server.py: error: unrecognized
    arguments: --x``, ``sglang serve: error: argument --tp: invalid int value: 'a'``."""
    if ": error: " not in st:
        return None
    m = _ARGPARSE.fullmatch(st)
    if m is None:
        return None
    prog, msg = m["prog"], m["msg"].strip()
    # a script or module name (`launch_server.py`, `sglang.launch_server`), else one of
    # argparse's own messages (`sglang serve: error: argument --tp: ...`): not prose
    scripted = " " not in prog and any(c in prog for c in "._-")
    return msg if scripted or msg.startswith(_ARGPARSE_OWN) else None


_ARGPARSE_OWN = (
    "argument ",
    "unrecognized arguments: ",
    "the following arguments are required: ",
    "one of the arguments ",
    "ambiguous option: ",
    "invalid choice: ",
    "expected one argument",
)
