"""An error written into a paster's sentence whose words run on after the message, on the same
line: `RuntimeError: <message>. when we send ...`. Read whole, the message matches a wording
that ends where the paster's words begin (a log line of an older release) over the one that
goes on otherwise; read up to its sentence end, it is the start of the longer one."""

from __future__ import annotations

from tests.views import lettered_entry

from errexplain._startup import replace
from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text

SHORT = "Slot pool exhausted while admitting the batch. Try a smaller batch."
LONG = SHORT + " Asked for {wanted} slots, {free} free in the pool."
ENTRIES = [
    replace(lettered_entry("a", SHORT, "error"), kind="log"),
    lettered_entry("b", LONG, "RuntimeError"),
]
VIEW = MemoryCatalog(ENTRIES)
SENTENCE_NOTE = "the message was matched up to the end of a sentence"


def _top(text: str):
    (exp,) = explain_text(text, VIEW)
    return exp


def test_the_pasters_words_after_a_sentence_end_are_not_the_message():
    exp = _top(f"After the upgrade:\nRuntimeError: {SHORT} when many requests arrive at once.")
    assert exp.matches and exp.matches[0].entry.id == "b" * 16
    assert any(n.startswith(SENTENCE_NOTE) for n in exp.notes)
    assert exp.error.message == SHORT


def test_the_messages_own_words_after_a_sentence_end_keep_it_whole():
    """The text after the sentence end is mostly the words of the wording the whole message
    matched (one that left a sentence out, its values kept): the message is read whole."""
    gist = "Slot pool exhausted while admitting the batch. Retry."
    view = MemoryCatalog(
        [*ENTRIES, lettered_entry("c", gist + " wanted_slots={n}, free_slots={f}", "RuntimeError")]
    )
    text = (
        "RuntimeError: Slot pool exhausted while admitting the batch. wanted_slots=9, free_slots=2"
    )
    (exp,) = explain_text(text, view)
    assert not any(n.startswith(SENTENCE_NOTE) for n in exp.notes)
    assert exp.matches and exp.matches[0].entry.id == "c" * 16
    assert exp.error.message.endswith("wanted_slots=9, free_slots=2")


def test_a_pasters_ellipsis_is_no_sentence_end():
    exp = _top("RuntimeError: Slot pool exhausted while admitting the batch... any idea why?")
    assert not any(n.startswith(SENTENCE_NOTE) for n in exp.notes)
