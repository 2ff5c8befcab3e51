"""A catalogued message quoted in prose the way issue posters write it: inside a sentence with
no quotes or colon around it, and cut short with an ellipsis the paster typed."""

from __future__ import annotations

import pytest
from tests.views import lettered_entry

from errexplain._startup import replace
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.match.rank import BOUNDARY_SHARE, PREFIX_BASE, PREFIX_SPAN, marked_cut, rank
from errexplain.models import Entry, Source

POOL = "Paged KV pool page sizes must agree across ranks, got <a> and <b>."
LOADER = "Could not resolve the draft model checkpoint under <path>"


def _entry(letter: str, template: str) -> Entry:
    return lettered_entry(letter, template, "RuntimeError")


VIEW = MemoryCatalog([_entry("a", POOL), _entry("b", LOADER)])


@pytest.mark.parametrize(
    ("msg", "cut"),
    [
        ("Paged KV pool page sizes m...", "Paged KV pool page sizes m"),
        ("Paged KV pool page sizes must \u2026", "Paged KV pool page sizes must"),
        ("Paged KV pool page sizes must agree", None),
        ("loading.... done", None),
    ],
)
def test_a_trailing_ellipsis_is_the_pasters_cut(msg, cut):
    assert marked_cut(msg) == cut


def test_a_cut_the_paster_marked_scores_as_a_boundary():
    hit = rank(VIEW, "Paged KV pool page sizes must ag...").hits[0]
    assert hit.cand.template == POOL
    assert hit.score == pytest.approx(PREFIX_BASE + PREFIX_SPAN * BOUNDARY_SHARE)
    assert any("marked" in r for r in hit.reasons)
    # a short cut unmarked is a plain cut off: scored by the share it covers, under the bar
    # a paste with no exception line must reach
    short = "Paged KV pool page sizes"
    assert rank(VIEW, short + "...").hits[0].score == pytest.approx(hit.score)
    plain = rank(VIEW, short, cutoff=0.0)
    assert (plain.hits or plain.nearest)[0].score < hit.score
    assert explain_text(f"I see {short} on start", VIEW) == ()
    assert explain_text(f"I see {short}... on start", VIEW)[0].matches[0].entry.template == POOL


@pytest.mark.parametrize(
    "text",
    [
        "got this error Paged KV pool page sizes must agree across ranks, got 16 and 32. on 8 GPUs",
        "and then Could not resolve the draft model checkpoint under /ckpt/eagle3 when I start it",
        "I see Paged KV pool page sizes must agree acro... on every start",
        "the launch dies with Paged KV pool page sizes must agree across \u2026 again",
    ],
)
def test_a_message_written_into_a_sentence_is_found(text):
    (exp,) = explain_text(text, VIEW)
    assert exp.error.type == ""
    assert exp.matches[0].entry.template in (POOL, LOADER)
    assert text.find(exp.error.message) > 0  # read from where the message starts


@pytest.mark.parametrize(
    ("left", "right"), [("\uff08", "\uff09"), ("\u300c", "\u300d"), ("\u300e", "\u300f")]
)
def test_a_message_in_cjk_brackets_or_full_width_parentheses_is_found(left, right):
    """Chinese and Japanese prose puts an English message in corner brackets or full-width
    parentheses, with no space around it."""
    text = (
        f"\u52a0\u8f7d\u8349\u7a3f\u6a21\u578b\u65f6\u5d29\u6e83{left}"
        f"Paged KV pool page sizes must agree across ranks{right}\uff0c\u4e00\u4e2a\u7a97\n"
    )
    (exp,) = explain_text(text, VIEW)
    assert exp.matches[0].entry.template == POOL
    assert exp.error.message == "Paged KV pool page sizes must agree across ranks"


def test_full_width_parentheses_are_asides_when_a_line_is_asked_whether_it_quotes():
    from errexplain.explainer import _quoted

    line = "\u542f\u52a8\u65f6\u7ecf RoCE\uff08the CX-7 direct link\uff09\u5931\u8d25"
    assert _quoted(line) == []
    assert _quoted(line, asides=True) == ["the CX-7 direct link"]


def test_prose_that_only_shares_a_few_words_is_not_an_error():
    assert explain_text("the page sizes of my pool must agree with what the docs say", VIEW) == ()
    assert explain_text("Could not resolve the host name for the proxy", VIEW) == ()


DEAD = "Rank <i> scheduler is dead. Please check if there are relevant logs."
CAPACITY = "The memory capacity is unbalanced. Some GPUs may be occupied by other processes."
SENTENCE_ENTRIES = [
    _entry("c", DEAD),
    _entry("d", CAPACITY),
    _entry("e", "Health check failed: <e>"),
]
SENTENCES = MemoryCatalog(SENTENCE_ENTRIES)


@pytest.mark.parametrize(
    ("text", "template"),
    [
        # a log record whose first sentence is the template's, then other words (a release
        # that words the rest differently)
        ("[2026-02-27 22:52:09] Rank 0 scheduler is dead. Exit code: -9", DEAD),
        # the sentence, its stop pasted, then the poster's own prose
        ("Rank 3 scheduler is dead. Why does this happen on every restart?", DEAD),
        # quoted mid-sentence with its capital lowered
        ("we often see 'the memory capacity is unbalanced' on shared nodes", CAPACITY),
    ],
)
def test_a_message_sentence_followed_by_other_text_is_found(text, template):
    (exp,) = explain_text(text, SENTENCES)
    assert exp.matches[0].entry.template == template


