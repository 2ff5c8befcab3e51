"""Views drawn with Rich: a panel per answer, roles mapped to styles. The only module that
imports rich (cli takes nothing from it).

Pasted and catalog text always goes into `Text` objects, never through markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule as RichRule
from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text

from errexplain._startup import TYPE_CHECKING
from errexplain.models import Entry, Explanation, Snippet
from errexplain.render.view import (
    Code,
    Heading,
    Line,
    Link,
    Rule,
    View,
    entry_view,
    explanation_view,
)

if TYPE_CHECKING:
    from errexplain.render.view import Part

STYLES = {
    "type": "bold red",
    "value": "bold yellow",
    "placeholder": "yellow",
    "dim": "dim",
    "note": "yellow",
    "exact": "bold green",
    "fuzzy": "bold yellow",
    "probable": "bold magenta",
}


def _text(line: Line) -> Text:
    text = Text(overflow="fold")  # a panel has a fixed width: every line wraps in it
    for span in line.spans:
        text.append(span.text, style=STYLES.get(span.role, ""))
    return text


def _part(part: Part) -> RenderableType:
    if isinstance(part, Line):
        return Padding(_text(part), (0, 0, 0, part.indent))
    if isinstance(part, Heading):
        return Text(part.text, style="bold cyan")
    if isinstance(part, Code) and part.first_line is not None:
        source = "\n".join(c for _, c in part.pieces)
        syntax = Syntax(
            source,
            part.language or "python",
            theme="ansi_dark",
            background_color="default",
            line_numbers=True,
            start_line=part.first_line,
            highlight_lines={part.mark} if part.mark else None,
            word_wrap=True,
        )
        return Padding(syntax, (0, 0, 0, part.indent))
    if isinstance(part, Code):
        # word_wrap: long code lines fold inside the panel instead of being cut at its edge
        code = "\n".join(f"{label}\n{text}" for label, text in part.pieces)
        return Padding(
            Syntax(
                code,
                part.language or "python",
                theme="ansi_dark",
                background_color="default",
                word_wrap=True,
            ),
            (0, 0, 0, part.indent),
        )
    if isinstance(part, Link):  # a terminal hyperlink: it stays clickable where it wraps
        return Padding(
            Text(part.url, style=Style(link=part.url), overflow="fold"), (0, 0, 0, part.indent)
        )
    assert isinstance(part, Rule)
    return RichRule(style="dim")


def panel(view: View) -> Panel:
    return Panel(
        Group(*(_part(p) for p in view.parts)),
        title=Text(view.title, style="bold red"),
        title_align="left",
    )


class _Console(Console):
    """A Console that leaves a closed pipe to errexplain's error boundary (exit 0, quiet)
    instead of Rich's own exit 1, which means "nothing matched" here (issue 14)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def make_console(
    out: TextIO, color: bool | None = None, *, terminal: bool = False, width: int | None = None
) -> Console:
    """A console on `out`. `color=False` turns colour off, `True` forces a terminal; `None`
    leaves it to Rich, which honours NO_COLOR, FORCE_COLOR and TERM=dumb. `terminal` draws as
    for a terminal of `width` columns (a buffer shown through a pager)."""
    force = True if (color or terminal) else None
    if color is None:
        return _Console(file=out, force_terminal=force, width=width)
    return _Console(file=out, no_color=not color, force_terminal=force, width=width)


def print_explanations(
    console: Console, exps: Sequence[Explanation], *, verbose: bool = False
) -> None:
    for exp in exps:
        console.print(panel(explanation_view(exp, verbose=verbose)))


def print_entry(console: Console, entry: Entry, snippet: Snippet | None = None) -> None:
    console.print(panel(entry_view(entry, snippet)))


def render_html(exps: Sequence[Explanation], *, width: int = 100) -> str:
    """The Rich panels as an HTML fragment with inline styles (a notebook's output cell)."""
    import io

    console = Console(file=io.StringIO(), record=True, width=width, force_terminal=True)
    print_explanations(console, exps)
    return console.export_html(
        inline_styles=True,
        code_format='<pre style="font-family: monospace; line-height: 1.3">{code}</pre>',
    )
