"""A message that is only the short start of a long template, up to a sentence end or a
placeholder (`Widget pool exhausted` of `Widget pool exhausted. Try to lower the number of
widgets per batch.`), is still found (a bare line too) but never shown as confident: other
programs (a port, a fork) say such a phrase too."""

from __future__ import annotations

from tests.views import one_entry

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import SHORT_START_CAP, explain_error, explain_text
from errexplain.models import RaisedError

CONFIDENT = 0.9  # (a score shown as confident: bench/real.py)

LONG = "Widget pool exhausted. Try to lower the number of widgets per batch or add widgets."


VIEW = MemoryCatalog([one_entry(LONG, "RuntimeError", "pkg/pool.py")])


def test_a_short_start_is_found_but_not_confident():
    for text in ("RuntimeError: Widget pool exhausted\n", "Widget pool exhausted.\n"):
        (exp,) = explain_text(text, VIEW)
        assert exp.matches, text
        top = exp.matches[0]
        assert top.score == SHORT_START_CAP < CONFIDENT
        assert any("short start" in r for r in top.reasons)
    exp = explain_error(RaisedError("RuntimeError", "Widget pool exhausted"), VIEW)
    assert exp.matches[0].score == SHORT_START_CAP


def test_a_longer_start_and_the_whole_message_keep_their_score():
    whole = "RuntimeError: " + LONG + "\n"
    (exp,) = explain_text(whole, VIEW)
    assert exp.matches[0].score >= CONFIDENT
    # 30 or more literal characters of the start: not a short phrase any more
    cut = "RuntimeError: Widget pool exhausted. Try to lower the number of widgets\n"
    (exp,) = explain_text(cut, VIEW)
    assert exp.matches and not any("short start" in r for r in exp.matches[0].reasons)


LABELLED = "Unsupported widgetry: <layout>"
THREE = "Widget spool not mounted: <path>"
LABELS = MemoryCatalog(
    [
        one_entry(LABELLED, "ValueError", "pkg/layout.py"),
        one_entry(THREE, "RuntimeError", "pkg/spool.py"),
    ]
)


def test_two_words_without_the_value_a_template_labels_are_not_confident():
    # nearly all of the template's literal text, but only two words and no value: a phrase any
    # program prints (a kernel library's own `Unsupported widgetry`)
    exp = explain_error(RaisedError("ValueError", "Unsupported widgetry"), LABELS)
    top = exp.matches[0]
    assert top.entry.template == LABELLED
    assert top.score == SHORT_START_CAP < CONFIDENT
    assert any("short start" in r for r in top.reasons)


def test_three_words_or_a_value_keep_the_score():
    exp = explain_error(RaisedError("RuntimeError", "Widget spool not mounted"), LABELS)
    assert exp.matches[0].entry.template == THREE
    assert not any("short start" in r for r in exp.matches[0].reasons)
    exp = explain_error(RaisedError("ValueError", "Unsupported widgetry: NHD"), LABELS)
    assert exp.matches[0].score >= CONFIDENT
