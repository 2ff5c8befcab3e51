"""The walk of one C/C++ source of a package (a JIT kernel's `.cuh`, a `.cu`, a header): the
checks that throw an error Python shows as an exception.

sglang compiles its JIT kernels at run time from the sources its package ships; a failed check
there reaches Python as a `RuntimeError` whose message is the check's text with its place
before it (`Failed at <file>:<line>: <text>`, `Runtime check failed at ...` before 0.5.16).
Each of these is a site, as a raise is in Python:

- `RuntimeCheck(cond, parts...)`, `RuntimeCheck(location, cond, parts...)`, `CHECK_HOST(cond)
  << parts...;` (sglang's host checks), `Panic(parts...)`, `panic(location, parts...)`,
  `SGL_PANIC << parts...;` (unconditional): the text is the parts streamed one after another;
- `TORCH_CHECK(cond, parts...)` (torch's check in an extension): the same, torch joins them;
- `throw std::runtime_error(a + b)` and its kin (`invalid_argument`, `out_of_range`, ...).

A part that is a string (or char, or number) literal is literal text; any other expression is
a placeholder named by its text. A check with no text (`RuntimeCheck(n > 0);`) is a site with
no message, its statement recorded. The function is the innermost function the site sits in,
with its struct or class joined by a dot as in a Python qualname (`SymbolicSize.verify`: the
matcher compares a frame's function with the last part); the condition is the check's,
negated (the site raises when it does not hold).

Read from the text with comments and preprocessor lines blanked (line numbers kept): no C++
parser, so a construct this reading does not follow (a macro that builds the message) is not
a site. Pure: bytes in, records out.
"""

from __future__ import annotations

import re

from errexplain.extract.records import FileResult, Site
from errexplain.match.template import escape, placeholder
from errexplain.models import CPP_VIA

MAX_TEXT = 400
MAX_CALL = 8000
"""Characters a check's call is read over at most (its arguments, its streamed parts): a call
left open is read no further, so a file of unclosed calls is read in linear time."""
_MAX_ARGS = 40

_CHECKS = {
    "RuntimeCheck": "RuntimeError",
    "Panic": "RuntimeError",
    "panic": "RuntimeError",
    "CHECK_HOST": "RuntimeError",
    "SGL_PANIC": "RuntimeError",
    "TORCH_CHECK": "RuntimeError",
}
_THROWN = {
    # (the exception pybind11 and torch give Python for these std:: errors)
    "runtime_error": "RuntimeError",
    "logic_error": "RuntimeError",
    "invalid_argument": "ValueError",
    "domain_error": "ValueError",
    "length_error": "ValueError",
    "out_of_range": "IndexError",
    "overflow_error": "OverflowError",
    "range_error": "ValueError",
}
_CALL = re.compile(
    r"(?<![\w.>:])(?:(?:::)?sglang::)?(?:host::)?"
    r"(?:(?P<name>RuntimeCheck|Panic|panic|CHECK_HOST|SGL_PANIC|TORCH_CHECK)\b"
    r"|throw\s+std::(?P<std>" + "|".join(_THROWN) + r")\b)"
)
_DECLARED = re.compile(r"(?:\b(?:explicit|auto|void|inline|struct|class|define)|->)\s*$")
"""What stands before a name that declares it rather than calls it."""
_LOCATION = re.compile(r"(?:DebugInfo\b.*|[a-z_]*(?:loc|location|info)[a-z_]*|\{\})\Z")
"""A first argument that passes a check's source location on (`info`, `location`, `{}`)."""
_STRING = re.compile(r'(?:u8|[uUL])?"((?:[^"\\\n]|\\.)*)"')
_STRINGS = re.compile(r'\s*(?:(?:u8|[uUL])?"(?:[^"\\\n]|\\.)*"\s*)+\Z')
_CHAR = re.compile(r"'((?:[^'\\\n]|\\.){1,4})'\Z")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?[uUlLfF]{0,3}\Z")
_TO_STRING = re.compile(r"std::to_string\((.+)\)\Z", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "", "r": ""}
_FUNCTION = re.compile(
    r"(?P<name>(?:[A-Za-z_][\w:]*::)?operator\s*(?:\(\)|[^\s()]{1,3})"
    r"|~?[A-Za-z_][\w:]*(?:<[^<>;{}]*>)?)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)"
    r"\s*(?:const\b\s*)?(?:&&?\s*)?(?:noexcept\b\s*(?:\([^()]*\)\s*)?)?(?:override\b\s*)?"
    r"(?:->\s*[^{};]+?)?\s*(?::[^{};]*)?\Z",
    re.S,
)
_TYPE = re.compile(r"\b(?:struct|class)\s+(?:alignas\([^)]*\)\s+)?(?P<name>\w+)[^;{}()]*\Z")
_NOT_FUNCTIONS = frozenset(
    [
        *("if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignas"),
        *("do", "constexpr", "static_assert", "requires", "noexcept", "else"),
    ]
)