def test_a_sentence_head_is_read_only_when_no_fuller_reading_fits():
    """`Health check failed.` of a longer quoted message would match a shorter template
    loosely: the whole quoted message is read first, and nothing short of it is offered."""
    view = MemoryCatalog([*SENTENCE_ENTRIES, _entry("f", "Health check failed. Server <x>")])
    (exp,) = explain_text("* `Health check failed. Server couldn't get a response`", view)
    assert exp.matches[0].entry.id == "f" * 16


CUT_TRACEBACK = """[Bug] New model: "Paged KV pool page sizes must agree across ranks, \
got 16 and 32."

```
Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/local/lib/python3.12/site-packages/demo/scheduler.py", line 1748, in run
    scheduler = Scheduler(server_args)
  File "/usr/local/lib/python3.12/site-pack
"""


def test_a_traceback_cut_before_its_exception_line_gives_way_to_the_quoted_message():
    exps = explain_text(CUT_TRACEBACK, VIEW)
    assert [x.matches[0].entry.template for x in exps if x.matches] == [POOL]


def test_only_quoted_text_is_read_beside_a_cut_traceback():
    """Prose around a cut traceback is not read line by line: only what the paster quoted, an
    issue title's text after its colon (the title is where posters put the error), and the
    sentence just above the traceback that introduces it (tests/test_introducing.py)."""
    text = CUT_TRACEBACK.replace('"Paged KV', "Paged KV").replace('32."', "32.")
    text = text.replace("[Bug] New model: ", "The new model fails: ")
    further = text.replace("\n\n```", "\nIt worked last week.\nNothing else changed.\n\n```")
    assert not any(x.matches for x in explain_text(further, VIEW))
    # right above the traceback, the sentence introduces it
    assert [x.matches[0].entry.template for x in explain_text(text, VIEW) if x.matches] == [POOL]


def test_a_log_record_above_a_cut_traceback_is_read_when_nothing_is_quoted():
    """With nothing quoted, a log record beside a traceback cut before its exception line is
    read as in a paste with no exception line (a warning the failure logged first); the prose
    around it still is not."""
    record = (
        "[2026-03-10 14:17:52 TP6] Could not resolve the draft model checkpoint under "
        "/models/draft-7b/snapshots/1234 (see above)\n"
    )
    # (the message as a line of prose, not an issue title: a title is read, see below)
    text = CUT_TRACEBACK.replace('[Bug] New model: "Paged KV', "New model: Paged KV")
    text = text.replace('32."', "32.").replace("```\n", "```\n" + record, 1)
    found = [x.matches[0].entry.template for x in explain_text(text, VIEW) if x.matches]
    assert found == [LOADER]


def test_a_record_announcing_the_cut_traceback_is_all_the_paste_shows_of_it():
    """Session 17 reversed this test's earlier claim (the record is never an error of its own):
    with nothing quoted and no line without a log prefix among the records above it, the record
    that announced the cut traceback is what the paste shows of the error (yd016, yz006). It is
    never confident (ANNOUNCED_CAP), and says the exception was cut off; the prose title is
    still not read line by line."""
    from errexplain.explainer import ANNOUNCED_CAP, ANNOUNCED_NOTE

    entries = [
        _entry("a", POOL),
        _entry("b", LOADER),
        _entry("c", "Scheduler hit an exception: <t>"),
    ]
    view = MemoryCatalog(entries)
    # (the message as a line of prose, not an issue title: a title is read, see below)
    text = CUT_TRACEBACK.replace('[Bug] New model: "Paged KV', "New model: Paged KV")
    text = text.replace('32."', "32.")
    text = text.replace("Scheduler hit", "[2026-03-10 14:17:52 TP1] Scheduler hit")
    found = [x for x in explain_text(text, view) if x.matches]
    assert [x.matches[0].entry.id for x in found] == ["c" * 16]
    assert found[0].matches[0].score <= ANNOUNCED_CAP and ANNOUNCED_NOTE in found[0].notes


CONFLICT = (
    "room routing conflict: sent to prefill worker <w> but bootstrap room <r> belongs to "
    "worker <x>. "
    "Set ALLOW_MIXED_ROUTING=1 to allow it."
)
HEALTH = (
    "Peer at <addr> answered the health check before, but now it is down. Request <rid> has "
    "been marked failed."
)


def test_a_fragment_quoted_from_a_messages_middle_is_known():
    view = MemoryCatalog([_entry("c", CONFLICT), _entry("d", HEALTH), _entry("a", POOL)])
    # the head left out and the end cut: the paster quoted the part that varies
    text = (
        'every request failed with "sent to prefill worker 0 but bootstrap room X belongs to '
        'worker Y" on DP1'
    )
    (exp,) = explain_text(text, view)
    assert exp.matches[0].entry.template == CONFLICT
    assert any("start left out" in r for r in exp.matches[0].reasons)
    # too short a fragment (under CUT_KNOWN literal characters) is not an answer
    assert explain_text('it says "but bootstrap room X belongs to" sometimes', view) == ()


