"""A paste in which no error is found (prose describing one, a log with no failure): the
catalogued messages nearest to its lines are offered as guesses, never as an answer."""

from __future__ import annotations

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import GUESS_FLOOR, GUESS_LINES, explain_text, nearest_to_lines
from errexplain.models import Entry, Source


def _entry(letter: str, exception: str, template: str, line: int) -> Entry:
    return Entry(
        id=letter * 16,
        project="demo",
        exception=exception,
        template=template,
        source=Source("demo", "1.0", "demo/pool.py", line, "check", None),
    )


LEAK = _entry("a", "ValueError", "token pool memory leak detected! <msg>", 10)
SHORT = _entry("b", "RuntimeError", "failed: <e>", 20)
VIEW = MemoryCatalog([LEAK, SHORT])
PROSE = (
    "### Describe the bug\n"
    "When serving with these settings, the process aborts due to a token pool memory leak.\n"
)


def test_prose_naming_a_message_gets_it_as_a_guess_with_its_line():
    assert explain_text(PROSE, VIEW) == ()  # no error: an answer is never made of it
    ((no, match),) = nearest_to_lines(PROSE, VIEW)
    assert match.entry.id == "a" * 16 and no == 2
    assert GUESS_FLOOR <= match.score < 0.9


def test_a_template_that_is_mostly_placeholder_is_no_guess():
    text = "the run failed: something about the weather that nobody catalogued at all\n"
    assert all(m.entry.id != "b" * 16 for _, m in nearest_to_lines(text, VIEW))


def test_unrelated_text_gets_no_guess():
    assert nearest_to_lines("we went hiking on the weekend and it rained a lot\n", VIEW) == ()


def test_one_guess_per_wording_and_at_most_limit():
    text = PROSE + "again: the token pool memory leak happened twice today.\n"
    got = nearest_to_lines(text, VIEW, limit=3)
    assert [m.entry.id for _, m in got] == ["a" * 16]


def test_a_long_text_reads_its_first_and_last_lines_only():
    filler = "".join(f"line {i} of an ordinary log with nothing wrong\n" for i in range(500))
    early = nearest_to_lines(PROSE + filler, VIEW)
    late = nearest_to_lines(filler + PROSE, VIEW)
    middle = nearest_to_lines(filler[: len(filler) // 2] + PROSE + filler, VIEW)
    assert early and late and not middle
    assert GUESS_LINES < 250
