"""errexplain.render.view: the one source of wording, checked on its parts (not on drawings)."""

from __future__ import annotations

import re

import pytest

from errexplain.explainer import AMBIGUOUS_NOTE, MEANINGS, explain_text
from errexplain.models import (
    Candidate,
    ExampleFix,
    Explanation,
    Frame,
    RaisedError,
    Related,
    Source,
    Verified,
)
from errexplain.render.plain import render_explanations
from errexplain.render.rich import print_explanations
from errexplain.render.view import (
    Code,
    Heading,
    Line,
    Link,
    Rule,
    Span,
    entry_view,
    explanation_view,
    row_view,
    template_spans,
)


def texts(view) -> list[str]:
    """Each Line's text and each Heading's text, in order."""
    out = []
    for p in view.parts:
        if isinstance(p, Line):
            out.append("".join(s.text for s in p.spans))
        elif isinstance(p, Heading):
            out.append(p.text)
    return out


def spans(view, role: str) -> list[str]:
    return [s.text for p in view.parts if isinstance(p, Line) for s in p.spans if s.role == role]


def match_heads(view) -> list[str]:
    return [t for t in texts(view) if t.startswith("Match ")]


def section(view, heading: str) -> list:
    """The parts after a heading, up to the next heading or rule."""
    start = next(i for i, p in enumerate(view.parts) if p == Heading(heading)) + 1
    out = []
    for p in view.parts[start:]:
        if isinstance(p, Heading | Rule):
            break
        out.append(p)
    return out


# ------------------------------------------------------------------------------------ verbose


def test_default_shows_the_best_match_in_full_and_names_the_others(three_matches):
    view = explanation_view(three_matches)
    assert match_heads(view) == ["Match 1 of 1: 0000000000000001  exact  score 1.00"]
    assert spans(view, "dim")[-1] == (
        "Other candidates: 0000000000000002 (0.90), 0000000000000003 (0.85) (-v shows them in full)"
    )
    assert texts(view).count("Meaning number 1.") == 1
    assert "Meaning number 2." not in texts(view)


def test_verbose_shows_every_match_in_full(three_matches):
    view = explanation_view(three_matches, verbose=True)
    assert match_heads(view) == [
        "Match 1 of 3: 0000000000000001  exact  score 1.00",
        "Match 2 of 3: 0000000000000002  exact  score 0.90",
        "Match 3 of 3: 0000000000000003  exact  score 0.85",
    ]
    for n in (1, 2, 3):
        assert f"Meaning number {n}." in texts(view)
    assert texts(view).count("What it means") == 3
    assert texts(view).count("Related errors (errexplain show ID)") == 3
    assert sum(isinstance(p, Rule) for p in view.parts) == 3
    assert not any(t.startswith("Other candidates") for t in texts(view))


@pytest.mark.parametrize("verbose", [False, True])
def test_plain_and_rich_show_the_same_matches(three_matches, console, verbose):
    head = re.compile(r"Match \d of \d: [0-9a-f]{16}")
    plain = head.findall(render_explanations([three_matches], verbose=verbose))
    print_explanations(console, [three_matches], verbose=verbose)
    rich = head.findall(console.file.getvalue())
    assert plain == rich
    assert len(plain) == (3 if verbose else 1)


def test_ambiguous_shows_every_site_without_verbose(small_index):
    [exp] = explain_text("AssertionError: 16 is not divisible by 6", small_index)
    assert exp.ambiguous
    view = explanation_view(exp)
    assert match_heads(view) == [
        "Match 1 of 2: c70821dca67aeab7  exact  score 0.97",
        "Match 2 of 2: 7faa7e20158272e2  exact  score 0.97",
    ]
    assert Line((Span("note: " + AMBIGUOUS_NOTE, "note"),), 0) in view.parts
    assert not any(t.startswith("Other candidates") for t in texts(view))
    assert explanation_view(exp, verbose=True) == view


# ------------------------------------------------------------------------------------ values


def test_bound_values_are_value_spans_in_the_error_line(small_index):
    message = "feature length does not match image grids: 5824 != 5760"
    [exp] = explain_text(f"ValueError: {message}", small_index)
    view = explanation_view(exp)
    header = view.parts[0]
    assert isinstance(header, Line)
    assert header.spans == (
        Span("ValueError: ", "type"),
        Span("feature length does not match image grids: "),
        Span("5824", "value"),
        Span(" != "),
        Span("5760", "value"),
    )
    values = next(t for t in texts(view) if t.startswith("Values:"))
    assert values == "Values:   pixel_values.shape[0] = 5824; sum(patch_counts) = 5760"
    assert spans(view, "value") == ["5824", "5760", "5824", "5760"]


