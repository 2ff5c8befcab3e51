"""install(logs=True): errors a program logs itself (logger.exception, a traceback in the
message as sglang's scheduler logs it) are explained after the record, run for real in
subprocesses; the record's own output is byte-identical; an exception both logged and uncaught
is explained once; errexplain's failure is one line."""

from __future__ import annotations

import logging
import sys
import textwrap

import pytest
from tests.integrations.sglang_stub import IMPORT, write_stub
from tests.integrations.test_excepthook import _original_then_explanation, _run

from errexplain.integrations import excepthook, logged
from errexplain.integrations.report import HEADER

pytestmark = pytest.mark.slow

HOOK = "import errexplain; errexplain.install(logs=True)\n"
SAME = "#" * (len(HOOK) - 1) + "\n"

CONFIG = (
    """
import logging
logging.basicConfig(level=logging.INFO, format="[%(name)s] %(levelname)s %(message)s", force=True)
log = logging.getLogger("sglang.srt.managers.scheduler")
"""
    + IMPORT
)

EXCEPTION = """
try:
    divide(16, 6)
except ValueError:
    log.exception("Scheduler hit an exception")
log.error("an error record without a traceback")
log.warning("a warning with one", exc_info=True)
print("carries on")
"""

TEXT = """
import traceback
try:
    divide(16, 6)
except ValueError:
    log.error(f"Scheduler hit an exception: {traceback.format_exc()}")
"""

THREAD = """
import threading


def work():
    try:
        divide(16, 6)
    except ValueError:
        log.exception("worker failed")


t = threading.Thread(target=work)
t.start()
t.join()
"""

RERAISED = """
try:
    divide(16, 6)
except ValueError:
    log.exception("Scheduler hit an exception")
    raise
"""


def _pair(tmp_path, body: str, env=None):
    write_stub(tmp_path)
    script = tmp_path / "script.py"
    code = textwrap.dedent(CONFIG) + textwrap.dedent(body)
    script.write_text(SAME + code)
    plain = _run(script, env)
    script.write_text(HOOK + code)
    return plain, _run(script, env)


def test_logger_exception_is_explained_after_the_record(tmp_path):
    plain, hooked = _pair(tmp_path, EXCEPTION)
    assert plain.returncode == 0 and b"carries on" in hooked.stdout
    assert hooked.stderr.count(HEADER.encode()) == 1
    record_end = plain.stderr.index(b"ValueError: 16 is not divisible by 6\n") + 37
    assert hooked.stderr[:record_end] == plain.stderr[:record_end]
    rest = hooked.stderr[record_end:].decode()
    assert rest.startswith(HEADER + "ValueError: 16 is not divisible by 6\n")
    tail = plain.stderr[record_end:].decode()  # the later records come out unchanged
    assert rest.endswith(tail) and "Match 1" in rest


def test_a_traceback_in_the_message_text_is_explained(tmp_path):
    plain, hooked = _pair(tmp_path, TEXT)
    assert b"Scheduler hit an exception: Traceback (most recent call last)" in plain.stderr
    rest = _original_then_explanation(plain, hooked)
    assert rest.startswith(HEADER + "ValueError: 16 is not divisible by 6\n")
    assert rest.count(HEADER) == 1


def test_a_record_logged_in_a_thread(tmp_path):
    plain, hooked = _pair(tmp_path, THREAD)
    rest = _original_then_explanation(plain, hooked)
    assert "16 is not divisible by 6" in rest and rest.count(HEADER) == 1


def test_logged_then_uncaught_is_explained_once(tmp_path):
    plain, hooked = _pair(tmp_path, RERAISED)
    assert plain.returncode == hooked.returncode == 1
    assert plain.stderr.count(b"Traceback (most recent call last)") == 2
    assert hooked.stderr.count(HEADER.encode()) == 1
    header = b"Traceback (most recent call last)"
    uncaught = plain.stderr.index(header, plain.stderr.index(header) + 1)
    first = hooked.stderr.index(HEADER.encode())
    assert hooked.stderr[:first] == plain.stderr[:uncaught]  # the record, then the explanation
    assert hooked.stderr.endswith(plain.stderr[uncaught:])  # then Python's own, not explained


def test_errexplain_failure_is_one_line(tmp_path):
    plain, hooked = _pair(tmp_path, TEXT, {"ERREXPLAIN_CATALOG": str(tmp_path / "missing")})
    assert hooked.stderr.startswith(plain.stderr)
    extra = hooked.stderr[len(plain.stderr) :].decode()
    assert extra.startswith("errexplain: could not explain this error (") and extra.count("\n") == 1


def test_off_unless_asked(tmp_path):
    write_stub(tmp_path)
    script = tmp_path / "script.py"
    script.write_text("import errexplain; errexplain.install()\n" + textwrap.dedent(CONFIG) + TEXT)
    assert HEADER.encode() not in _run(script).stderr


def test_install_uninstall_and_the_env_switch(monkeypatch):
    before = logging.Logger.callHandlers
    saved = (sys.excepthook, excepthook._state.copy())
    try:
        monkeypatch.setenv("ERREXPLAIN_HOOK", "1")
        excepthook.install_from_env()
        assert not logged.installed()
        monkeypatch.setenv("ERREXPLAIN_HOOK", "logs")
        excepthook.install_from_env()
        excepthook.install_from_env()
        assert logged.installed()
        assert logging.Logger.callHandlers.__wrapped__ is before  # wrapped once
        excepthook.uninstall()
        assert logging.Logger.callHandlers is before and not logged.installed()
    finally:
        logging.Logger.callHandlers = before  # type: ignore[method-assign]
        sys.excepthook = saved[0]
        excepthook._state.clear()
        excepthook._state.update(saved[1])


def test_a_log_call_made_while_explaining_is_not_explained(monkeypatch, capsys):
    calls = []

    def explain(record):
        calls.append(record)
        logging.getLogger("inner").error("x", exc_info=(ValueError, ValueError("v"), None))

    monkeypatch.setattr(logged, "_explain_record", explain)
    logged.install()
    try:
        logging.getLogger("outer").error("y", exc_info=(KeyError, KeyError("k"), None))
    finally:
        logged.uninstall()
    assert len(calls) == 1
    capsys.readouterr()
