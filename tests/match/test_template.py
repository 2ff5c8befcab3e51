from __future__ import annotations

import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errexplain.match.template import (
    TemplateSyntaxError,
    compile_template,
    escape,
    fill,
    match,
    placeholder,
    render_plain,
    sentence_stops,
)


def test_binds_values():
    t = "Kimi-K3 feature length does not match image grids: <pixel_values.shape[0]> != <sum(n)>"
    assert match(t, "Kimi-K3 feature length does not match image grids: 5824 != 5760") == (
        ("pixel_values.shape[0]", "5824"),
        ("sum(n)", "5760"),
    )


def test_escaped_angle_brackets_are_literal():
    t = "head_dim must be positive, even, and <<= 128"
    assert compile_template(t).names == ()
    assert match(t, "head_dim must be positive, even, and <= 128") == ()
    assert render_plain("<<lambda>> got <x!r>") == "<lambda> got {x!r}"


def test_placeholder_with_greater_than_in_name():
    t = "<a >> b> is wrong"
    assert compile_template(t).names == ("a > b",)
    assert placeholder("a > b") == "<a >> b>"


@pytest.mark.parametrize("bad", ["open <never closed", "empty <> placeholder"])
def test_syntax_errors(bad):
    with pytest.raises(TemplateSyntaxError):
        compile_template(bad)


def test_whitespace_runs_and_newlines_are_one_space():
    t = "Prefill out of memory. <detail>"
    assert match(t, "Prefill  out of\nmemory.   x y") == (("detail", "x y"),)


def test_whole_message_only():
    assert match("image QKV shapes must match", "image QKV shapes must match!") is None
    assert match("<a> is not divisible by <b>", "16 is not divisible") is None


def test_leading_placeholder():
    t = "<pool_name> state_pools must not contain None"
    assert match(t, "deepseek_v4_c4_state state_pools must not contain None") == (
        ("pool_name", "deepseek_v4_c4_state"),
    )


def test_adversarial_100kb_is_linear(untraced):
    t = "<a> x <b> x <c> x <d> x <e> y"
    msg = "x " * 50_000 + "z"
    start = time.perf_counter()
    assert match(t, msg) is None
    assert time.perf_counter() - start < 0.5


_value = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")),
    min_size=1,
    max_size=20,
)
_literal = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=20)


@given(st.lists(_literal, min_size=1, max_size=5), st.data())
def test_fill_then_match_refills_the_same(literals, data):
    names = [f"v{i}" for i in range(len(literals) - 1)]
    template = escape(literals[0]) + "".join(
        placeholder(n) + escape(lit) for n, lit in zip(names, literals[1:], strict=True)
    )
    values = {n: data.draw(_value) for n in names}
    message = fill(template, values)
    bound = match(template, message)
    assert bound is not None
    norm = re.sub(r"\s+", " ", message).strip()
    assert re.sub(r"\s+", " ", fill(template, dict(bound))).strip() == norm


@given(_literal)
def test_literal_template_matches_exactly_itself(text):
    t = escape(text)
    assert match(t, text) == ()
    if text.strip():
        assert match(t, text + "!") is None


def test_placeholder_followed_by_literal_greater_than():
    c = compile_template("size <n>>> limit")
    assert c.names == ("n",) and c.literals == ("size ", "> limit")
    assert match("size <n>>> limit", "size 7> limit") == (("n", "7"),)


@pytest.mark.parametrize(
    ("template", "msg", "expected"),
    [
        # cut where a sentence of the template ends: a natural boundary (the rest left out)
        ("Rank <i> scheduler is dead. Please check the logs.", "Rank 0 scheduler is dead", True),
        (
            "Decode out of memory happened. Retract <n> requests.",
            "Decode out of memory happened",
            True,
        ),
        ("The server is not ready yet! Wait for <n> s.", "The server is not ready yet", True),
        # cut mid-sentence, or too little text: not a boundary
        ("Rank <i> scheduler is dead. Please check the logs.", "Rank 0 scheduler is de", False),
        ("Rank <i> scheduler is dead. Please check the logs.", "Rank 0 scheduler", False),
        ("Bad value. Use <x>.", "Bad value", False),
        # cut where a clause ends (before a conjunction that opens the next one)
        ("<a> has no native kernel and the fallback is slow.", "Qwen has no native kernel", True),
        ("Rank <i> scheduler is dead but its port is open.", "Rank 0 scheduler is dead", True),
        ("Rank <i> scheduler is dead but its port is open.", "Rank 0 scheduler is", False),
        ("<a> has no native kernel andromeda", "Qwen has no native kernel", False),
        # before a parenthesis that opens an aside: the details of a whole clause left out
        ("<name> watchdog timeout (limit=<t>, soft=<s>)", "Scheduler watchdog timeout", True),
        ("<name> watchdog timeout (limit=<t>, soft=<s>)", "Scheduler watchdog time", False),
        ("<name> watchdog timeout(<t>)", "Scheduler watchdog timeout", False),
        # not before a comma: what follows one is as often the same clause's detail (`NCCL error:
        # remote process exited or there was a network error, NCCL version <v>`)
        ("Rank <i> scheduler is dead, pid <p>.", "Rank 0 scheduler is dead", False),
        # one whole value where the template's sentence ends right after it (`<path>. Falling`):
        # the sentence quoted whole, its stop left out; not a value with a space in it (the
        # message went on in words of its own), not a value whose sentence goes on
        (
            "Cannot open table file at <p>. Falling back to <x>.",
            "Cannot open table file at /a/b.json",
            True,
        ),
        (
            "Cannot open table file at <p>. Falling back to <x>.",
            "Cannot open table file at /a b",
            False,
        ),
        (
            "Cannot open table file at <p> now. Falling back.",
            "Cannot open table file at /a/b.json",
            False,
        ),
        ("Table at <p>. Falling back to <x>.", "Table at /a/b.json", False),
    ],
)
def test_a_message_cut_at_a_sentence_end_is_at_a_boundary(template, msg, expected):
    from errexplain.match.template import compile_template, match_prefix

    matched, boundary = match_prefix(compile_template(template), msg)
    assert boundary is expected
    if expected:  # the literal characters matched (around the value "0": "Rank", "scheduler ...")
        assert matched == {"R": 21, "D": 29, "T": 27, "Q": 20, "S": 16, "C": 25}[msg[0]]


