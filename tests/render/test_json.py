"""errexplain.render.json: schema 1 (README "JSON"), the records themselves."""

from __future__ import annotations

import inspect
import json

import pytest

from errexplain.explainer import explain_text
from errexplain.models import (
    SCHEMA_VERSION,
    Candidate,
    ExampleFix,
    Explanation,
    Frame,
    RaisedError,
)
from errexplain.render.json import dumps, entry_dict, render_explanations, row_dict
from errexplain.render.plain import render_explanations as render_plain

EXPLANATION_KEYS = {
    "exception",
    "matches",
    "nearest",
    "ambiguous",
    "generic",
    "notes",
    "release_guess",
    "snippet",
}
EXCEPTION_KEYS = {
    "type",
    "message",
    "frames",
    "count",
    "ranks",
    "truncated",
    "form",
    "chain",
    "members",
}
MATCH_KEYS = {
    "id",
    "score",
    "kind",
    "reasons",
    "template",
    "exception_type",
    "base",
    "source",
    "values",
    "bindings",
    "derived",
    "meaning",
    "trigger",
    "condition",
    "statement",
    "via",
    "situations",
    "solutions",
    "example_fix",
    "verified",
    "related",
    "releases",
    "current",
    "prose_from_current",
}
SOURCE_KEYS = {"project", "version", "path", "line", "function", "url", "test_file"}


def load(exps, extra=None) -> dict:
    out = render_explanations(exps, extra)
    assert out.endswith("}\n")
    doc: dict = json.loads(out)
    return doc


def test_schema_1_and_top_level_keys(three_matches):
    doc = load([three_matches])
    assert SCHEMA_VERSION == 1
    assert doc["schema"] == 1
    assert list(doc) == ["schema", "errors"]
    assert list(load([three_matches], {"input": {"name": "stdin"}})) == [
        "schema",
        "errors",
        "input",
    ]


def test_keys_follow_the_schema(small_index):
    text = "ValueError: feature length does not match image grids: 5824 != 5760"
    [err] = load(explain_text(text, small_index))["errors"]
    assert set(err) == EXPLANATION_KEYS
    assert set(err["exception"]) == EXCEPTION_KEYS
    [match] = err["matches"]
    assert set(match) == MATCH_KEYS
    assert set(match["source"]) == SOURCE_KEYS
    assert set(match["example_fix"]) == {"before", "after", "language"}
    assert [set(r) for r in match["related"]] == [{"id", "template", "exception_type", "why"}]
    assert match["values"] == {"pixel_values.shape[0]": "5824", "sum(patch_counts)": "5760"}
    assert (
        match["source"]["url"]
        == "https://example.org/demo/blob/v1.2.3/python/demo/pkg/images.py#L360"
    )
    assert match["template"] == (
        "feature length does not match image grids: <pixel_values.shape[0]> != <sum(patch_counts)>"
    )


def test_no_match_has_nearest_and_generic(small_index):
    [exp] = explain_text("ValueError: feature length mismatch between images", small_index)
    [err] = load([exp])["errors"]
    assert err["matches"] == []
    assert err["nearest"] and all(set(n) == {"id", "score", "template"} for n in err["nearest"])
    assert [n["id"] for n in err["nearest"]] == [m.entry.id for m in exp.nearest]
    assert err["generic"] == exp.generic


def test_every_match_in_full_whatever_verbose(three_matches):
    assert "verbose" not in inspect.signature(render_explanations).parameters
    assert render_plain([three_matches]).count("\nMatch ") == 1  # a person sees one
    [err] = load([three_matches])["errors"]
    assert [m["id"] for m in err["matches"]] == [f"{i:016x}" for i in (1, 2, 3)]
    assert [m["meaning"] for m in err["matches"]] == [f"Meaning number {i}." for i in (1, 2, 3)]
    assert all(m["related"] for m in err["matches"])


def test_ambiguous_and_notes(small_index):
    [err] = load(explain_text("AssertionError: 16 is not divisible by 6", small_index))["errors"]
    assert err["ambiguous"] is True
    assert len(err["matches"]) == 2
    assert len(err["notes"]) == 1


