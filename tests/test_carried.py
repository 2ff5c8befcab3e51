"""An error that a catalogued message carries in its last value (`Failed to decode the image
on GPU, falling back to CPU. Error: <e>` holding a CUDA allocator's message): listed after the
message that carried it, as the error the code that logged it had caught."""

from __future__ import annotations

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import CARRIED_NOTE, explain_text
from errexplain.match.rank import rank
from errexplain.models import Entry, Source

WRAPPER = "Failed to decode the image on GPU, falling back to CPU. Error: <e>"
ALLOCATOR = (
    "Device allocator exhausted. Tried to reserve <size>. Device <n> holds <total> of which "
    "<free> is free. <process>Of the reserved memory <used> is in use by the pool."
)


def _entry(letter: str, template: str, project: str = "demo", kind: str = "log") -> Entry:
    return Entry(
        id=letter * 16,
        project=project,
        exception="warning" if kind == "log" else "RuntimeError",
        template=template,
        source=Source(project, "1.0", f"{project}/{letter}.py", 10, "f", None),
        kind=kind,
        derived=True,
    )


VIEW = MemoryCatalog(
    [_entry("a", WRAPPER), _entry("b", ALLOCATOR, project="gpulib", kind="builtin")]
)
INNER = (
    "Device allocator exhausted. Tried to reserve 2.00 GiB. Device 0 holds 80 GiB of which "
    "1 GiB is free."
)
LOGGED = "[2026-03-02 11:04:09 TP0] Failed to decode the image on GPU, falling back to CPU. Error: "


def test_the_error_a_logged_line_carries_is_explained_after_it():
    text = f"{LOGGED}{INNER}\n"
    outer, inner = explain_text(text, VIEW)
    assert outer.matches[0].entry.template == WRAPPER
    assert inner.error.message == INNER and inner.matches[0].entry.template == ALLOCATOR
    assert CARRIED_NOTE in inner.notes and inner.error.line_no == outer.error.line_no


def test_a_carried_value_printed_with_its_class_keeps_the_class():
    text = f"Failed to decode the image on GPU, falling back to CPU. Error: MemoryError: {INNER}\n"
    _, inner = explain_text(text, VIEW)
    assert inner.error.type == "MemoryError" and inner.error.message == INNER


def test_an_unknown_or_short_value_is_no_error_of_its_own():
    for value in ("[Errno 111] Connection refused by the peer at 10.0.0.2", "bad input"):
        text = f"Failed to decode the image on GPU, falling back to CPU. Error: {value}\n"
        [only] = explain_text(text, VIEW)
        assert only.matches[0].entry.template == WRAPPER


def test_a_message_cut_after_a_placeholder_that_holds_whole_sentences_is_a_boundary():
    """`... of which 1 GiB is free. Including other processes, 79 GiB is in use.` ends after the
    sentence the template's `<process>` slot holds: the start of the template, not a reworded
    message (the value shares the word `memory` with the text after it)."""
    msg = INNER + " Including memory of other processes, 79 GiB is in use."
    hit = rank(VIEW, msg, "").hits[0]
    assert hit.cand.template == ALLOCATOR and hit.score >= 0.9
    assert any("up to a placeholder or a sentence end" in r for r in hit.reasons)