def test_a_value_that_starts_with_another_value_is_highlighted_whole(make_match):
    exp = Explanation(
        RaisedError("ValueError", "expected 2 got 24"),
        (make_match(values=(("want", "2"), ("got", "24"))),),
    )
    header = explanation_view(exp).parts[0]
    assert [s.text for s in header.spans if s.role == "value"] == ["2", "24"]


def test_no_values_no_values_line(make_match, make_entry):
    exp = Explanation(
        RaisedError("ValueError", "image QKV shapes must match"),
        (make_match(make_entry(template="image QKV shapes must match")),),
    )
    view = explanation_view(exp)
    assert not any(t.startswith("Values:") for t in texts(view))
    assert spans(view, "value") == []


# ----------------------------------------------------------------------------- template spans


def test_related_templates_keep_their_placeholders(small_index):
    [exp] = explain_text(
        "ValueError: deferred feature length does not match image grids", small_index
    )
    related = section(explanation_view(exp), "Related errors (errexplain show ID)")
    assert len(related) == 2  # the entry, then why it is related
    assert (
        related[1]
        .spans[0]
        .text.startswith(
            ("checked in", "also checks", "in the same", "the same", "another", "similar")
        )
    )
    assert related[0].spans == (
        Span("e3ed514efbc85910", "dim"),
        Span("  "),
        Span("ValueError: ", "type"),
        Span("feature length does not match image grids: "),
        Span("{pixel_values.shape[0]}", "placeholder"),
        Span(" != "),
        Span("{sum(patch_counts)}", "placeholder"),
    )
    assert related[0].wrap is False


def test_escaped_angle_brackets_are_literal_text():
    assert template_spans("ValueError", "head_dim must be positive, even, and <<= 128") == (
        Span("ValueError: ", "type"),
        Span("head_dim must be positive, even, and <= 128"),
    )
    assert template_spans("", "<<lambda>>() got <n>") == (
        Span("<lambda>() got "),
        Span("{n}", "placeholder"),
    )


# ---------------------------------------------------------------------------- entry sections


def test_derived_entries_are_labelled(make_entry):
    derived = entry_view(make_entry(derived=True, meaning="Raised by `check`."))
    curated = entry_view(make_entry())
    assert "What it means (derived from the source code, not curated)" in texts(derived)
    assert "What it means" not in texts(derived)
    assert "What it means" in texts(curated)
    assert not any("derived" in t for t in texts(curated))


def test_no_meaning_no_section(make_entry):
    view = entry_view(make_entry(meaning=None))
    assert not any(t.startswith("What it means") for t in texts(view))
    assert texts(view)[1] == "Source"


def test_when_it_happens_falls_back_to_the_guard_condition(make_entry):
    view = entry_view(make_entry(condition="n > limit", situations=("big batch",)))
    assert section(view, "When it happens") == [
        Line((Span("Condition in the code: n > limit"),), 2),
        Line((Span("- big batch"),), 4),
    ]


def test_solutions_are_numbered(full_entry):
    assert section(entry_view(full_entry), "Solutions") == [
        Line((Span("1. Lower --max-running-requests."),), 2),
        Line((Span("2. Raise the limit."),), 2),
    ]


def test_example_fix_has_before_and_after_pieces(make_entry):
    entry = make_entry(example_fix=ExampleFix("run(size=300)\n\n", "run(size=100)  \n", "bash"))
    assert section(entry_view(entry), "Example fix") == [
        Code((("# before", "run(size=300)"), ("# after", "run(size=100)")), "bash")
    ]


def test_example_fix_without_before_has_only_after(make_entry):
    entry = make_entry(example_fix=ExampleFix("", "run(size=100)"))
    [code] = section(entry_view(entry), "Example fix")
    assert code == Code((("# after", "run(size=100)"),), "python")


def test_no_example_fix_no_section(make_entry):
    assert "Example fix" not in texts(entry_view(make_entry()))


def test_source_then_link_then_removed_in(make_entry):
    view = entry_view(make_entry(removed_in="2.0.0", derived=True))
    assert section(view, "Source") == [
        Line((Span("demo 1.2.3: demo/pkg/mod.py:12 in check"),), 2, False),
        Link("https://example.org/mod.py#L12"),
        Line((Span("(removed in 2.0.0)"),), 2),
    ]
    assert not any("removed in" in t for t in texts(entry_view(make_entry())))