def visit_cpp(path: str, data: bytes) -> FileResult:
    """The checks of one C/C++ source (module docstring)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return FileResult(path, error=f"UnicodeDecodeError: {exc.reason}")
    code = _blanked(text)
    scopes = _Scopes(code)
    sites: list[Site] = []
    line, counted = 1, 0  # (the line of offset `counted`: lines are counted once, forward)
    reached = 0  # (how far a check left open was read: a name before it is inside it)
    for m in _CALL.finditer(code):
        if m.start() < reached or _DECLARED.search(code, max(0, m.start() - 40), m.start()):
            continue
        found, reached = _check(code, m)
        if found is None:
            continue
        parts, cond, statement_end = found
        if any(part.endswith("...") for part in parts):
            continue  # (a check passing its caller's arguments on: `panic(loc, args...)`)
        name = m.group("name")
        exception = _CHECKS[name] if name else _THROWN[m.group("std")]
        template, constant = _template(parts)
        line += code.count("\n", counted, m.start())
        counted = m.start()
        sites.append(
            Site(
                path=path,
                line=line,
                kind="raise",
                exception=exception,
                template=template,
                function=scopes.function_at(m.start()),
                condition=_cut(f"!({cond})") if cond else None,
                constant=constant,
                statement=None if template else _cut(code[m.start() : statement_end]),
                via=f"{CPP_VIA}{name}" if name else None,
            )
        )
    return FileResult(path, tuple(sites))


Found = tuple[list[str], str | None, int]
"""A check's message parts, condition and the end of its statement."""


def _check(code: str, m: re.Match[str]) -> tuple[Found | None, int]:
    """The check at `m` (None when `m` is no such check: a declaration, a definition, a name
    used otherwise), and how far a call it left open was read (0 if none: the names inside such
    a call are not read again, so a file of unclosed calls is read in linear time)."""
    name, at = m.group("name"), m.end()
    if name == "SGL_PANIC":
        parts, end = _streamed(code, at)
        return ((parts, None, end) if end > 0 else None), max(0, -end)
    opened = _skip_space(code, at)
    if opened >= len(code) or code[opened] != "(":
        return None, 0
    args, close = _arguments(code, opened)
    if close < 0:
        return None, -close
    after = _skip_space(code, close + 1)
    if name == "CHECK_HOST":
        return _host_check(code, args, close, after)
    if not code.startswith(";", after):
        return None, 0  # (a definition, `-> void {`, or a call inside an expression)
    if m.group("std"):
        return (_summed(args[0]) if len(args) == 1 else [], None, close + 1), 0
    return _called(name, args, close + 1), 0


def _host_check(code: str, args: list[str], close: int, after: int) -> tuple[Found | None, int]:
    """`CHECK_HOST(cond) << parts...;` or `CHECK_HOST(cond);` (and how far a stream left open
    was read, as :func:`_check` says)."""
    if len(args) != 1:
        return None, 0
    if code.startswith("<<", after):
        parts, end = _streamed(code, after)
        return ((parts, args[0], end) if end > 0 else None), max(0, -end)
    return (([], args[0], close + 1) if code.startswith(";", after) else None), 0


