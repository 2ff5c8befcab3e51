"""Explanation -> Rich renderables (the only module that imports rich, besides cli's Console).

Pasted and catalog text is always wrapped in `Text` objects, never parsed as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.syntax import Syntax
from rich.text import Text

from .models import Entry, Explanation, Match
from .template import compile_template
from .textout import source_text


def _section(title: str) -> Text:
    return Text(title, style="bold cyan")


def _body(text: str) -> Padding:
    return Padding(Text(text), (0, 0, 0, 2))


def message_text(exp: Explanation, match: Match | None) -> Text:
    """The error line, with the values bound to placeholders highlighted."""
    err = exp.error
    text = Text(f"{err.type or 'Error'}: ", style="bold red")
    msg = Text(err.message)
    if match is not None:
        for _, value in match.values:
            if value:
                msg.highlight_words([value], style="bold yellow")
    text.append_text(msg)
    if err.count > 1:
        ranks = f" ({', '.join(err.ranks)})" if err.ranks else ""
        text.append(f"  seen {err.count} times{ranks}", style="dim")
    return text


def _template_text(entry: Entry) -> Text:
    compiled = compile_template(entry.template)
    text = Text(f"{entry.exception}: ", style="bold")
    text.append(compiled.literals[0])
    for name, lit in zip(compiled.names, compiled.literals[1:], strict=True):
        text.append("{" + name + "}", style="yellow")
        text.append(lit)
    return text


def _when(entry: Entry) -> list[RenderableType]:
    out: list[RenderableType] = []
    if entry.trigger:
        out.append(_body("Trigger: " + entry.trigger))
    elif entry.condition:
        out.append(_body("Condition in the code: " + entry.condition))
    for s in entry.situations:
        out.append(_body("• " + s))
    return [_section("When it happens"), *out] if out else []


def entry_renderables(entry: Entry) -> list[RenderableType]:
    parts: list[RenderableType] = []
    if entry.meaning:
        title = "What it means" + (" (derived from the source, not curated)" if entry.derived
                                   else "")
        parts += [_section(title), _body(entry.meaning)]
    parts += _when(entry)
    if entry.solutions:
        parts.append(_section("Solutions"))
        parts += [_body(f"{i}. {s}") for i, s in enumerate(entry.solutions, 1)]
    if entry.example_fix:
        fix = entry.example_fix
        code = (f"# before\n{fix.before.rstrip()}\n# after\n" if fix.before else "") + \
            fix.after.rstrip()
        parts += [_section("Example fix"),
                  Padding(Syntax(code, fix.language or "python", theme="ansi_dark",
                                 background_color="default"), (0, 0, 0, 2))]
    parts += [_section("Source"), _body(source_text(entry))]
    if entry.source.url:  # a terminal hyperlink, so it stays clickable where it wraps
        url = entry.source.url
        parts.append(Padding(Text(url, style=f"link {url}"), (0, 0, 0, 2)))
    if entry.removed_in:
        parts.append(_body(f"(removed in {entry.removed_in})"))
    return parts


def match_renderable(m: Match, n: int, total: int) -> RenderableType:
    head = Text(f"Match {n} of {total} · {m.kind} · score {m.score:.2f} · id {m.entry.id}",
                style="bold green" if m.kind == "exact" else "bold yellow")
    parts: list[RenderableType] = [head, _body("why: " + "; ".join(m.reasons)),
                                   _template_text(m.entry)]
    if m.values:
        vals = Text("values: ", style="dim")
        for i, (k, v) in enumerate(m.values):
            vals.append(("; " if i else "") + f"{k} = ")
            vals.append(v, style="yellow")
        parts.append(vals)
    parts += entry_renderables(m.entry)
    if m.related:
        parts.append(_section("Related errors (errexplain show ID)"))
        for r in m.related:
            t = Text(f"{r.id}  ", style="dim")
            t.append(f"{r.exception}: ")
            t.append(Text(compile_template(r.template).literal_text))
            parts.append(Padding(t, (0, 0, 0, 2)))
    return Group(*parts)


def explanation_renderable(exp: Explanation, *, verbose: bool = False) -> RenderableType:
    parts: list[RenderableType] = []
    err = exp.error
    if err.root_cause is not None:
        parts.append(Text(f"root cause: {err.root_cause.type}: {err.root_cause.message}",
                          style="dim"))
    parts += [Text("note: " + n, style="yellow") for n in exp.notes]
    if not exp.matches:
        parts.append(Text("No catalog entry matches this message.", style="bold"))
        for m in exp.nearest:
            t = Text(f"  {m.score:.2f}  {m.entry.id}  ")
            t.append_text(_template_text(m.entry))
            parts.append(t)
    shown = exp.matches if (exp.ambiguous or verbose) else exp.matches[:1]
    for i, m in enumerate(shown, 1):
        parts += [Rule(style="dim"), match_renderable(m, i, len(shown))]
    rest = exp.matches[len(shown):]
    if rest:
        parts.append(Text("other candidates: " + ", ".join(
            f"{m.entry.id} ({m.score:.2f})" for m in rest), style="dim"))
    if exp.generic:
        parts += [_section(f"About {err.short_type or 'this error'}"), _body(exp.generic)]
    # The message goes in the body, where it wraps; the title would cut a long one off.
    body = Group(message_text(exp, exp.matches[0] if exp.matches else None), *parts)
    return Panel(body, title=Text(err.type or "error", style="bold red"), title_align="left")


def make_console(out: TextIO, color: bool | None = None) -> Console:
    """A console on `out`; `color=False` disables colour (NO_COLOR is honoured by Rich)."""
    return Console(file=out, no_color=color is False, force_terminal=True if color else None)


def print_explanations(console: Console, exps: Sequence[Explanation], *,
                       verbose: bool = False) -> None:
    for exp in exps:
        console.print(explanation_renderable(exp, verbose=verbose))


def print_entry(console: Console, entry: Entry) -> None:
    parts: list[RenderableType] = [_template_text(entry), *entry_renderables(entry)]
    if entry.examples:
        parts.append(_section("Examples"))
        parts += [_body(e) for e in entry.examples]
    console.print(Panel(Group(*parts), title=Text(f"{entry.id} · {entry.project}"),
                        title_align="left"))
