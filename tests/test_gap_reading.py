"""A message quoted with a few words left out of its middle (from memory, or abridged in a
sentence): its start and a later part of the template, in order, with one short gap."""

from __future__ import annotations

import pytest
from tests.views import lettered_entry

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.match.rank import FUZZY_CUTOFF, GAP_CAP, gap_reading, rank

WORKER = (
    "Draft worker <rank> exited while loading the draft checkpoint (exit status: <code>). "
    "A status of -9 usually means the host ran out of memory."
)
POOL = "Paged KV pool page sizes must agree across ranks, got <a> and <b>."


VIEW = MemoryCatalog(
    [lettered_entry("a", WORKER, "RuntimeError"), lettered_entry("b", POOL, "RuntimeError")]
)


def test_words_left_out_between_the_start_and_a_later_part_are_read():
    reading = gap_reading(WORKER, "Draft worker 3 exited (exit status: -9)")
    assert reading is not None
    matched, left_out, boundary = reading
    assert left_out == "while loading the draft checkpoint"
    assert boundary  # the later part ends where the template's sentence does
    assert matched >= 20


def test_the_reading_is_a_probable_answer_never_a_confident_one():
    hit = rank(VIEW, "Draft worker 3 exited (exit status: -9)").hits[0]
    assert hit.cand.template == WORKER
    assert FUZZY_CUTOFF <= hit.score <= GAP_CAP < 0.9
    assert any("leaves out 'while loading the draft checkpoint'" in r for r in hit.reasons)


@pytest.mark.parametrize(
    "msg",
    [
        # the template's start alone: a cut, not a gap
        "Draft worker 3 exited while loading the draft",
        # too short a start before the gap
        "Draft worker (exit status: -9)",
        # a later part of one word only
        "Draft worker 3 exited while loading memory",
        # words the template does not have, however many of its words the message keeps
        "Draft worker 3 exited because the driver crashed (exit status: -9)",
        # two gaps
        "Draft worker 3 exited while loading (exit status: -9). A status usually means",
    ],
)
def test_no_gap_reading_without_a_long_start_one_gap_and_a_real_later_part(msg):
    assert gap_reading(WORKER, msg) is None


def test_a_long_gap_is_no_abridgement():
    template = (
        "Draft worker <rank> exited " + "while doing many other things first " * 3 + "at last"
    )
    assert gap_reading(template, "Draft worker 3 exited and then at last") is None
    assert (
        gap_reading(template, "Draft worker 3 exited while doing many other things at last") is None
    )


def test_an_abridged_quote_in_prose_is_explained_and_shown_as_probable():
    text = (
        'The launch fails with "Draft worker 3 exited (exit status: -9)" after about five minutes.'
    )
    (exp,) = explain_text(text, VIEW)
    top = exp.matches[0]
    assert top.entry.template == WORKER
    assert top.score < 0.9


def test_an_abridged_quote_too_short_on_either_side_is_not_an_error():
    # `got <a> and <b>.`: a later part of generic words only (none of four letters)
    assert gap_reading(POOL, "Paged KV pool page sizes got 16 and 32.") is None
    assert explain_text('it says "Paged KV pool page sizes got 16 and 32." on start', VIEW) == ()
