"""Views drawn as plain text (no third-party imports: this is the piped fast path).

Wrapping never breaks a word, not even at hyphens, so flags such as --mem-fraction-static and
paths stay whole and copyable.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING
from errexplain.render.view import Code, Heading, Line, Link, Rule, brief_line, explanation_view

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from errexplain.models import Explanation
    from errexplain.render.view import Part, View

WIDTH = 100
SEPARATOR = "\n\n" + "=" * 40 + "\n\n"


def _fill(words: list[str], indent: str) -> list[str]:
    """Greedy fill to WIDTH."""
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(indent) + len(line) + 1 + len(word) > WIDTH:
            lines.append(indent + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(indent + line if line else indent.rstrip())
    return lines


def _part(part: Part) -> list[str]:
    if isinstance(part, Line):
        text = "".join(s.text for s in part.spans)
        pad = " " * part.indent
        return _fill(text.split(), pad) if part.wrap else [(pad + text).rstrip()]
    if isinstance(part, Heading):
        return [part.text]
    if isinstance(part, Code) and part.first_line is not None:
        return _numbered(part, part.first_line)
    if isinstance(part, Code):
        pad = " " * part.indent
        return [
            ln.rstrip()
            for label, code in part.pieces
            for ln in (pad + label, *(pad + "  " + c for c in code.splitlines()))
        ]
    if isinstance(part, Link):
        return [" " * part.indent + part.url]
    assert isinstance(part, Rule)
    return [""]


def _numbered(part: Code, first: int) -> list[str]:
    """Source lines with their numbers, the raise line marked with `>`."""
    code = "\n".join(c for _, c in part.pieces).split("\n")
    digits = len(str(first + len(code) - 1))
    pad = " " * part.indent
    return [
        f"{pad}{'>' if first + k == part.mark else ' '} {first + k:>{digits}} | {ln}".rstrip()
        for k, ln in enumerate(code)
    ]


def cut(line: str, width: int | None) -> str:
    """`line` cut to `width` characters with an ellipsis (None: whole)."""
    if width is None or len(line) <= width:
        return line
    return line[: width - 1].rstrip() + "…"


def lines(parts: Iterable[Part], width: int | None = None) -> list[str]:
    """The parts as lines; with `width` (a terminal's), lines that do not wrap are cut to it
    with an ellipsis."""
    return [cut(ln, width) for part in parts for ln in _part(part)]


def render_view(view: View) -> str:
    return "\n".join(lines(view.parts))


def render_explanations(exps: Sequence[Explanation], *, verbose: bool = False) -> str:
    return SEPARATOR.join(render_view(explanation_view(e, verbose=verbose)) for e in exps) + "\n"


def render_brief(exps: Sequence[Explanation], width: int | None = None) -> str:
    """One line per distinct error (--brief), cut to `width` with an ellipsis."""
    return "".join(cut(brief_line(e), width) + "\n" for e in exps)