def test_a_message_cut_mid_word_in_backticks_is_known():
    view = MemoryCatalog([_entry("d", HEALTH), _entry("a", POOL)])
    text = (
        "The first request fails with:\n\n"
        "> `Peer at {self.addr} answered the health check before, but now it is`"
    )
    (exp,) = explain_text(text, view)
    assert exp.matches[0].entry.template == HEALTH
    assert exp.matches[0].score < 0.9  # a cut message: found, not confident


def test_a_span_quoted_whole_and_matched_exactly_is_known_however_long_its_values():
    view = MemoryCatalog([_entry("c", "Graph capture failed with error: <e>")])
    # the value (the caught error's text) is longer than the literal head: in a sentence the
    # line is not known; quoted whole by the paster, the span is the message as printed
    text = (
        "- Error: `Graph capture failed with error: RuntimeError when making fake tensor call` "
        "then the tracer gives up.\n"
    )
    [exp] = explain_text(text, view)
    assert exp.matches[0].entry.id == "c" * 16 and exp.matches[0].kind == "exact"
    # in a sentence, a failure's label (four words or more, then a colon) is quoted: the
    # error it caught runs to the line's end (its extent is not known)
    [exp] = explain_text(
        "The tracer said Graph capture failed with error: RuntimeError when making fake tensor "
        "call\n",
        view,
    )
    assert exp.error.message == (
        "Graph capture failed with error: RuntimeError when making fake tensor call"
    )
    # a line of its own that opens with the message's long head is the message as printed
    # (explainer._heads_line), as a log line without a prefix prints it
    [exp] = explain_text(
        "Graph capture failed with error: RuntimeError when making fake tensor call\n", view
    )
    assert exp.matches[0].entry.id == "c" * 16


def test_a_value_the_paster_elided_with_a_short_head_before_it():
    # `(...)` stands for a value: the head before it is short, the parts long in all
    view = MemoryCatalog(
        [_entry("c", "The batch (<n> items) is larger than the pool's capacity (<m> items).")]
    )
    text = "runs can fail with `The batch (...) is larger than the pool's capacity (64 items)`\n"
    [exp] = explain_text(text, view)
    assert exp.matches[0].entry.id == "c" * 16
    # a short head alone with a short rest anchors nothing
    assert not explain_text("it said `The batch (...) is larger`\n", view)


def test_a_near_templates_head_inside_a_quoted_message_starts_no_reading():
    # `raise RuntimeError("server launch failed")`: the quoted message is "server launch
    # failed"; the head of a short template inside it is not where another message starts
    view = MemoryCatalog([_entry("c", "launch failed")])
    assert not explain_text('raise RuntimeError("server launch failed")\n', view)


# ------------------------------------------------------------------ quoted spans of a line


def _at(line: str, word: str) -> int:
    return line.index(word)


@pytest.mark.parametrize(
    ("line", "word", "inside"),
    [
        ('raise RuntimeError("draft model checkpoint missing")', "checkpoint", True),
        ('raise RuntimeError("draft model checkpoint missing")', "draft", False),  # its opening
        ('"one" then two "three"', "two", False),  # between two quoted spans
        ("the log said `page sizes must agree` twice", "sizes", True),
        # a double quote left unclosed does not hide the backtick span around the position
        ('he wrote "see `page sizes must agree` above', "sizes", True),
        ('a "closed" span, then `ticks` after', "after", False),
    ],
)
def test_inside_quotes_pairs_quotes_from_the_left(line, word, inside):
    from errexplain.explainer import _inside_quotes

    assert _inside_quotes(line, _at(line, word)) is inside


def test_quoted_spans_are_paired_in_order_and_an_unclosed_quote_spans_nothing():
    from errexplain.explainer import _quoted

    line = "`Paged KV pool page sizes must agree` and 'unclosed quote of a message"
    assert _quoted(line) == ["Paged KV pool page sizes must agree"]
    two = '"first quoted message here" and "second quoted message here"'
    assert _quoted(two) == ["first quoted message here", "second quoted message here"]


def test_one_token_quoted_alone_is_a_name_the_prose_talks_about_not_a_message():
    # the template mentions the variable; a post that names the variable in backticks does not
    # quote the message (its error, a CUDA device assert, was cut before its exception line)
    view = MemoryCatalog(
        [
            _entry(
                "e",
                "Set DEMO_ALLOW_OVERWRITE_LONGER_CONTEXT_LENGTH=1 to allow a longer context "
                "than the model's <n>",
            )
        ]
    )
    text = (
        "By the docs, `DEMO_ALLOW_OVERWRITE_LONGER_CONTEXT_LENGTH` should be off by default.\n"
        "```\n/src/aten/Kernel.cu:163: operator(): block: [0,0,0] Assertion `idx >= 0` failed.\n"
        "```\n"
    )
    assert [x.matches[0].entry.id for x in explain_text(text, view) if x.matches] == []
    # a message with words, quoted the same way, still is one
    quoted = "It prints `Set DEMO_ALLOW_OVERWRITE_LONGER_CONTEXT_LENGTH=1 to allow a longer`"
    assert explain_text(quoted, view)[0].matches[0].entry.id == "e" * 16


def test_each_error_a_post_quotes_is_explained():
    # one quoted with its type, one quoted alone: both are errors the post names
    view = MemoryCatalog([_entry("a", POOL), _entry("b", LOADER)])
    text = (
        "Without the restart every request fails with\n"
        "`RuntimeError: Paged KV pool page sizes must agree across ranks, got 16 and 32.` on one\n"
        "node and `Could not resolve the draft model checkpoint under /models/d7` on the other.\n"
    )
    got = [x.matches[0].entry.id for x in explain_text(text, view) if x.matches]
    assert got == ["a" * 16, "b" * 16]


