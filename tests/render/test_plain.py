"""errexplain.render.plain: wrapping, indentation and layout of plain text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from errexplain.models import ExampleFix, Explanation, RaisedError
from errexplain.render.plain import (
    SEPARATOR,
    WIDTH,
    lines,
    render_explanations,
    render_view,
)
from errexplain.render.view import Code, Heading, Line, Link, Rule, Span, View, entry_view

FLAG = "--mem-fraction-static"


def line(text: str, indent: int = 2, wrap: bool = True) -> Line:
    return Line((Span(text),), indent, wrap)


words = st.text(
    alphabet=st.characters(categories=["L", "N"], include_characters="-_/.=:'\"[]{}<>"),
    min_size=1,
    max_size=30,
)


@given(st.lists(words, min_size=1, max_size=60), st.integers(0, 8))
def test_wrapping_never_breaks_a_word_and_stays_within_the_width(ws, indent):
    out = lines([line(" ".join(ws), indent)])
    assert [w for ln in out for w in ln.split()] == ws
    for ln in out:
        assert ln.startswith(" " * indent)
        assert len(ln) <= WIDTH or len(ln.split()) == 1  # only a word too long for any line
        assert ln == ln.rstrip()


def test_width_is_100():
    assert WIDTH == 100
    text = " ".join(["abcd"] * 40)  # 199 characters
    out = lines([line(text, 0)])
    assert [len(ln) for ln in out] == [99, 99]  # 20 words of 4 + 19 spaces; a 21st would be 104


def test_hyphenated_flags_stay_whole_at_the_wrap_point():
    for pad in range(70, 100):  # put the flag across column 100 at every offset
        out = lines([line("x" * pad + f" {FLAG} 0.8", 2)])
        assert any(FLAG in ln.split() for ln in out), out
        assert not any(ln.endswith(("-", "--mem", "--mem-fraction")) for ln in out)


def test_a_word_longer_than_the_width_gets_a_line_of_its_own_unbroken():
    url = "https://example.org/" + "a" * 150
    out = lines([line(f"see {url} for more", 2)])
    assert out == ["  see", f"  {url}", "  for more"]


def test_unwrapped_lines_stay_one_line():
    text = "sglang 0.5.23: " + "sglang/srt/" * 20 + "mod.py:12 in check"
    assert len(text) > WIDTH
    out = lines([line(text + "   ", 2, wrap=False)])
    assert out == ["  " + text]


def test_unwrapped_lines_keep_their_spacing():
    out = lines([Line((Span("Values:   "), Span("n = 3", "value")), 0, False)])
    assert out == ["Values:   n = 3"]


def test_wrapped_empty_line_is_blank():
    assert lines([line("", 4)]) == [""]


def test_code_is_indented_under_its_label_and_keeps_its_own_indentation():
    code = Code((("# before", "def f():\n    return 1\n\nf()"), ("# after", "f = 1")), "python", 2)
    assert lines([code]) == [
        "  # before",
        "    def f():",
        "        return 1",
        "",
        "    f()",
        "  # after",
        "    f = 1",
    ]


def test_long_code_lines_are_never_wrapped():
    cmd = "python -m sglang.launch_server " + " ".join([FLAG, "0.8"] * 10)
    assert lines([Code((("# after", cmd),))]) == ["  # after", "    " + cmd]


def test_heading_is_flush_left_rule_is_blank_link_is_indented():
    parts = [Heading("Solutions"), Rule(), Link("https://example.org/a#L1", 4)]
    assert lines(parts) == ["Solutions", "", "    https://example.org/a#L1"]


def test_render_view_joins_lines_without_a_trailing_newline():
    view = View("t", (Heading("A"), line("b")))
    assert render_view(view) == "A\n  b"


def test_explanations_are_separated_and_the_output_ends_with_one_newline(make_match):
    exps = [
        Explanation(RaisedError("ValueError", "size 3 is too big"), (make_match(),)),
        Explanation(RaisedError("KeyError", "'x'"), ()),
    ]
    out = render_explanations(exps)
    assert out.count(SEPARATOR) == 1
    first, second = out.split(SEPARATOR)
    assert first.startswith("ValueError: size 3 is too big\n")
    assert second.startswith("KeyError: 'x'\nNo catalog entry matches this message.\n")
    assert out.endswith("\n") and not out.endswith("\n\n")


def test_a_full_answer_has_no_trailing_spaces_and_wraps_prose(make_entry, make_match):
    solution = "Lower the fraction with " + FLAG + " " + "and retry the launch " * 10
    entry = make_entry(
        solutions=(solution,),
        example_fix=ExampleFix("x = 1  ", "x = 2"),
        situations=("a long situation " * 12,),
    )
    out = render_explanations(
        [Explanation(RaisedError("ValueError", "size 3 is too big"), (make_match(entry),))]
    )
    rows = out.splitlines()
    assert all(r == r.rstrip() for r in rows)
    assert all(len(r) <= WIDTH for r in rows)
    assert any(FLAG in r.split() for r in rows)
    assert "  1. Lower the fraction with " + FLAG in out
    assert "    - a long situation a long situation" in out


def test_entry_view_plain(full_entry):
    out = render_view(entry_view(full_entry))
    assert out.splitlines()[0].endswith("ValueError: size {n} is too big")
    assert "  # before\n    run(size=300)\n  # after\n    run(size=100)" in out
    assert out.endswith("Examples\n  size 300 is too big")
