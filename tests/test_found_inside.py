"""A catalogued message written into the middle of a sentence with no quotes, colon or
introducing words (`after upgrading, <message> appears in the log`) is read from where the
template's text is found inside the line: whole, up to one of its sentence or clause ends, or
up to the few words that lead into a value; a value of one thing ends at its first space. The
writer's own words about an error, which part from the template elsewhere, are no message, and
a message inside another message's value is that value, not a message of its own."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.views import demo_entry

from errexplain._startup import replace
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.match.template import compile_template, spans_inside
from errexplain.models import Entry

POOL = demo_entry(
    "p",
    "RuntimeError",
    "raise",
    "Worker pool exhausted while scheduling batch <b>. Raise --max-slots or wait.",
    "demo/pool.py:40",
)
CAPTURE = demo_entry(
    "c", "Exception", "raise", "Graph capture failed in the decode runner: <e>", "demo/graph.py:9"
)
RENAMED = demo_entry(
    "r",
    "warning",
    "log",
    "Setting <old> is no longer read by the scheduler, please use <new>",
    "demo/env.py:12",
)
WRAPPER = demo_entry(
    "w",
    "warning",
    "log",
    "Skipped optional plugin while loading <name>. <e>",
    "demo/plugins.py:30",
)
INNER = demo_entry(
    "i",
    "AssertionError",
    "raise",
    "tensor parallel group was never initialized",
    "demo/parallel.py:5",
)
DIED = demo_entry(
    "d",
    "RuntimeError",
    "raise",
    "Rank <r> scheduler died during initialization (exit code: <code>)",
    "demo/launch.py:88",
)
EXITED = demo_entry(
    "x",
    "RuntimeError",
    "raise",
    "Worker <w> exited while loading (status: <code>). Check the worker log for the cause.",
    "demo/launch.py:120",
)
UNSUPPORTED = demo_entry(
    "u",
    "ValueError",
    "raise",
    "Model kinds <kinds> are not served by this build. Served kinds: <served>",
    "demo/registry.py:60",
)
CACHED = demo_entry(
    "k",
    "ValueError",
    "raise",
    "Cached weights leave no room on the device for the page table under --budget=<b>. Raise "
    "--budget above <s>.",
    "demo/pages.py:70",
)
SLOTS = demo_entry(
    "s",
    "AssertionError",
    "raise",
    "Ran out of page slots for the speculative tree buffer, try a larger --tree-budget.",
    "demo/tree.py:14",
)
FLAG = demo_entry(
    "f",
    "ValueError",
    "raise",
    "--enable-experimental-prefix-sharing-cache is incompatible with sliding window models",
    "demo/args.py:301",
)
PROBE = demo_entry("h", "warning", "log", "Probe check failed: <e>", "demo/health.py:8")
MERGE = demo_entry(
    "m",
    "RuntimeError",
    "raise",
    "Failed to merge adapter weight shards for adapter=<a>",
    "demo/adapters.py:51",
)
VIEW = MemoryCatalog(
    [
        *(POOL, CAPTURE, RENAMED, WRAPPER, INNER, DIED, EXITED, UNSUPPORTED, CACHED, SLOTS, FLAG),
        *(PROBE, MERGE),
    ]
)


def _answers(text: str) -> list[tuple[str, str]]:
    return [(x.error.message, x.matches[0].entry.id[0]) for x in explain_text(text, VIEW)]


@pytest.mark.parametrize(
    ("text", "message", "entry"),
    [
        # a template whose literal head is too short to look for alone (`Rank `): its later
        # text, found after a short value, places it
        (
            "After the OOM, Rank 3 scheduler died during initialization (exit code: -9) and the "
            "node rebooted.",
            "Rank 3 scheduler died during initialization (exit code: -9)",
            "d",
        ),
        # a value of one thing ends at its first space: the values are names, not prose
        (
            "After the update Setting OLD_POOL_SIZE is no longer read by the scheduler, please "
            "use NEW_POOL_SIZE shows in every start log.",
            "Setting OLD_POOL_SIZE is no longer read by the scheduler, please use NEW_POOL_SIZE",
            "r",
        ),
    ],
)
def test_a_message_inside_a_sentence_is_read_from_where_its_template_starts(text, message, entry):
    assert _answers(text) == [(message, entry)]


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        (
            "Since the upgrade Worker pool exhausted while scheduling batch 12. Raise "
            "--max-slots or wait appears in the log and the server exits.",
            "p",
        ),
        ("Since the upgrade Worker pool exhausted while scheduling batch 12 shows up daily.", "p"),
        ("On two nodes Graph capture failed in the decode runner every time we start.", "c"),
    ],
)
def test_a_message_quoted_whole_or_up_to_a_sentence_end_or_a_value_is_found(text, entry):
    ((message, found),) = _answers(text)
    assert found == entry and text.find(message) > 0


def test_the_writers_own_words_about_an_error_are_no_message():
    # the sentence shares the template's head, then says something the template does not
    text = "We think the Worker pool exhausted its memory because of the long prompts we send."
    assert _answers(text) == []


def test_a_message_inside_another_messages_value_is_that_value():
    text = (
        "Right after start Skipped optional plugin while loading demo.fast. tensor parallel "
        "group was never initialized shows up in the log."
    )
    assert [entry for _, entry in _answers(text)] != ["i"]


def test_the_next_lines_message_is_read_on_its_own_line():
    # a line too short to be read alone is joined to the next one; a message found inside the
    # join is the next line's, read there
    text = (
        "some output\nWorker pool exhausted while scheduling batch 3. Raise --max-slots or wait.\n"
    )
    ((message, entry),) = _answers(text)
    assert entry == "p" and message.startswith("Worker pool exhausted")


def test_spans_inside_finds_whole_cut_and_lead_in_readings():
    pool = compile_template(POOL.template)
    line = "so Worker pool exhausted while scheduling batch 7 and then"
    ((at, end, held, value),) = spans_inside(pool, line)
    assert line[at:end] == "Worker pool exhausted while scheduling batch 7" and value == -1
    assert held == len("Worker pool exhausted while scheduling batch")
    capture = compile_template(CAPTURE.template)
    (span,) = spans_inside(capture, "x Graph capture failed in the decode runner: boom here")
    assert span[3] == len("x Graph capture failed in the decode runner: ")  # a trailing value
    # parting inside a chunk, not at a sentence end or a value's lead-in: nothing
    assert spans_inside(pool, "so Worker pool exhausted its memory") == []
    # the head at the line's start is the line itself, read already
    assert spans_inside(pool, "Worker pool exhausted while scheduling batch 7.") == []


@given(st.text(max_size=80), st.text(max_size=80))
def test_spans_inside_never_fails_and_stays_inside_the_text(before, after):
    text = f"{before} Worker pool exhausted while scheduling batch 1 {after}"
    for template in (POOL.template, CAPTURE.template, DIED.template, INNER.template):
        for at, end, held, value in spans_inside(compile_template(template), text):
            assert 0 < at < end <= len(text) and held >= 20
            assert value == -1 or at < value <= len(text)


@pytest.mark.parametrize(
    ("text", "message", "entry"),
    [
        # the writer quoted up to the closing bracket after a value, which ends the template's
        # first sentence (`(status: <code>). Check ...`), then went on
        (
            "After a restart, Worker 2 exited while loading (status: -11) appears in the log.",
            "Worker 2 exited while loading (status: -11)",
            "x",
        ),
        # up to a sentence's stop, the space after it shared with the template's next sentence
        (
            "Since 1.2, Model kinds ['Glm4'] are not served by this build. shows up at start.",
            "Model kinds ['Glm4'] are not served by this build.",
            "u",
        ),
    ],
)
def test_a_message_quoted_up_to_its_first_sentence_end_inside_a_sentence(text, message, entry):
    assert _answers(text) == [(message, entry)]


def test_a_closing_bracket_the_text_does_not_hold_after_the_value_ends_no_reading():
    exited = compile_template(EXITED.template)
    # the value runs on with no closing bracket: the writer's words, not the message's end
    assert spans_inside(exited, "so Worker 2 exited while loading (status: -11 and more") == []
    (span,) = spans_inside(exited, "so Worker 2 exited while loading (status: -11) and more")
    assert span[:2] == (3, len("so Worker 2 exited while loading (status: -11)"))


@pytest.mark.parametrize(
    ("text", "message", "entry"),
    [
        # a long start of a message quoted up to a word, then the writer's sentence goes on
        (
            "Since the last update Cached weights leave no room on the device for the page table "
            "shows at every start.",
            "Cached weights leave no room on the device for the page table",
            "k",
        ),
        # up to a comma of the message (not a clause end the template marks)
        (
            "After upgrading, Ran out of page slots for the speculative tree buffer appears in "
            "the log and the server exits.",
            "Ran out of page slots for the speculative tree buffer",
            "s",
        ),
    ],
)
def test_a_long_start_of_a_message_cut_at_a_word_inside_a_sentence(text, message, entry):
    assert _answers(text) == [(message, entry)]


def test_a_start_up_to_the_lead_in_of_a_value_then_the_writers_words_is_the_message():
    # the template goes on past the shared word into its value's lead-in (` for adapter=`),
    # the writer's sentence into its own words: the message is read up to that word
    text = "Since v2, Failed to merge adapter weight shards appears at every start."
    assert _answers(text) == [("Failed to merge adapter weight shards", "m")]
    merge = compile_template(MERGE.template)
    ((at, end, held, value),) = spans_inside(merge, text)
    assert (
        text[at:end] == "Failed to merge adapter weight shards" and held == end - at and value == -1
    )
    # fewer words shared before the two part: the writer's words about the error
    assert spans_inside(merge, "so Failed to merge weights appears at every start") == []


def test_a_short_start_or_a_long_name_alone_is_no_cut_message():
    # fewer than CUT_INSIDE characters shared before the writer's words part from the template
    assert _answers("We found that Ran out of page slots for the cache happens twice a day.") == []
    # a long name is one word: the writer names a flag, not the message about it
    text = "It rejects --enable-experimental-prefix-sharing-cache under eagle, so we skip it."
    assert _answers(text) == []
    flag = compile_template(FLAG.template)
    assert spans_inside(flag, text) == []
    cached = compile_template(CACHED.template)
    line = "so Cached weights leave no room on the device for the page table at all"
    ((at, end, held, value),) = spans_inside(cached, line)
    assert line[at:end] == "Cached weights leave no room on the device for the page table"
    assert held == end - at and value == -1


def test_a_failure_label_and_the_error_it_carries_are_read_mid_sentence():
    # the label's colon says the writer quotes the message; the caught error's text, however
    # long, runs to the line's end (its extent is not known)
    text = (
        "On two nodes Graph capture failed in the decode runner: CUDA error: out of memory at "
        "/opt/build/cuda_graph_runner.cu:311 every time we start."
    )
    ((message, entry),) = _answers(text)
    assert entry == "c" and message == text[len("On two nodes ") :]


def test_a_short_label_mid_sentence_is_not_taken_for_the_message():
    # `Probe check failed:` (three words, 19 characters: under both bars of a label; the
    # words bar alone is tested in tests/test_bare_records.py) is said by many programs;
    # unintroduced, it is no catalogued message inside another program's log line
    text = "In the router log Probe check failed: HTTP 503 for url http://10.0.0.2/health twice."
    assert _answers(text) == []


def test_a_label_is_read_on_its_own_line_not_in_the_line_before_it():
    # a label on the record after another record is that record's message, on its line (the
    # demo catalog knows nothing near the first record, so no reading joins the two: the
    # joined case is tested with the bundled catalog in tests/test_bare_records.py)
    text = (
        "[2026-01-02 10:00:00 TP1] hint mismatch, override to --> f(a: int, b: int) -> None\n"
        "[2026-01-02 10:00:00 TP0] Graph capture failed in the decode runner: boom at step 3\n"
    )
    found = explain_text(text, VIEW)
    assert [(x.error.line_no, x.matches[0].entry.id[0]) for x in found] == [(2, "c")]


def _upstream(letter: str, template: str) -> Entry:
    """An entry of another project than `demo` (an upstream library's message)."""
    return replace(
        demo_entry(letter, "RuntimeError", "raise", template, "up/mem.py:3"), project="up"
    )


DEVICE_OOM = _upstream("o", "Device ran out of memory while allocating <size> on device <d>")


def test_a_wrapper_quoted_mid_sentence_keeps_the_upstream_error_it_carries():
    # the caught error's text after the wrapper's colon is known well on its own (another
    # project's message): the writer quotes the wrapper, whose site is where the project failed
    view = MemoryCatalog([CAPTURE, DEVICE_OOM, INNER])
    text = (
        "After upgrading, Graph capture failed in the decode runner: Device ran out of memory "
        "while allocating 448.00 MiB on device 7 appears in the log and the server exits."
    )
    found = explain_text(text, view)
    assert [x.matches[0].entry.id[0] for x in found] == ["c"]
    assert found[0].error.message.startswith("Graph capture failed in the decode runner: Device")


def test_a_wrapper_quoted_mid_sentence_gives_way_to_its_own_projects_message():
    # the text it passes on is the same project's catalogued message as a whole: that message
    # is the error (the wrapper only says which handler caught it), as on a line of its own
    view = MemoryCatalog([CAPTURE, DEVICE_OOM, INNER])
    text = (
        "After upgrading, Graph capture failed in the decode runner: tensor parallel group was "
        "never initialized appears in the log."
    )
    assert [x.matches[0].entry.id[0] for x in explain_text(text, view)] == ["i"]
    alone = "Graph capture failed in the decode runner: tensor parallel group was never initialized"
    assert [x.matches[0].entry.id[0] for x in explain_text(alone, view)] == ["i"]


SERVED = demo_entry("e", "abort", "abort", "Internal server error: <str(e)>", "demo/http.py:50")
PARSER = demo_entry(
    "t", "ValueError", "raise", "Unsupported tool call parser: <name>", "demo/parser.py:7"
)


def test_a_handler_before_its_own_projects_message_cut_short_stays_the_messenger():
    # the handler's lead before a message of its own project, cut by the paster's wrapping
    # before its value (too short a cut for the handler to give way on its own): the cut
    # message is still the error, the handler only sent it
    text = (
        "OpenAI completion error: 500 Internal server error: Unsupported tool call parser\n"
        ": None (request id: 2025122006521336)\n"
    )
    found = explain_text(text, MemoryCatalog([SERVED, PARSER, DEVICE_OOM]))
    assert [x.matches[0].entry.id[0] for x in found][:1] == ["t"]
