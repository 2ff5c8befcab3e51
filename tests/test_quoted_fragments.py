"""A part of a message quoted in prose (`causing failures with "incompatible with current LoRA
memory pool configuration" errors`): when nothing else in the paste is an error, the template
whose literal text holds the quoted words, far ahead of any other, is the answer, capped."""

from __future__ import annotations

import pytest
from tests.views import lettered_entry

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import FRAGMENT_CAP, FRAGMENT_NOTE, explain_text
from errexplain.models import Entry

POOL = (
    "Adapter <name> of rank <r> does not fit the configured adapter memory pool layout. "
    "Raise --max-adapter-rank or restart with the adapter's target modules."
)
OTHER = "The adapter registry is full: unload an adapter first"


def _entry(letter: str, template: str) -> Entry:
    return lettered_entry(letter, template, "ValueError")


VIEW = MemoryCatalog([_entry("a", POOL), _entry("b", OTHER)])


@pytest.mark.parametrize(
    "text",
    [
        # (a word the paster left out: read in order, the words would be the template's
        # middle, which the ranking's infix reading finds on its own)
        'Loading failed with "does not fit configured adapter memory pool layout" errors.',
        "Loading fails with `does not fit the adapter memory pool layout`, see #12.",
        "加载时报错“does not fit configured adapter memory pool layout”。",
    ],
)
def test_a_quoted_part_of_a_message_finds_the_template_holding_it(text):
    [exp] = explain_text(text, VIEW)
    top = exp.matches[0]
    assert top.entry.template == POOL
    assert top.score <= FRAGMENT_CAP and FRAGMENT_NOTE in exp.notes
    assert any("quotes this part of its text" in r for r in top.reasons)


@pytest.mark.parametrize(
    "text",
    [
        # too few words to pin a template down
        'It says "adapter memory pool" somewhere.',
        # words of the template, but not a part of its text
        'I get "the pool adapter layout configured wrong does not fit" here.',
        # not quoted: prose that happens to share words is not a quotation
        "It does not fit the configured adapter memory pool layout, I think.",
    ],
)
def test_other_prose_is_not_read_as_a_fragment(text):
    assert not any(m.entry.template == POOL for x in explain_text(text, VIEW) for m in x.matches)


def test_a_fragment_two_templates_hold_alike_is_no_answer():
    twin = _entry("d", "Adapter <n> does not fit the configured adapter memory pool layout today")
    view = MemoryCatalog([_entry("a", POOL), twin])
    text = 'Loading failed with "does not fit configured adapter memory pool layout".'
    assert explain_text(text, view) == ()


@pytest.mark.parametrize("quote", ["The adapter registry", "The adapter registry is"])
def test_a_short_quote_is_taken_only_as_the_head_of_a_message(quote):
    """Shorter than a cut message must be, a quoted span still pins the one template it starts,
    word for word: posters quote the start of a message (`-> "Tokens not accepted"`)."""
    [exp] = explain_text(f'This double-counts and then fails with "{quote}" later.', VIEW)
    assert exp.matches[0].entry.template == OTHER
    assert exp.matches[0].score <= FRAGMENT_CAP


@pytest.mark.parametrize(
    "quote",
    [
        "registry is full: unload",  # the template's words, but not its start
        "The adapter regis",  # a word cut in two
        "The adapter",  # too short to pin anything
    ],
)
def test_a_short_quote_that_is_not_a_head_is_no_answer(quote):
    assert explain_text(f'This double-counts and then fails with "{quote}" later.', VIEW) == ()