def test_source_of_an_interpreter_message(make_entry):
    entry = make_entry(source=Source("python", "3.11", None, None, None, None), derived=True)
    assert section(entry_view(entry), "Source") == [
        Line((Span("python 3.11: (raised by the interpreter or a library)"),), 2, False)
    ]


def test_entry_view_title_template_and_examples(full_entry):
    view = entry_view(full_entry)
    assert view.title == "0123456789abcdef · demo"
    head = view.parts[0]
    assert isinstance(head, Line) and head.indent == 0
    assert head.spans[-4:] == (  # the template, placeholders marked, after any lead-in
        Span("ValueError: ", "type"),
        Span("size "),
        Span("{n}", "placeholder"),
        Span(" is too big"),
    )
    assert texts(view)[-2:] == ["Examples", "size 300 is too big"]
    assert not match_heads(view)


# ------------------------------------------------------------------------- header, no match


def test_header_counts_ranks_and_names_root_cause_and_raise_site(make_match):
    err = RaisedError(
        "RuntimeError",
        "boom",
        frames=(Frame("a.py", 3, "outer"), Frame("b.py", 7, "inner")),
        chain=(RaisedError("OSError", "disk gone"), RaisedError("KeyError", "'x'")),
        chain_relation="cause",
        count=2,
        ranks=("TP0", "TP1"),
    )
    view = explanation_view(Explanation(err, (make_match(),)))
    assert view.title == "RuntimeError"
    assert view.parts[:3] == (
        Line(
            (
                Span("RuntimeError: ", "type"),
                Span("boom"),
                Span("  [seen 2 times (TP0, TP1)]", "dim"),
            ),
            0,
            False,
        ),
        Line((Span("root cause: OSError: disk gone", "dim"),), 2, False),
        Line((Span("raised at: b.py:7 in inner", "dim"),), 2, False),
    )


def test_header_of_a_truncated_paste_without_exception_line():
    err = RaisedError("", "", frames=(Frame("<frozen runpy>", None, None),), truncated=True)
    view = explanation_view(Explanation(err, (), notes=("cut",)))
    assert view.title == "error"
    assert texts(view)[:4] == [
        "Error: ",
        "raised at: <frozen runpy>",
        "note: cut",
        "No catalog entry matches this message.",
    ]


def test_no_match_lists_nearest_candidates_then_the_generic_meaning(make_entry, make_match):
    nearest = (
        make_match(make_entry("00000000000000aa", "size <n> is over <limit>"), 0.61, kind="fuzzy"),
        make_match(make_entry("00000000000000bb", "bad size"), 0.4, kind="fuzzy"),
    )
    exp = Explanation(
        RaisedError("ValueError", "the moon is made of cheese"),
        (),
        nearest=nearest,
        generic=MEANINGS["ValueError"],
    )
    view = explanation_view(exp)
    assert texts(view)[1:5] == [
        "No catalog entry matches this message.",
        "Nearest candidates:",
        "0.61  00000000000000aa  ValueError: size {n} is over {limit}",
        "0.40  00000000000000bb  ValueError: bad size",
    ]
    assert spans(view, "note") == ["No catalog entry matches this message."]
    assert spans(view, "placeholder") == ["{n}", "{limit}"]
    assert isinstance(view.parts[-3], Rule)
    assert view.parts[-2:] == (
        Heading("About ValueError"),
        Line((Span(MEANINGS["ValueError"]),), 2),
    )
    assert not match_heads(view)


def test_no_match_from_the_explainer_says_so_with_the_class_meaning(small_index):
    [exp] = explain_text("ValueError: feature length mismatch between images", small_index)
    assert not exp.matches
    view = explanation_view(exp)
    assert "No catalog entry matches this message." in texts(view)
    assert "Nearest candidates:" in texts(view)
    assert texts(view)[-2:] == ["About ValueError", MEANINGS["ValueError"]]


# -------------------------------------------------------------------------------- row view


def _candidate(path: str | None) -> Candidate:
    return Candidate(
        0,
        "0123456789abcdef",
        "ValueError",
        None,
        "size <n> is too big",
        path,
        "check",
        12 if path else None,
        "demo",
        "raise",
        True,
        15,
        None,
    )