def _called(name: str, args: list[str], end: int) -> Found | None:
    """A check called with its arguments: a location passed on first is not text; a check
    with a condition takes it first."""
    if name in ("RuntimeCheck", "Panic", "panic") and args and _LOCATION.match(args[0]):
        args = args[1:]
    elif name == "panic":
        return None  # (another function's `panic(...)`: the check's takes a location first)
    if name in ("RuntimeCheck", "TORCH_CHECK"):
        return (args[1:], args[0], end) if args else None
    return (args, None, end)


def _skip_space(code: str, at: int) -> int:
    while at < len(code) and code[at] in " \t\r\n":
        at += 1
    return at


def _arguments(code: str, opened: int) -> tuple[list[str], int]:
    """The top-level arguments of the call whose `(` is at `opened`, and its `)`; or minus
    where the reading stopped, when no `)` closes it (a statement ended inside it, MAX_CALL
    characters read, too many arguments)."""
    args: list[str] = []
    depth, start, i, n = 0, opened + 1, opened, min(len(code), opened + MAX_CALL)
    while i < n and len(args) <= _MAX_ARGS:
        c = code[i]
        if c in "\"'":
            i = _string_end(code, i)
            continue
        if c == "<" and depth >= 1 and i > 0 and (code[i - 1].isalnum() or code[i - 1] == "_"):
            i = _template_args_end(code, i)
            continue
        if c == ";" and depth <= 1:
            return args, -i  # (no call: a statement ended inside it)
        depth += (c in "([{") - (c in ")]}")
        if depth == 0:
            last = code[start:i].strip()
            return ([*args, last] if last or args else args), i
        if c == "," and depth == 1:
            args.append(code[start:i].strip())
            start = i + 1
        i += 1
    return args, -i


def _template_args_end(code: str, at: int) -> int:
    """Past the `>` closing the template arguments that open at `at` (`is_same_v<T, float>`),
    or just past `<` when it is a comparison (`n<k`): its commas are then the call's."""
    depth, i = 0, at
    end = min(len(code), at + 200)
    while i < end:
        c = code[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return i + 1
        elif not (c.isalnum() or c in "_:, *&."):
            return at + 1
        i += 1
    return at + 1


def _string_end(code: str, at: int) -> int:
    """Past the string or char literal that opens at `at`."""
    quote, i = code[at], at + 1
    while i < len(code) and code[i] != quote and code[i] != "\n":
        i += 2 if code[i] == "\\" else 1
    return i + 1


def _streamed(code: str, at: int) -> tuple[list[str], int]:
    """The parts of `<< a << b ... ;` from `at`, and the end of the statement; or minus where
    the reading stopped, when no `;` ends it within MAX_CALL characters."""
    end = min(len(code), at + MAX_CALL)
    parts, stop = _split_top(code[:end], at, "<<")
    return (parts, stop + 1) if stop >= 0 else ([], -end)


def _summed(expr: str) -> list[str]:
    """The parts of `"a" + std::to_string(n) + "b"` (top-level `+`)."""
    return _split_top(expr, 0, "+")[0]


def _split_top(text: str, at: int, sep: str) -> tuple[list[str], int]:
    """The parts of `text` from `at` split at `sep` outside brackets and literals, up to the
    `;` that ends the statement, and where it is (-1 at the text's end or at a bracket closed
    that was not opened there, which ends no statement)."""
    parts: list[str] = []
    depth, start, i = 0, at, at
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _string_end(text, i)
            continue
        depth += (c in "([{") - (c in ")]}")
        if depth < 0:
            return [], -1
        if depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i].strip())
            start = i = i + len(sep)
            continue
        if depth == 0 and c == ";":
            parts.append(text[start:i].strip())
            return [p for p in parts if p], i
        i += 1
    parts.append(text[start:].strip())
    return [p for p in parts if p], -1


def _template(parts: list[str]) -> tuple[str, bool]:
    """The message template of the streamed parts, and whether it has literal text."""
    out: list[str] = []
    constant = False
    for part in parts:
        text = _literal(part)
        if text is not None:
            out.append(escape(text))
            constant = constant or bool(text.strip())
            continue
        inner = _TO_STRING.match(part)
        out.append(placeholder(_cut(inner.group(1) if inner else part, 120)))
    template = "".join(out)
    return (template, constant) if constant or template else ("", False)