@pytest.mark.parametrize(
    "label", ["Error: ", "- Error: ", "    - **Error**: ", "ERROR: ", "报错\uff1a", "1. error: "]
)
def test_a_line_labelled_as_the_error_beside_a_quoted_one_is_explained(label):
    """A post's notes list what each try gave: one error quoted with its type, another on a
    line of its own after a failure label. Both are errors the post names."""
    text = (
        "- 8 GPUs:\n"
        '    - "RuntimeError: Paged KV pool page sizes must agree across ranks, got 16 and 32"'
        " => set the page size\n"
        "- 16 GPUs:\n"
        f"{label}Could not resolve the draft model checkpoint under /models/d7\n"
    )
    got = [x.matches[0].entry.id for x in explain_text(text, VIEW) if x.matches]
    assert got == ["a" * 16, "b" * 16]


def test_a_label_word_inside_a_line_or_without_its_colon_labels_nothing():
    text = (
        '"RuntimeError: Paged KV pool page sizes must agree across ranks, got 16 and 32"\n'
        "The error Could not resolve the draft model checkpoint under /models/d7 came later\n"
    )
    got = [x.matches[0].entry.id for x in explain_text(text, VIEW) if x.matches]
    assert got == ["a" * 16]


def test_an_issue_title_beside_a_cut_traceback_is_read_after_its_colon():
    # the title holds the error the traceback below was cut before, as a markdown heading or
    # as the first line (session 18's rule saw only the heading: the cleaner had taken the
    # tag off a plain title line before the title was looked for)
    text = CUT_TRACEBACK.replace('"Paged KV', "Paged KV").replace('32."', "32.")
    for pasted in ("# " + text, text):
        (exp,) = [x for x in explain_text(pasted, VIEW) if x.matches]
        assert exp.matches[0].entry.template == POOL


def test_a_document_s_title_heading_is_read_as_an_issue_title():
    # a post or a notes file whose first-level heading names the error (no issue tag): its title,
    # read after its colon as an issue title is
    text = CUT_TRACEBACK.replace('[Bug] New model: "Paged KV', "# New model: Paged KV")
    text = text.replace('32."', "32.")
    text = text.replace("\n\n```", "\nIt worked last week.\nNothing else changed.\n\n```")
    (exp,) = [x for x in explain_text(text, VIEW) if x.matches]
    assert exp.matches[0].entry.template == POOL
    # a lower heading is a section's name, not the post's title
    assert not any(x.matches for x in explain_text(text.replace("# New", "### New"), VIEW))
    # nor is a line of a `#` comment block below the paste's first line
    assert not any(x.matches for x in explain_text("# Notes from the run\n" + text, VIEW))


STOPPED_CHAIN = """[Bug] Paged KV pool page sizes must agree across ranks, got 16 and 32

Starting the server on two nodes fails:
```
Traceback (most recent call last):
  File "/usr/lib/python3.12/importlib/metadata/__init__.py", line 397, in from_name
    return next(iter(cls.discover(name=name)))
StopIteration

Du
```
"""


def test_an_issue_title_is_read_whole_beside_an_unexplained_error_without_a_message():
    """A chain cut after its first exception (a bare `StopIteration` raised in the standard
    library, which no entry explains): the error is the title's, written after its tag with
    no colon (the cleaner takes the tag off the line, the title is still known as one)."""
    exps = explain_text(STOPPED_CHAIN, VIEW)
    assert [x.matches[0].entry.template for x in exps if x.matches] == [POOL]
    assert "StopIteration" in [x.error.type for x in exps]  # (still shown, unexplained)
    # a line that is no issue title is not read whole
    plain = STOPPED_CHAIN.replace("[Bug] ", "We saw ")
    assert [x for x in explain_text(plain, VIEW) if x.matches] == []


def test_a_rank_record_cut_short_by_the_paste_is_the_same_record_again():
    """Eight ranks log the same record and the paste ends inside the last copy: the cut copy
    is that record again, not an error of its own for a template that starts the same way."""
    view = MemoryCatalog(
        [
            _entry("q", "Failed to set up the pinned buffer pool: <e>"),
            _entry("r", "<name> failed to set up: <data>"),  # (what the cut copy looked like)
            _entry("s", "Pinned buffer pool drained after <n> retries"),
        ]
    )
    lines = [
        f"[2026-02-26 05:20:19 TP{r}] Failed to set up the pinned buffer pool: out of slots"
        for r in range(7)
    ]
    text = "\n".join([*lines, "[2026-02-26 05:20:19 TP7] Failed to set up the pin"]) + "\n"
    got = list(explain_text(text, view))
    assert [x.matches[0].entry.id for x in got if x.matches] == ["q" * 16]
    assert len(got) == 1
    # a shorter record that is not the start of another stays an error of its own
    other = text.replace("TP7] Failed to set up the pin", "TP7] Pinned buffer pool drained after 3")
    assert {x.matches[0].entry.id for x in explain_text(other, view) if x.matches} == {
        "q" * 16,
        "s" * 16,
    }


