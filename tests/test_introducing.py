"""A traceback cut before its exception line, introduced by the sentence just above it (`...
facing <message>. The details:` and then the traceback): when nothing else in the paste is an
error, that sentence's catalogued message is the error; prose further away, a quiet warning,
or a traceback that ends in its own exception is not read this way."""

from __future__ import annotations

from tests.views import demo_entry

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text

SLOTS = demo_entry(
    "s",
    "RuntimeError",
    "raise",
    "Worker pool has no free slot for request <rid>. Raise --max-slots or retry later.",
    "demo/pool.py:77",
)
DEFAULT = demo_entry(
    "q",
    "info",
    "log",
    "Using the default pool size of <n> slots for this device.",
    "demo/pool.py:20",
)
VIEW = MemoryCatalog([SLOTS, DEFAULT])

CUT = (
    "```\n"
    "Traceback (most recent call last):\n"
    '  File "/env/site-packages/demo/server.py", line 310, in handle\n'
    "    slot = pool.acquire(req)\n"
    '  File "/env/site-packages/demo/pool.py", line 7'
)
SAID = (
    "when serving two clients I am facing Worker pool has no free slot for request 17. The details:"
)


def _answers(text: str) -> list[tuple[str, str]]:
    return [(x.error.message, x.matches[0].entry.id) for x in explain_text(text, VIEW) if x.matches]


def test_the_sentence_that_introduces_a_cut_traceback_names_its_error():
    for gap in ("\n", "\n\n"):
        ((message, entry),) = _answers(f"{SAID}{gap}{CUT}\n")
        assert entry == "s" * 16 and message.startswith("Worker pool has no free slot")


def test_not_prose_further_above_the_traceback():
    text = f"{SAID}\n\nThe server had run for an hour.\nThen requests started to fail.\n\n{CUT}\n"
    assert _answers(text) == []


def test_not_a_quiet_warning_above_the_traceback():
    text = f"I see: Using the default pool size of 8 slots for this device.\n{CUT}\n"
    assert _answers(text) == []


def test_not_when_the_traceback_ends_in_its_own_exception():
    text = f"{SAID}\n{CUT}0, in acquire\n    raise KeyError(rid)\nKeyError: 17\n```\n"
    assert [x.error.type for x in explain_text(text, VIEW)] == ["KeyError"]