def test_round_trip_keeps_pasted_text_exactly(make_match):
    message = 'naïve 中文 "quoted" back\\slash\ttab\nnew line \x1b[31m [bold]x[/] \u2028'
    exp = Explanation(
        RaisedError(
            "ValueError",
            message,
            frames=(Frame("/srv/app.py", 3, "<module>", code="raise X"),),
            chain=(RaisedError("OSError", "disk 💥"),),
            members=(RaisedError("KeyError", "'k'"),),
            count=3,
            ranks=("TP0", "TP1", "TP2"),
        ),
        (make_match(values=(("n", message),)),),
    )
    out = render_explanations([exp])
    assert "中文" in out and "💥" in out  # not \u-escaped
    [err] = json.loads(out)["errors"]
    assert err["exception"]["message"] == message
    assert err["matches"][0]["values"] == {"n": message}
    assert err["exception"]["frames"] == [
        {"path": "/srv/app.py", "line": 3, "function": "<module>"}
    ]
    assert err["exception"]["chain"] == [{"type": "OSError", "message": "disk 💥"}]
    assert err["exception"]["members"] == [{"type": "KeyError", "message": "'k'"}]
    assert (err["exception"]["count"], err["exception"]["ranks"]) == (3, ["TP0", "TP1", "TP2"])


def test_scores_are_rounded_to_four_places(make_match, make_entry):
    exp = Explanation(
        RaisedError("ValueError", "m"),
        (make_match(score=0.123456789),),
        nearest=(make_match(make_entry("00000000000000aa"), score=2 / 3, kind="fuzzy"),),
    )
    [err] = load([exp])["errors"]
    assert err["matches"][0]["score"] == 0.1235
    assert err["nearest"][0]["score"] == 0.6667


def test_example_fix_is_null_when_absent_and_an_object_when_present(make_entry):
    assert entry_dict(make_entry())["example_fix"] is None
    fix = entry_dict(make_entry(example_fix=ExampleFix("a", "b", "bash")))["example_fix"]
    assert fix == {"before": "a", "after": "b", "language": "bash"}


def test_output_is_deterministic(three_matches, small_index):
    exps = [three_matches, *explain_text("AssertionError: 16 is not divisible by 6", small_index)]
    assert render_explanations(exps) == render_explanations(exps)


def test_dumps_puts_the_schema_first():
    assert (
        dumps({"entry": {"id": "x"}}) == '{\n  "schema": 1,\n  "entry": {\n    "id": "x"\n  }\n}\n'
    )


def test_row_dict_with_and_without_score():
    cand = Candidate(
        4,
        "0123456789abcdef",
        "ValueError",
        None,
        "size <n> is too big",
        "demo/pkg/mod.py",
        "check",
        12,
        "demo",
        "raise",
        True,
        15,
        None,
    )
    row = row_dict(cand)
    assert row == {
        "id": "0123456789abcdef",
        "exception_type": "ValueError",
        "template": "size <n> is too big",
        "project": "demo",
        "path": "demo/pkg/mod.py",
        "line": 12,
        "test_file": False,
    }
    assert row_dict(cand, 0.87654) == {**row, "score": 0.8765}


def test_every_bound_value_reaches_the_json(make_entry, make_match):
    entry = make_entry(template="<name>_block_cnt and <name>_block_idx must both be provided")
    values = (("name", "alpha"), ("name", "beta"))
    exp = Explanation(
        RaisedError("ValueError", "alpha_block_cnt and beta_block_idx must both be provided"),
        (make_match(entry, values=values),),
    )
    assert "Values:   name = alpha; name = beta" in render_plain([exp])
    [err] = load([exp])["errors"]
    match = err["matches"][0]
    assert match["bindings"] == [["name", "alpha"], ["name", "beta"]]
    assert match["values"] == {"name": "alpha"}  # the first binding of each name


@pytest.mark.parametrize(
    ("text", "form"),
    [
        ("ValueError: feature length does not match image grids: 5824 != 5760", "line"),
        (
            '{"error": {"message": "feature length does not match image grids", "code": 400}}',
            "json",
        ),
    ],
)
def test_exception_says_how_it_was_found(small_index, text, form):
    [err] = load(explain_text(text, small_index))["errors"]
    assert err["exception"]["form"] == form


def test_verified_is_null_or_the_record(make_entry):
    from errexplain.models import Verified

    assert entry_dict(make_entry())["verified"] is None
    v = Verified("read", "1.2.3", read=("check",))
    assert entry_dict(make_entry(verified=v))["verified"] == {
        "how": "read",
        "release": "1.2.3",
        "case": None,
        "read": ["check"],
        "note": None,
    }