CONTEXT = (
    "Requested token count exceeds the model's maximum context length of <limit> tokens. "
    "You requested a total of <n> tokens"
)
QUOTING = MemoryCatalog([_entry("c", CONTEXT)])
SAID = (
    "Requested token count exceeds the model{q}s maximum context length of 8192 tokens. "
    "You requested a total of 9000 tokens"
)


@pytest.mark.parametrize(
    "line",
    [
        # a string's repr logged: its own quotes escaped inside it
        "request failed: output.error='" + SAID.format(q="\\'") + "'",
        # a JSON value, quoted the other way
        'the reply was "' + SAID.format(q='\\"') + '" again',
    ],
)
def test_a_quote_escaped_inside_a_quoted_message_closes_nothing(line):
    (exp,) = explain_text(line, QUOTING)
    assert exp.error.message == SAID.format(q=line[line.index("model") + 6])
    assert exp.matches and exp.matches[0].entry.template == CONTEXT


def test_a_line_that_quotes_two_messages_explains_both():
    line = (
        'The log first says "Could not resolve the draft model checkpoint under /ckpt/draft" '
        'and then "Paged KV pool page sizes must agree across ranks, got 16 and 32." again.\n'
    )
    found = [e.matches[0].entry.template for e in explain_text(line, VIEW) if e.matches]
    assert sorted(found) == sorted([LOADER, POOL])


def test_a_quote_inside_the_message_read_from_a_line_is_not_read_again():
    # the line's rest after its colon is the message, quote and all: one error, not two
    line = 'it fails with: "Could not resolve the draft model checkpoint under /ckpt/draft",sadly\n'
    assert len([e for e in explain_text(line, VIEW) if e.matches]) == 1


def test_quotes_written_right_against_cjk_characters_still_quote():
    # an apostrophe between two Latin letters is inside a word; CJK prose writes its quotes
    # right against its characters, and they quote
    line = "报错'Could not resolve the draft model checkpoint under /ckpt/draft'了 don't know why\n"
    (exp,) = [e for e in explain_text(line, VIEW) if e.matches]
    assert exp.matches[0].entry.template == LOADER
    assert exp.error.message == "Could not resolve the draft model checkpoint under /ckpt/draft"


SHAPE = "Expected a packed expert tensor for <name>, got <shape>"
TRIM_VIEW = MemoryCatalog([_entry("c", SHAPE), _entry("a", POOL)])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "After the upgrade I get Expected a packed expert tensor for w13, got "
            "torch.Size([4, 128]) and the server exits right away.",
            "Expected a packed expert tensor for w13, got torch.Size([4, 128])",
        ),
        (
            "Getting Expected a packed expert tensor for w2, got torch.Size([8, 4096]), any idea "
            "why the loader sees the old layout here?",
            "Expected a packed expert tensor for w2, got torch.Size([8, 4096])",
        ),
        (
            "加载权重时出现 Expected a packed expert tensor for w13, got torch.Size([4, 128]) "
            "的错误，重启也没用，换了两个版本的镜像也一样",  # noqa: RUF001
            "Expected a packed expert tensor for w13, got torch.Size([4, 128])",
        ),
    ],
)
def test_a_message_whose_last_value_the_writers_prose_goes_on_from_is_cut_there(text, message):
    """The last placeholder takes the prose after the message to the line's end, and the whole
    is too little literal text to be known; read again up to the first clause break inside
    that value (outside its brackets: `torch.Size([4, 128])` stays whole), it is."""
    (exp,) = explain_text(text, TRIM_VIEW)
    assert exp.error.message == message
    assert exp.matches[0].entry.template == SHAPE and exp.matches[0].kind == "exact"


def test_a_value_is_not_cut_when_the_line_is_known_whole_or_the_cut_is_not_known():
    # the line read whole is known well: its value keeps its words
    whole = "Expected a packed expert tensor for w13, got (4, 128) and (8, 64)"
    (exp,) = explain_text(whole, TRIM_VIEW)
    assert exp.error.message == whole
    # a break only inside brackets or quotes: nothing to cut, and the long value leaves too
    # little literal text for the line to be known
    assert (
        explain_text(
            "so I get Expected a packed expert tensor for w, got 'a long value, and more of it "
            "that the writer typed' with no end",
            TRIM_VIEW,
        )
        == ()
    )


@pytest.mark.parametrize(
    "text",
    [
        "The prefill node died differently (`Paged KV pool page sizes must agree across ranks",
        '| 3 | decode | HTTP 500 "Paged KV pool page sizes must agree across ranks, got',
        "日志出现 `Paged KV pool page sizes must agree across ranks",
    ],
)
def test_a_quote_the_pastes_last_line_opens_and_never_closes_is_a_cut_message(text):
    """An excerpt or a title cut inside a quoted message: the text after the opening quote is
    the message, cut where the paste ends."""
    (exp,) = explain_text(text + "\n", VIEW)
    assert exp.matches[0].entry.template == POOL
    assert exp.error.message.startswith("Paged KV pool page sizes")


def test_what_an_open_quote_at_the_pastes_end_spans():
    from errexplain.explainer import _open_at_end

    assert _open_at_end("died (`Rank 0 scheduler died during init") == [
        "Rank 0 scheduler died during init"
    ]
    assert _open_at_end("报错（Insufficient multimodal embedding len") == [  # noqa: RUF001
        "Insufficient multimodal embedding len"
    ]
    # closed, opened inside a word, opened before a space, or too short: nothing
    assert _open_at_end("died with `Rank 0 scheduler died` and `more`") == []
    assert _open_at_end('the 12" screen shows Rank 0 scheduler died during init') == []
    assert _open_at_end("died with ` Rank 0 scheduler died during init") == []
    assert _open_at_end("died with `Rank 0 died") == []


