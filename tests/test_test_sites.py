"""Sites raised inside the project's own tests (`raise OutOfMemoryError("CUDA out of memory")`
in a test that fakes the error to test its handler) are seldom where a user's error comes from:
they are never confident and come after other sites unless the paste shows that test's file (a
test run's output); a script named like a test still answers, below confident."""

from __future__ import annotations

from errexplain.catalog.memory import MemoryCatalog
from errexplain.explainer import TESTS_CAP, explain_text, in_test
from errexplain.models import Entry, Source, make_id

FAKED = "The widget pool ran out of widgets on device <n>"


def _entry(path: str, function: str, template: str = FAKED) -> Entry:
    return Entry(
        id=make_id("pkg", path, function, template),
        project="pkg",
        exception="RuntimeError",
        template=template,
        source=Source("pkg", "1.0", path, 40, function, None),
        derived=True,
    )


IN_TEST = _entry("pkg/test/unit/test_pool.py", "test_pool_falls_back.fake_alloc")
IN_CLASS = _entry("pkg/tests/test_more.py", "TestPool.test_fallback")
REAL = _entry("pkg/pool.py", "WidgetPool.alloc")
HELPER = _entry("pkg/test/test_utils.py", "popen_launch_server", "Server failed to start: <e>")
LINE = "RuntimeError: The widget pool ran out of widgets on device 3\n"


def test_in_test_reads_the_function_not_the_path():
    assert in_test(IN_TEST) and in_test(IN_CLASS)
    # a helper of the test package that programs call is no test
    assert not in_test(REAL) and not in_test(HELPER)
    assert not in_test(_entry("pkg/testing.py", "Tester.run"))


def test_a_text_raised_only_in_tests_is_not_confident():
    (exp,) = explain_text(LINE, MemoryCatalog([IN_TEST, IN_CLASS]))
    assert {m.entry.id for m in exp.matches} == {IN_TEST.id, IN_CLASS.id}
    assert all(m.score == TESTS_CAP for m in exp.matches)
    assert any("only inside pkg's own tests" in n for n in exp.notes)


def test_a_test_site_comes_after_the_real_site_with_the_same_text():
    (exp,) = explain_text(LINE, MemoryCatalog([IN_TEST, REAL]))
    assert [m.entry.id for m in exp.matches] == [REAL.id, IN_TEST.id]
    assert exp.matches[0].score > TESTS_CAP >= exp.matches[1].score
    assert not any("own tests" in n for n in exp.notes)


def test_a_test_run_that_shows_the_test_file_keeps_its_site():
    run = (
        "Traceback (most recent call last):\n"
        '  File "/src/pkg/test/unit/test_pool.py", line 40, in fake_alloc\n'
        '    raise RuntimeError(f"The widget pool ran out of widgets on device {n}")\n' + LINE
    )
    (exp,) = explain_text(run, MemoryCatalog([IN_TEST, IN_CLASS]))
    assert exp.matches[0].entry.id == IN_TEST.id and exp.matches[0].score > TESTS_CAP
    # a pytest summary line that names the file
    summary = "FAILED pkg/test/unit/test_pool.py::test_pool_falls_back - " + LINE
    (exp,) = explain_text(summary, MemoryCatalog([IN_TEST]))
    assert exp.matches and exp.matches[0].entry.id == IN_TEST.id
    assert exp.matches[0].score > TESTS_CAP


ALLOCATOR = _entry(
    "pkg/alloc.py", "Allocator.grow", "Widget pool exhausted. Tried to take <n> widgets on <dev>"
)
FAKE_HEAD = _entry("pkg/test/unit/test_alloc.py", "test_grow.fake", "Widget pool exhausted")


def test_a_test_that_fakes_a_messages_first_words_ends_no_search():
    # the test's exact text is the first sentence of the library's message: the library's
    # site, read as that message cut at its sentence end, answers first
    (exp,) = explain_text(
        "RuntimeError: Widget pool exhausted\n", MemoryCatalog([FAKE_HEAD, ALLOCATOR])
    )
    assert exp.matches[0].entry.id == ALLOCATOR.id
    assert exp.matches[0].score > TESTS_CAP
