"""Rich's tracebacks (`rich.traceback`, Typer's pretty exceptions), read as the standard ones.

Rich draws a traceback in a panel, `╭── Traceback (most recent call last) ──╮` to `╰──╯`: per
frame a location line `/path/x.py:63 in func` (wrapped onto the next line when the panel is
narrow), a few source lines with the failing one marked `❱ 63 │   raise ...` (`│` standing
for indentation), and with `show_locals` a nested panel of locals; the exception line follows
the panel, wrapped at the console's width. :func:`rich_lines` rewrites each panel into the lines
of the standard traceback (a header, `File "path", line N, in func` and the marked code line
per frame), each numbered as the pasted line it comes from; the lines after the panel are left
as they are.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex, replace

if TYPE_CHECKING:
    from collections.abc import Sequence

    from errexplain.parse.lines import Line

__all__ = ["rich_lines"]

_LOCATION = compile_regex(
    r"(?P<path>\S.{0,1000}?\.py):(?P<line>\d{1,9}) in(?: (?P<func>[\w<>.]{1,200}))?"
)
_MARKED = compile_regex(r"❱ {0,8}(?P<no>\d{1,9}) (?P<code>.{0,2000})")
_FUNC = compile_regex(r"[\w<>.]{1,200}")
_PATH_MAX = 1024
_FOLD_TAIL = 16
"""The end of a folded location's start in which its `.py:` and line number (9 digits at most)
may lie, when the rest of it is on the next line (` in alloc`)."""
_PATH_HEAD = compile_regex(r"[^\s│]{1,1000}")
"""The start of a path rich folded at the panel's width (`/usr/lib/python3/site-pac`): a line
with no space (each source line starts with its number and a space)."""


def rich_lines(lines: Sequence[Line]) -> list[Line]:
    """The lines with every rich traceback panel rewritten as a standard traceback."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        st = lines[i].text.strip()
        if st.startswith("╭") and "Traceback (most recent call last)" in st:
            i = _panel(lines, i, out)
        else:
            out.append(lines[i])
            i += 1
    return out


def _inner(line: Line) -> str | None:
    """A panel line's text inside its borders, or None for a line of a nested panel."""
    st = line.text.strip()
    st = st[1:] if st.startswith("│") else st
    st = st[:-1] if st.endswith("│") else st
    st = st.strip()
    return None if st[:1] in ("╭", "│", "╰") else st


def _panel(lines: Sequence[Line], i: int, out: list[Line]) -> int:
    """Write the panel that starts at line `i` as a traceback; return the line after it."""
    out.append(replace(lines[i], text="Traceback (most recent call last):"))
    i += 1
    head = ""  # a path's start, wrapped above the rest of its location line
    while i < len(lines):
        line = lines[i]
        st = line.text.strip()
        if st.startswith("╰") or not st.startswith("│"):
            return i + 1 if st.startswith("╰") else i
        inner = _inner(line)
        m = _LOCATION.fullmatch(inner) if inner else None
        if m is None and head and inner and ".py:" in head[-_FOLD_TAIL:] + inner:
            # (a location folded anywhere, inside a word or not: its `.py:` on this line, across
            # the fold, or just above it before the line number)
            m = _LOCATION.fullmatch(head + inner) or _LOCATION.fullmatch(f"{head} {inner}")
            head = "" if m is not None else head
        if inner and m is None and _PATH_HEAD.fullmatch(inner):
            head = (head + inner)[-_PATH_MAX:]
        elif m is not None:
            func, path, head = m["func"], head + m["path"], ""
            if func is None and i + 1 < len(lines):  # wrapped: the function on the next line
                rest = _inner(lines[i + 1]) or ""
                if _FUNC.fullmatch(rest):
                    func, i = rest, i + 1
            where = f'  File "{path}", line {m["line"]}' + (f", in {func}" if func else "")
            out.append(replace(line, text=where))
        else:
            head = ""  # (a wrapped path goes on on the line right below)
        if inner and inner[:1] == "❱" and (c := _MARKED.fullmatch(inner)) is not None:
            code = " ".join(c["code"].replace("│", " ").split())
            out.append(replace(line, text=f"    {code}"))
        i += 1
    return i