WRAPPER = "Draft worker warmup failed with error: <e>"
WRAPPED_VIEW = MemoryCatalog([_entry("c", WRAPPER)])
CAUGHT = "Attempted to read a tensor that the graph capture had freed before replay"


@pytest.mark.parametrize(
    "lead",
    [
        "the error info is ",
        "I got the error ",
        "after a while it logs ",
        "\u542f\u52a8\u62a5\u9519 ",
    ],
)
def test_an_introduced_message_with_a_long_value_is_the_line_rest(lead):
    """A handler's short head with a long value (the error it caught) written into a sentence
    after words that introduce it: the line's rest is the message as printed, as a whole line
    would be, though the head's literal text covers less than half of it."""
    (exp,) = explain_text(f"{lead}Draft worker warmup failed with error: {CAUGHT}\n", WRAPPED_VIEW)
    assert exp.matches[0].entry.template == WRAPPER
    assert exp.error.message == f"Draft worker warmup failed with error: {CAUGHT}"


def test_a_head_met_mid_sentence_without_an_introducer_must_be_a_label_or_known_well():
    """The same head in the writer's own sentence, nothing introducing it as quoted: a
    failure's label (four words or more, then a colon) says the writer quotes the message, and
    the caught error after it runs to the line's end; any other head is no proof that a long
    value after it is that message (another project's look-alike reads so too)."""
    text = f"we patched it so Draft worker warmup failed with error: {CAUGHT}\n"
    (exp,) = explain_text(text, WRAPPED_VIEW)
    assert exp.error.message == f"Draft worker warmup failed with error: {CAUGHT}"
    after = MemoryCatalog([_entry("d", "Draft worker warmup failed after <e>")])
    text = f"we patched it so Draft worker warmup failed after {CAUGHT}\n"
    assert explain_text(text, after) == ()


ADAPTER = "Failed to load the adapter <name>: <e>"
SHARD = "cannot open shard <i> of <n> under <path>"
WRAPPED = MemoryCatalog(
    [_entry("f", ADAPTER), lettered_entry("g", SHARD, "OSError"), _entry("h", LOADER)]
)


@pytest.mark.parametrize(
    "lines",
    [
        ["Steps to reproduce:", "1. start the server with two adapters", "2. send one request"],
        ["What we saw after the upgrade", "* the first request hangs for a minute"],
    ],
)
@pytest.mark.parametrize("marker", ["- ", "* ", "3. ", "2) ", "\u2022 "])
def test_a_message_pasted_as_a_list_item_among_other_lines_is_found(lines, marker):
    """A post that lists what it saw puts the message after a list marker, below other lines:
    the marker is no part of the message (a lone item was read before; one under other lines
    was not)."""
    msg = "Could not resolve the draft model checkpoint under /ckpt/eagle3"
    (exp,) = explain_text("\n".join([*lines, marker + msg]), WRAPPED)
    assert exp.error.message == msg
    assert exp.matches[0].entry.template == LOADER


def test_a_list_of_plain_steps_is_no_error():
    text = "Steps:\n- start the server\n- send a request with two images\n- wait a minute"
    assert explain_text(text, WRAPPED) == ()


@pytest.mark.parametrize(("left", "right"), [("`", "`"), ('"', '"'), ("\u201c", "\u201d")])
def test_a_reading_after_a_colon_inside_a_quote_stops_at_its_close(left, right):
    """`I get `Failed to load the adapter a: cannot open shard 3 of 8 under /w` and it exits.`:
    read after the quote's inner colon, the line took in the closing quote and the poster's
    words (`... under /w` and it exits.`), a reading no one printed; it is cut where the
    paster closed the quote, as the quoted message's own reading after its colon is."""
    inner = "cannot open shard 3 of 8 under /w/alpha"
    quoted = f"Failed to load the adapter alpha: {inner}"
    text = f"When I start the server I get {left}{quoted}{right} and it exits right away."
    exps = explain_text(text, WRAPPED)
    assert exps and {x.error.message for x in exps} <= {quoted, inner}
    assert {x.matches[0].entry.template for x in exps} <= {ADAPTER, SHARD}


def test_a_wrapper_quoted_with_an_inner_colon_is_read_as_quoted(bundled_index):
    """sglang's registry logs `Ignore import error when loading <name>: <e>`; quoted whole in a
    sentence, read after its inner colon the line took in the closing backtick and the words
    after it, and that reading (python's ImportError, fuzzy) outscored the quoted record."""
    quoted = (
        "Ignore import error when loading sglang.srt.models.qwen9_moe: cannot import name "
        "'Qwen9MoeConfig' from 'transformers' (/opt/venv/lib/python3.12/site-packages/"
        "transformers/__init__.py)"
    )
    exps = explain_text(f"When I start the server I get `{quoted}` and it exits.", bundled_index)
    assert exps[0].error.message == quoted
    top = exps[0].matches[0]
    assert top.entry.project == "sglang" and top.entry.template.startswith("Ignore import error")
    assert all("exits" not in x.error.message for x in exps)


