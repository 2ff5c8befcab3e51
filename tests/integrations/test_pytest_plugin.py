"""The pytest plugin, run for real with pytester in a subprocess: off (and nothing heavy
imported) unless --explain; with it, each failing test's report has an "errexplain" section."""

from __future__ import annotations

import json

import pytest
from tests.integrations.sglang_stub import IMPORT, write_stub

pytestmark = pytest.mark.slow

TESTS = (
    IMPORT
    + """

def test_fails():
    divide(16, 6)


def test_fails_too():
    assert 1 + 1 == 3


def test_passes():
    divide(12, 6)
"""
)

CONFTEST = """
import json, sys


def pytest_sessionfinish(session):
    loaded = sorted(m for m in sys.modules if m.startswith(("errexplain", "rich", "typer", "yaml")))
    with open("loaded.json", "w") as f:
        json.dump(loaded, f)
"""


@pytest.fixture
def suite(pytester):
    write_stub(pytester.path)
    pytester.makepyfile(test_suite=TESTS)
    pytester.makeconftest(CONFTEST)
    return pytester


def test_explain_adds_a_section_to_each_failing_test(suite):
    # in-process: pytest loads the plugin from its pytest11 entry point as in any project
    result = suite.runpytest_inprocess("--explain", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=2, passed=1)
    out = result.stdout.str()
    assert out.count(" errexplain ") == 2  # the section separators: -------- errexplain ----
    result.stdout.fnmatch_lines(
        [
            "*_ test_fails _*",
            "*ValueError: 16 is not divisible by 6",
            "*- errexplain -*",
            "ValueError: 16 is not divisible by 6",
            "*Values:   numerator = 16; denominator = 6",
            "*_ test_fails_too _*",
            "*- errexplain -*",
            "AssertionError: assert (1 + 1) == 3",
        ]
    )


def test_off_without_explain_and_imports_nothing_heavy(suite):
    result = suite.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=2, passed=1)
    assert " errexplain " not in result.stdout.str()
    loaded = json.loads((suite.path / "loaded.json").read_text())
    assert "errexplain.integrations.pytest_plugin" in loaded  # autoloaded, as pytest11 does
    heavy = [m for m in loaded if m.startswith(("rich", "typer", "yaml", "errexplain.explainer"))]
    assert heavy == []
    assert not any(m.startswith(("errexplain.catalog", "errexplain.match")) for m in loaded)


def test_errexplain_failure_becomes_the_section(suite, monkeypatch):
    def boom(*args, **kw):
        raise OSError("disk on fire")

    monkeypatch.setattr("errexplain.integrations.report.explain_exception", boom)
    result = suite.runpytest_inprocess("--explain", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=2, passed=1)
    result.stdout.fnmatch_lines(
        ["*- errexplain -*", "errexplain: could not explain this error (OSError: disk on fire)"]
    )


def test_help_lists_the_options(suite):
    result = suite.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines(["*--explain*", "*--explain-redact*"])


def test_explain_redact(suite):
    suite.makepyfile(
        test_secret="def test_secret():\n    raise ConnectionError('refused by 10.1.2.3')\n"
    )
    result = suite.runpytest_subprocess(
        "--explain", "--explain-redact", "-p", "no:cacheprovider", "test_secret.py"
    )
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    section = out[out.index(" errexplain ") : out.index("short test summary")]
    assert "<ip-1>" in section and "10.1.2.3" not in section
