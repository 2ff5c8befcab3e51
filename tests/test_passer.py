"""A raise that hands on a text made elsewhere (`raise Exception(f"{batch.error}")`, the text set
as an attribute by a worker in another file): its template is a placeholder alone, so only the
innermost frame finds it. It comes first when the message's own words match no site well, and
stays below a site whose template holds those words (where the text is made tells what it
means); it is never confident on the frame alone."""

from __future__ import annotations

import pytest

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import explain_text
from errexplain.match.sites import passes_text
from errexplain.models import Entry, Source


def _entry(letter: str, template: str, path: str, line: int, function: str, kind: str) -> Entry:
    return Entry(
        id=letter * 16,
        project="demo",
        exception="Exception",
        template=template,
        source=Source("demo", "1.0", path, line, function, None),
        kind=kind,
    )


PASSER = _entry("a", "<batch.error>", "demo/client.py", 192, "Client.run", "raise")
# the worker logs the text it sets (a log entry: not what raised the Exception)
TEXT = "Error executing request <rid>: <e>"
LOGGED = _entry("b", TEXT, "demo/worker.py", 80, "Worker.step", "log")
OWN = _entry("c", TEXT, "demo/worker.py", 90, "Worker.check", "raise")


def _paste(code: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/demo/client.py", line 192, in run\n'
        f"    {code}\n"
        "Exception: Error executing request 7f3a-11: Expected all tensors on one device\n"
    )


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ('raise Exception(f"{batch.error}")', "Exception"),
        ("raise ValueError(message) from e", "ValueError"),
        ("raise errors.Failure(str(exc), code)", "Failure"),
        ('raise ValueError(f"bad {x}")', None),  # (a literal word of its own)
        ("raise ValueError(", None),  # (the arguments on lines the frame does not show)
        ("raise", None),
        ("raise exc", None),
        ("raise make_error(msg)", None),  # (a function that builds the exception)
        ("raise A(x) or B(y)", None),
    ],
)
def test_a_raise_hands_on_a_text_only_whole_on_its_line_without_literal_words(code, name):
    assert passes_text(code) == name


def test_the_handing_raise_comes_first_over_a_logged_text():
    view = MemoryCatalog([PASSER, LOGGED])
    (exp,) = explain_text(_paste('raise Exception(f"{batch.error}")'), view)
    top = exp.matches[0]
    assert top.entry.id == "a" * 16
    assert top.score == pytest.approx(0.90)  # (at its recorded line; never more)
    assert any("a text made elsewhere" in r for r in top.reasons)
    assert [m.entry.id for m in exp.matches[1:]] == ["b" * 16]


def test_a_site_raising_the_texts_own_words_stays_first():
    view = MemoryCatalog([PASSER, OWN])
    (exp,) = explain_text(_paste('raise Exception(f"{batch.error}")'), view)
    assert exp.matches[0].entry.id == "c" * 16


def test_a_frame_that_raises_its_own_text_finds_no_handing_raise():
    view = MemoryCatalog([PASSER])
    (exp,) = explain_text(_paste('raise Exception(f"job {batch.error}")'), view)
    assert all(m.entry.id != "a" * 16 for m in exp.matches)


def test_a_traceback_cut_before_its_exception_line_gets_no_handed_text_evidence():
    # the message is lost with the exception line: nothing was handed on that the paste shows,
    # so the frame tells the function's sites apart no better than before
    view = MemoryCatalog([PASSER])
    paste = _paste('raise Exception(f"{batch.error}")').rsplit("Exception:", 1)[0]
    exps = explain_text(paste, view)
    reasons = [r for e in exps for m in (*e.matches, *e.nearest) for r in m.reasons]
    assert reasons and not any("a text made elsewhere" in r for r in reasons)