NAMED = "<worker.name> failed to start its event loop: <reason>"
OWN = "Detokenizer worker failed to start its event loop: <e>"
PHASE = "<phase> ran out of KV slots. Lower --max-running-requests."
LEADS = MemoryCatalog(
    [_entry("i", NAMED), _entry("j", OWN), _entry("k", PHASE), _entry("l", "Decode <x>")]
)


@pytest.mark.parametrize(
    ("text", "template", "message"),
    [
        (
            "The server fails with: Detokenizer worker failed to start its event loop",
            OWN,
            "Detokenizer worker failed to start its event loop",
        ),
        (
            "\u542f\u52a8\u65f6\u62a5\u9519\uff1aPrefill ran out of KV slots. Lower "
            "--max-running-requests.",
            PHASE,
            "Prefill ran out of KV slots. Lower --max-running-requests.",
        ),
    ],
)
def test_a_posters_label_is_no_value_of_an_opening_placeholder(text, template, message):
    """`The server fails with: <message>`: a template that opens with a placeholder named for
    one value (a worker's name) read the whole line by putting the poster's label into it and
    outscored the reading after the label; the message is what follows the label."""
    (exp,) = explain_text(text, LEADS)
    assert exp.error.message == message
    assert exp.matches[0].entry.template == template


def test_a_long_text_before_a_colon_is_a_messages_own_not_a_label():
    """Many words before the colon are no poster's label: the template's opening placeholder
    may hold them (a message that quotes the one it wraps)."""
    text = (
        "Rank 3 worker of the decode group in the second pool, restarted twice: Decode failed "
        "to start its event loop: socket closed"
    )
    from errexplain.explainer import _lead_holds_label

    assert not _lead_holds_label(NAMED, text)
    assert _lead_holds_label(NAMED, "It fails with: Decode failed to start its event loop: x")


CUT_DEAD = (
    "Rank <rank> scheduler died during initialization (exit code: <code>). If exit code is -9 "
    "(SIGKILL), a common cause is the OS OOM killer."
)
INTRODUCED = MemoryCatalog([_entry("m", CUT_DEAD), _entry("n", POOL), _entry("o", LOADER)])


@pytest.mark.parametrize(
    ("text", "template"),
    [
        (
            "When I send a request I get Rank 0 scheduler died during initialization "
            "(exit code: -11) and then the server dies.",
            CUT_DEAD,
        ),
        (
            "On the second node we got Paged KV pool page sizes must agree across ranks, got 16 "
            "and 32. after the restart",
            POOL,
        ),
        (
            "every launch throws Could not resolve the draft model checkpoint under /ckpt/e3 "
            "when the draft path is relative",
            LOADER,
        ),
    ],
)
def test_a_message_after_words_that_introduce_it_is_read_from_there(text, template):
    """`I get <message> and then ...`: the words that introduce a message quoted with no quotes
    or colon start a reading of the line (as a colon does), whole and up to where the writer's
    own clause goes on."""
    (exp,) = explain_text(text, INTRODUCED)
    assert exp.matches[0].entry.template == template
    assert text.find(exp.error.message) > 0 and "server dies" not in exp.error.message


@pytest.mark.parametrize(
    "text",
    [
        "When I run it again I get the same results and then it works fine.",
        "We got the scheduler running on two nodes after the restart",
        "It throws nothing at all, the request just hangs for a minute",
    ],
)
def test_prose_after_an_introducing_word_is_no_error(text):
    assert explain_text(text, INTRODUCED) == ()


HANDLER = "Error while streaming the parser increment: <e>"
INNER = "list index out of range"
# the caught error is another project's (the interpreter's): the handler explains the line
HANDLED = MemoryCatalog(
    [
        _entry("k", HANDLER),
        replace(
            lettered_entry("l", INNER, "IndexError"),
            project="python",
            source=Source("python", "3.12", "Objects/listobject.c", 1, "f", None),
        ),
    ]
)


@pytest.mark.parametrize(
    "text",
    [
        # the lead's noun opens the message (`I get Error ...` is not `I get error <message>`)
        f"When I send a request I get Error while streaming the parser increment: {INNER} and "
        "then the server dies.",
        # the handler's line, cut at the writer's clause break, wraps the caught error that the
        # reading after its colon goes on from
        f"After a few requests it throws Error while streaming the parser increment: {INNER} "
        "and the stream stops.",
    ],
)
def test_an_introduced_handler_line_wraps_the_error_it_caught(text):
    handler, *carried = explain_text(text, HANDLED)
    assert handler.matches[0].entry.template == HANDLER
    assert handler.error.message == f"Error while streaming the parser increment: {INNER}"
    # (the caught error is told too, as the value the handler's line carries)
    assert [x.error.message for x in carried] in ([], [INNER])


NO_OUTPUT = "Generation returned no output at all."
NO_OUTPUT_FROM = "Generation returned no output at all. Error from the worker: <e>"
OUTPUTS = MemoryCatalog(
    [
        lettered_entry("m", NO_OUTPUT, "RuntimeError"),
        lettered_entry("n", NO_OUTPUT_FROM, "RuntimeError"),
    ]
)


