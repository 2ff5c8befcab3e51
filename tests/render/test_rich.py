"""errexplain.render.rich: pasted and catalog text is data, never markup; roles become styles."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.segment import Segment
from rich.style import Style

from errexplain.explainer import explain_text
from errexplain.models import ExampleFix, Explanation, RaisedError, Related
from errexplain.render.rich import (
    STYLES,
    make_console,
    panel,
    print_entry,
    print_explanations,
)
from errexplain.render.view import Line, Link, Span, View, explanation_view

MARKUP = (
    "[bold]loud[/]",
    "[/]",
    "[red on white]x[/red on white]",
    "[link=https://evil.example]click[/link]",
    ":thumbs_up:",
    "[@click=app.quit]q[/]",
)
PASTED = "bad config " + " ".join(MARKUP)


def colour_console() -> Console:
    return Console(
        file=io.StringIO(),
        width=100,
        color_system="truecolor",
        force_terminal=True,
        legacy_windows=False,
    )


def segments(renderable) -> list[Segment]:
    return list(colour_console().render(renderable))


def styled(segs: list[Segment], text: str):
    """The style of the segment that holds `text`."""
    [style] = {s.style for s in segs if text in s.text}
    return style or Style()


@pytest.fixture
def marked_up(make_entry, make_match) -> Explanation:
    """Markup everywhere: the pasted message, bound values, catalog prose and code, related."""
    entry = make_entry(
        template="bad config <cfg>",
        meaning="[bold]not bold[/] and [/]",
        trigger="[blink]steady[/blink]",
        situations=("[i]upright[/i]",),
        solutions=("Run [cyan]plain[/cyan] :fire:",),
        example_fix=ExampleFix("print('[bold]x[/]')", "print('[/]')"),
        examples=("bad config [b]x[/b]",),
    )
    related = (Related("fedcba9876543210", "[red]<n>[/red] failed", "RuntimeError"),)
    match = make_match(entry, values=(("cfg", " ".join(MARKUP)),), related=related)
    return Explanation(RaisedError("ValueError", PASTED), (match,))


def test_pasted_markup_is_printed_literally(marked_up, console):
    print_explanations(console, [marked_up])
    out = console.file.getvalue()
    joined = "".join(out.split())  # the panel may wrap the message
    for tag in MARKUP:
        assert "".join(tag.split()) in joined, tag
    for literal in (
        "[bold]not bold[/] and [/]",
        "[blink]steady[/blink]",
        "[i]upright[/i]",
        "Run [cyan]plain[/cyan] :fire:",
        "print('[bold]x[/]')",
        "print('[/]')",
        "[red]{n}[/red] failed",
    ):
        assert literal in out, literal
    assert "👍" not in out and "🔥" not in out


def test_no_markup_injection_into_styles(marked_up):
    segs = segments(panel(explanation_view(marked_up)))
    assert not any(s.style and s.style.link == "https://evil.example" for s in segs)
    assert not any(s.style and s.style.meta for s in segs)  # no @click handlers
    assert not styled(segs, "not bold").bold
    assert styled(segs, "steady").blink is not True
    assert "[bold]loud[/]" in "".join(s.text for s in segs)


def test_markup_in_the_title_and_entry_is_literal(make_entry, console):
    entry = make_entry(examples=("[bold]x[/]",))
    print_entry(console, entry)
    out = console.file.getvalue()
    assert out.startswith("╭─ 0123456789abcdef · demo ")
    assert "[bold]x[/]" in out


def test_a_link_part_is_a_hyperlink():
    url = "https://example.org/demo/blob/v1.2.3/python/demo/pkg/images.py#L360"
    segs = segments(panel(View("t", (Link(url),))))
    assert styled(segs, url).link == url


def test_a_long_link_stays_one_hyperlink_where_it_wraps():
    url = "https://example.org/" + "a" * 150 + "#L1"
    segs = [s for s in segments(panel(View("t", (Link(url),)))) if s.style and s.style.link]
    assert {s.style.link for s in segs} == {url}
    assert "".join(s.text for s in segs) == url


def test_source_links_of_an_explained_error_are_hyperlinks(small_index):
    [exp] = explain_text(
        "ValueError: feature length does not match image grids: 5824 != 5760", small_index
    )
    segs = segments(panel(explanation_view(exp)))
    links = {s.style.link for s in segs if s.style and s.style.link}
    assert links == {"https://example.org/demo/blob/v1.2.3/python/demo/pkg/images.py#L360"}


@pytest.mark.parametrize(
    "url", ["https://example.org/my dir/mod.py#L3", "https://example.org/mod.py#L3 blink"]
)
def test_a_url_is_data_not_a_style_string(url):
    style = styled(segments(panel(View("t", (Link(url),)))), url)
    assert style.link == url
    assert not style.blink


def test_roles_map_to_styles(small_index):
    [exp] = explain_text(
        "ValueError: feature length does not match image grids: 5824 != 5760", small_index
    )
    segs = segments(panel(explanation_view(exp)))
    value = styled(segs, "5824")
    assert value.bold and value.color.name == "yellow" == STYLES["value"].split()[-1]
    error_type = next(s.style for s in segs if s.text == "ValueError: ")
    assert error_type.bold and error_type.color.name == "red"
    placeholder = styled(segs, "{sum(patch_counts)}")
    assert placeholder.color.name == "yellow" and not placeholder.bold
    heading = styled(segs, "What it means")
    assert heading.bold and heading.color.name == "cyan"


def test_no_colour_console_writes_no_escape_sequences(marked_up, small_index, console):
    exps = [marked_up, *explain_text("AssertionError: 16 is not divisible by 6", small_index)]
    print_explanations(console, exps, verbose=True)
    out = console.file.getvalue()
    assert "\x1b" not in out  # neither CSI colours nor OSC 8 hyperlinks
    assert "https://example.org/demo/blob/v1.2.3/python/demo/pkg/dist.py#L23" in out


def test_every_line_fits_the_console(marked_up, console):
    long = Line((Span("word " * 60 + "x" * 150),), 2, False)
    print_explanations(console, [marked_up])
    console.print(panel(View("t", (long,))))
    rows = console.file.getvalue().splitlines()
    assert rows and all(len(r) == 100 for r in rows)


def test_one_panel_per_explanation(make_match, console):
    exps = [
        Explanation(RaisedError("ValueError", "size 3 is too big"), (make_match(),)),
        Explanation(RaisedError("KeyError", "'x'"), ()),
    ]
    print_explanations(console, exps)
    rows = console.file.getvalue().splitlines()
    assert [r[:14] for r in rows if r.startswith("╭")] == ["╭─ ValueError ", "╭─ KeyError ──"]
    assert sum(r.startswith("╰") for r in rows) == 2


def test_make_console_colour_switch():
    out = io.StringIO()
    make_console(out, color=True).print(panel(View("t", (Line((Span("x", "type"),)),))))
    assert "\x1b[" in out.getvalue()
    out = io.StringIO()
    make_console(out, color=False).print(panel(View("t", (Line((Span("x", "type"),)),))))
    assert "\x1b[" not in out.getvalue() and "x" in out.getvalue()


def test_make_console_leaves_colour_to_the_environment(monkeypatch):
    view = panel(View("t", (Line((Span("x", "type"),)),)))
    out = io.StringIO()
    make_console(out).print(view)
    assert "\x1b[" not in out.getvalue()  # not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    out = io.StringIO()
    make_console(out).print(view)
    assert "\x1b[" in out.getvalue()
