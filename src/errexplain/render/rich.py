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
from errexplain.models import Entry, Explanation
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


def make_console(out: TextIO, color: bool | None = None) -> Console:
    """A console on `out`. `color=False` turns colour off, `True` forces a terminal; `None`
    leaves it to Rich, which honours NO_COLOR, FORCE_COLOR and TERM=dumb."""
    if color is None:
        return _Console(file=out)
    return _Console(file=out, no_color=not color, force_terminal=True if color else None)


def print_explanations(
    console: Console, exps: Sequence[Explanation], *, verbose: bool = False
) -> None:
    for exp in exps:
        console.print(panel(explanation_view(exp, verbose=verbose)))


def print_entry(console: Console, entry: Entry) -> None:
    console.print(panel(entry_view(entry)))