def test_a_fuller_reading_from_the_same_start_spelled_by_a_longer_template_is_the_message():
    """An introduced message read up to its first sentence end and further: when the fuller
    reading is matched exactly by a template that spells more of it, that is the message, not
    the first sentence matched loosely by a shorter template (whose score is higher only for
    holding no value)."""
    text = (
        "When I send a request I get Generation returned no output at all. Error from the "
        "worker: timeout and then the server dies."
    )
    (exp,) = explain_text(text, OUTPUTS)
    assert exp.matches[0].entry.template == NO_OUTPUT_FROM


SKIPPED = "Skipped optional plugin while loading <name>: <e>"
NO_NAME = "cannot import name <name> from <module> (<path>)"
SERVED = "Internal server error: <str(e)>"
PARSER = "Unsupported tool call parser: <name>"
WRAPS = MemoryCatalog(
    [
        lettered_entry("m", SKIPPED, "warning"),
        replace(lettered_entry("n", NO_NAME, "ImportError"), project="python"),
        lettered_entry("o", SERVED, "abort"),
        lettered_entry("p", PARSER),
    ]
)


@pytest.mark.parametrize("lead", ["When I start the server I get ", "after a while it logs "])
def test_an_introduced_wrapper_is_the_message_not_the_error_in_its_value(lead):
    """`I get <wrapper head>: <caught error> and then ...` written without quotes: read after
    its inner colon, the caught error (another project's, known well alone) outscored the
    wrapper read after the introducing words, which only the line's whole reading could
    wrap. The part after the introducer wraps it too, as the whole line would."""
    caught = "cannot import name 'Qwen9Config' from 'transformers' (/opt/venv/transformers/x.py)"
    text = f"{lead}Skipped optional plugin while loading demo.qwen9: {caught} and then it exits."
    exp, carried = explain_text(text, WRAPS)
    assert exp.matches[0].entry.template == SKIPPED
    # (the caught error follows, as the error the wrapper carries in its value)
    assert carried.matches[0].entry.template == NO_NAME
    assert carried.error.message.startswith(caught)


def test_a_passer_gives_way_to_its_own_projects_message_the_writer_goes_on_after():
    """`Internal server error: <e>` passes on a message of its own project: it gives way to
    that message, judged without the writer's words after it (`... fastbpe and then ...`)."""
    text = "When I send a request I get Internal server error: Unsupported tool call parser: "
    (exp,) = explain_text(text + "qwen9 and then the server dies.", WRAPS)
    assert exp.matches[0].entry.template == PARSER
    assert exp.error.message.startswith("Unsupported tool call parser: qwen9")


LONGER = "The prompt (<n> tokens) is longer than the window of this deployment (<w> tokens)."
SAMPLING = "Sampling went wrong!"
SAMPLING_NAN = "Sampling went wrong! NaN in the logits."
KWARG = "<function>() got an unexpected keyword argument <name>"
PARSING = "Reasoning parser failed on the output: <e>"
OPENERS = MemoryCatalog(
    [
        lettered_entry("q", LONGER, "ValueError"),
        lettered_entry("r", SAMPLING, "RuntimeError"),
        lettered_entry("s", SAMPLING_NAN, "RuntimeError"),
        replace(lettered_entry("t", KWARG, "TypeError"), project="python"),
        lettered_entry("u", PARSING, "warning"),
    ]
)


@pytest.mark.parametrize(
    "text",
    [
        "When I send a request I get The prompt (9000 tokens) is longer than the window of this "
        "deployment (8192 tokens). and then the server dies.",
        "Every long request gets This prompt (9000 tokens) is longer than the window of this "
        "deployment (8192 tokens). back",
    ],
)
def test_a_capitalised_article_after_an_introducer_may_open_the_message(text):
    """The lead's article (`I get the error ...`) is the writer's word, but a capitalised one
    may be the message's first word: both readings are tried. (The second message starts with
    another word than the template's: a near reading, read from the article too.)"""
    (exp,) = explain_text(text, OPENERS)
    assert exp.matches[0].entry.template == LONGER
    assert exp.error.message.startswith(("The prompt", "This prompt"))


def test_a_sentence_end_inside_an_introduced_message_is_part_of_it():
    """Read up to the writer's clause breaks, the message keeps its own closing marks: `X!` is
    a template's whole text, and the fuller sentence after it, spelled by a longer template,
    is the message (not the first sentence cut before its `!`)."""
    text = "When I send a request I get Sampling went wrong! NaN in the logits. and then it dies."
    (exp,) = explain_text(text, OPENERS)
    assert exp.matches[0].entry.template == SAMPLING_NAN
    assert exp.error.message == "Sampling went wrong! NaN in the logits."


def test_an_opening_placeholder_that_took_the_writers_sentence_wraps_nothing():
    """A template that opens with a placeholder for one thing (`<function>() got ...`) reads
    a whole sentence only by putting the writer's words into that value: the catalogued head
    found inside that value (after the introducer) is the line's message, with the caught
    error as its value."""
    # (the caught error's long names leave its template's text under half of it: not known
    # well alone, so the line is read again from the heads found inside it)
    text = (
        "When I send a request I get Reasoning parser failed on the output: "
        "Glm45ReasoningDetector.__init__() got an unexpected keyword argument "
        "'continue_final_message' and then the server dies."
    )
    found = explain_text(text, OPENERS)
    assert [x.matches[0].entry.template for x in found] == [PARSING]
    assert found[0].error.message.startswith("Reasoning parser failed on the output: Glm45")