def _literal(part: str) -> str | None:
    """The text a literal part prints (strings joined as the compiler joins them), or None."""
    if _STRINGS.match(part):
        return "".join(_unescaped(m.group(1)) for m in _STRING.finditer(part))
    char = _CHAR.match(part)
    if char:
        return _unescaped(char.group(1))
    if _NUMBER.match(part):
        return part.rstrip("uUlLfF") if not part.lower().startswith("0x") else part
    return None


def _unescaped(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _blanked(text: str) -> str:
    """The text with comments and preprocessor lines (with their continuations) replaced by
    spaces, line breaks kept; string and char literals kept as they are."""
    out: list[str] = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":
            end = _directive_end(text, i)
            out.append(_spaces(text[i:end]))
        elif c == "/" and text.startswith(("//", "/*"), i):
            end = _comment_end(text, i)
            out.append(_spaces(text[i:end]))
        elif c in "\"'":
            raw = c == '"' and i > 0 and text[i - 1] == "R" and text.startswith('"(', i)
            end = _raw_string_end(text, i) if raw else _string_end(text, i)
            out.append(text[i:end])
        else:
            end = i + 1
            out.append(c)
        line_start = c == "\n"
        i = end
    return "".join(out)


def _directive_end(text: str, at: int) -> int:
    """The end of the preprocessor line at `at`, with the lines a `\\` continues it on."""
    end = at
    while True:
        end = text.find("\n", end)
        if end < 0:
            return len(text)
        if text[end - 1 : end] != "\\":
            return end
        end += 1


def _comment_end(text: str, at: int) -> int:
    if text.startswith("//", at):
        end = text.find("\n", at)
        return len(text) if end < 0 else end
    end = text.find("*/", at + 2)
    return len(text) if end < 0 else end + 2


def _raw_string_end(text: str, at: int) -> int:
    end = text.find(')"', at)
    return len(text) if end < 0 else end + 2


def _spaces(text: str) -> str:
    return "".join(ch if ch == "\n" else " " for ch in text)


class _Scopes:
    """The function (and the struct or class around it) each offset of the code sits in, read
    from the braces: a `{` after a header shaped as a function's opens it."""

    def __init__(self, code: str) -> None:
        self._opens: list[tuple[int, int, str]] = []  # (start, end, qualified name)
        stack: list[tuple[str, str, int]] = []  # (kind, name, start)
        last = 0  # (where the text before the next `{` starts)
        parens = 0  # (braces inside parentheses, `f(T info = {})`, `g([&] { ... })`: not scopes)
        i, n = 0, len(code)
        while i < n:
            c = code[i]
            if c in "\"'":
                i = _string_end(code, i)
                continue
            if c in "()":
                parens = max(0, parens + (1 if c == "(" else -1))
            elif parens:
                pass
            elif c == "{":
                header = code[last:i].strip()
                kind, name = _opened(header)
                stack.append((kind, name, i))
                last = i + 1
            elif c == "}":
                if stack:
                    kind, name, start = stack.pop()
                    if kind == "function":
                        types = [nm for k, nm, _ in stack if k == "type"]
                        qual = ".".join([*types, name]) if "::" not in name else name
                        self._opens.append((start, i, qual.replace("::", ".")))
                last = i + 1
            elif c == ";":
                last = i + 1
            i += 1
        self._opens.sort()

    def function_at(self, at: int) -> str:
        """The innermost function around offset `at`, or `<file>` outside any."""
        best = "<file>"
        for start, end, name in self._opens:
            if start > at:
                break
            if at < end:
                best = name
        return best


def _opened(header: str) -> tuple[str, str]:
    """What a `{` after `header` opens: ("function", name), ("type", name) or ("block", "")."""
    tail = " ".join(header[-6000:].split())[-2000:]
    t = _TYPE.search(tail)
    if t is not None and "(" not in tail[t.start() :]:
        return "type", t.group("name")
    f = _FUNCTION.search(tail)
    if f is not None:
        name = re.sub(r"<[^<>]*>\Z", "", f.group("name"))
        last = name.rsplit("::", 1)[-1]
        if last not in _NOT_FUNCTIONS and not last.isdigit():
            return "function", name
    return "block", ""