@pytest.mark.parametrize(
    ("msg", "boundary"),
    [
        # the quoted value, then only its closing quote: cut at the clause's end
        ("Missing required field 'backend_name'", True),
        # the value holds its closing quote and the template's next words are not what follows
        # it: another message (`for field`, not `in backend config`)
        ("Missing required field 'type' for field 'fields'", False),
    ],
)
def test_a_quoted_value_that_closes_early_is_no_cut_at_its_closing_quote(msg, boundary):
    from errexplain.match.template import compile_template, match_prefix

    template = "Missing required field '<field>' in backend config for 'dynamic' backend"
    assert match_prefix(compile_template(template), msg)[1] is boundary


def test_sentence_stops_are_stops_that_more_text_follows():
    text = "Rank 0 is dead. Took 3.5 s! Why? 2. done."
    assert [text[i] for i in sentence_stops(text)] == [".", "!", "?"]
    assert sentence_stops("v1.2 is out") == [] and sentence_stops("it ends.") == []


@pytest.mark.parametrize(
    ("msg", "matched"),
    [
        # the head left out, the rest whole: every literal character after the start
        ("pool page sizes must agree across ranks, got 4 and 8.", 48),
        # the head left out and the end cut (a fragment quoted in prose)
        ("page sizes must agree across ranks, got 4 and", 42),
        # a value first: the message starts at the literal chunk after the first placeholder
        ("replicas of the router are not ready yet", 0),
        # the template's own start is a prefix reading, not an infix one
        ("Paged KV pool page sizes must agree", 0),
        # not at a word start inside the literal text
        ("ool page sizes must agree across ranks", 0),
        # words of the template, not in its order
        ("sizes must agree across ranks page pool", 0),
    ],
)
def test_match_infix_reads_a_message_quoted_from_a_templates_middle(msg, matched):
    from errexplain.match.template import compile_template, match_infix

    template = "Paged KV pool page sizes must agree across ranks, got <a> and <b>."
    assert match_infix(compile_template(template), msg) == matched


def test_match_infix_after_a_placeholder():
    from errexplain.match.template import compile_template, match_infix

    compiled = compile_template("<n> replicas of the router are not ready yet (<why>)")
    # the leading value left out: the message starts at the second literal chunk
    assert match_infix(compiled, "replicas of the router are not ready yet (timeout)") == 43


@pytest.mark.parametrize(
    ("msg", "matched"),
    [
        # a part that opens with a bracket of the text (a condition quoted from a hint)
        ("(pool_pages_total=512 / tp=8) % page=64 == 0 where tp is", 49),
        ("`pool_pages_total=512 / tp=8` % page=64 == 0", 0),  # a quote the template lacks
    ],
)
def test_match_infix_may_open_with_a_bracket_or_a_quote(msg, matched):
    from errexplain.match.template import compile_template, match_infix

    template = (
        "Please make sure (pool_pages_total=<total!r> / tp=<tp!r>) % page=<page!r> == 0 "
        "where tp is the tensor parallel size."
    )
    assert match_infix(compile_template(template), msg) == matched


@pytest.mark.parametrize(
    ("msg", "reading"),
    [
        # the tail from a clause's start, to the template's end: quoted whole from there
        ("switching the cache to page_first layout for direct io backend", (42, True, 2)),
        # a tail from inside a clause: a fragment, maybe cut at both ends
        ("the cache to page_first layout for direct io backend", (32, False, 2)),
        # from a clause's start but cut before the end
        ("switching the cache to page_first layout for direct", (32, False, 1)),
        # cut before the first value's closing text: no value held
        ("switching the cache to page_first", (22, False, 0)),
    ],
)
def test_infix_reading_tells_a_tail_quoted_from_a_clause_start(msg, reading):
    from errexplain.match.template import compile_template, infix_reading

    template = (
        "Store backend does not support layer_first layout, switching the cache to <layout> "
        "layout for <io> io backend"
    )
    assert infix_reading(compile_template(template), msg) == reading