def test_row_view_is_id_and_template_then_where():
    first, second = row_view(_candidate("demo/pkg/mod.py"), 0.875)
    assert first.spans[:2] == (Span("0.88  "), Span("0123456789abcdef", "dim"))
    assert "".join(s.text for s in first.spans) == (
        "0.88  0123456789abcdef  ValueError: size {n} is too big"
    )
    assert second == Line((Span("demo/pkg/mod.py:12", "dim"),), 6, False)


def test_row_view_without_score_or_path():
    first, second = row_view(_candidate(None))
    assert first.spans[0] == Span("0123456789abcdef", "dim")
    assert second.spans == (Span("demo", "dim"),)


def test_related_in_a_match_come_from_the_match(make_match):
    related = (Related("fedcba9876543210", "limit <limit> reached", "RuntimeError"),)
    exp = Explanation(
        RaisedError("ValueError", "size 3 is too big"), (make_match(related=related),)
    )
    assert section(explanation_view(exp), "Related errors (errexplain show ID)")[0].spans[2:] == (
        Span("RuntimeError: ", "type"),
        Span("limit "),
        Span("{limit}", "placeholder"),
        Span(" reached"),
    )


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ("json", "(from a JSON error body)"),
        ("log", "(from a log line)"),
        ("repr", "(from an exception repr)"),
        ("prose", "(quoted in text)"),
        ("traceback", None),
        ("line", None),
        ("jupyter", None),
    ],
)
def test_the_form_is_said_under_the_error_line_when_it_helps(form, said):
    exp = Explanation(RaisedError("", "the worker died", form=form), ())
    texts = [
        "".join(s.text for s in p.spans) for p in explanation_view(exp).parts if isinstance(p, Line)
    ]
    assert texts[0] == "Error: the worker died"
    assert (said in texts) if said else not any(t.startswith("(") for t in texts)


@pytest.mark.parametrize(
    ("verified", "expected"),
    [
        (None, "Checked: not yet checked against the code"),
        (
            Verified("run", "1.2.3", "tools/verify/cases/demo.py::too_big"),
            "Checked: the example was run against demo 1.2.3 (tools/verify/cases/demo.py::too_big)",
        ),
        (
            Verified("read", "1.2.3", read=("check", "Limits.__init__"), note="no GPU path"),
            "Checked: read against demo 1.2.3: check, Limits.__init__; no GPU path",
        ),
    ],
)
def test_curated_entry_says_how_it_was_checked(make_entry, verified, expected):
    assert expected in texts(entry_view(make_entry(verified=verified)))


def test_derived_entry_has_no_checked_line(make_entry):
    view = entry_view(make_entry(derived=True, meaning="Raised by check."))
    assert not any(t.startswith("Checked:") for t in texts(view))


@pytest.mark.parametrize(
    ("kind", "via", "said"),
    [
        ("raise", "raise_error_or_warn at pkg/x.py:3", "handed to the helper raise_error_or_warn"),
        ("abort", "FlushCacheReqOutput(success=False)", "sent to the client in a FlushCache"),
        ("abort", "HTTP 401 response", "(sent to the client as the body of an HTTP 401 response,"),
        ("log", "warnings.warn", "(issued with warnings.warn, not raised)"),
        ("log", "print", "(printed with print, not logged or raised)"),
    ],
)
def test_how_a_message_reaches_the_user_follows_the_site_kind(make_entry, kind, via, said):
    """A reply or a warning is not 'handed to a helper which raises it' (a failed
    `/flush_cache` reply once read so)."""
    lines = texts(entry_view(make_entry(kind=kind, via=via)))
    assert any(said in line for line in lines)
    assert kind == "raise" or not any("which raises it" in line for line in lines)


@pytest.mark.parametrize(
    ("kind", "via", "verb"),
    [
        ("raise", None, "raised by"),
        ("assert", None, "raised by"),
        ("log", None, "logged by"),
        ("log", "warnings.warn", "issued by"),
        ("log", "print", "printed by"),
        ("abort", None, "sent to the client by"),
        ("recorded", None, "recorded by"),
    ],
)
def test_the_releases_line_says_what_the_site_does(make_entry, kind, via, verb):
    """A logged line is not 'raised by sglang 0.3 to 0.5' (the releases line said so of every
    site)."""
    from errexplain.models import Match
    from errexplain.render.view import release_history

    entry = make_entry(kind=kind, via=via, releases=("0.4.0", "0.5.1"))
    text = release_history(Match(entry, 1.0, "exact"))
    assert text is not None and text.startswith(f"{verb} ")
