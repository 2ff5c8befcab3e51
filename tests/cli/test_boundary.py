"""errexplain.cli.guarded: the one error boundary. Domain errors print one line and a hint and
exit with their code; Ctrl-C exits 130; a closed pipe exits 0 quietly; anything else is a bug
(one line, a report hint, exit 3) unless --debug asks for the traceback."""

from __future__ import annotations

import io
import sys

import pytest

from errexplain.cli import BUG_HINT, guarded, run_argv
from errexplain.errors import CatalogError, ExitCode, InputError


def _raise(exc: BaseException):
    def call() -> int:
        raise exc

    return call


def test_returns_the_command_exit_code():
    err = io.StringIO()
    assert guarded(lambda: ExitCode.NO_MATCH, err) == 1
    assert guarded(lambda: 0, err) == 0
    assert err.getvalue() == ""


@pytest.mark.parametrize("cls", [InputError, CatalogError])
def test_domain_error_prints_message_and_hint(cls):
    err = io.StringIO()
    code = guarded(_raise(cls("stdin is empty", hint="pipe something")), err)
    assert code == ExitCode.BAD_INPUT == 2
    assert err.getvalue() == "errexplain: stdin is empty\nhint: pipe something\n"


def test_domain_error_without_hint_is_one_line():
    err = io.StringIO()
    assert guarded(_raise(InputError("bad")), err) == 2
    assert err.getvalue() == "errexplain: bad\n"


def test_domain_error_uses_its_own_exit_code():
    class Odd(InputError):
        exit_code = ExitCode.NO_MATCH

    err = io.StringIO()
    assert guarded(_raise(Odd("odd")), err) == ExitCode.NO_MATCH


def test_keyboard_interrupt_exits_130_quietly():
    err = io.StringIO()
    assert guarded(_raise(KeyboardInterrupt()), err) == ExitCode.INTERRUPTED == 130
    assert err.getvalue() == ""


def test_keyboard_interrupt_exits_130_with_debug_too():
    assert guarded(_raise(KeyboardInterrupt()), io.StringIO(), debug=True) == 130


def test_unexpected_exception_is_an_internal_error():
    err = io.StringIO()
    code = guarded(_raise(ZeroDivisionError("division by zero")), err)
    assert code == ExitCode.INTERNAL == 3
    assert err.getvalue() == (
        f"errexplain: internal error: ZeroDivisionError: division by zero\nhint: {BUG_HINT}\n"
    )
    assert "--debug" in BUG_HINT


def test_os_error_other_than_a_closed_pipe_is_internal():
    err = io.StringIO()
    assert guarded(_raise(PermissionError("nope")), err) == 3
    assert err.getvalue().startswith("errexplain: internal error: PermissionError: nope\n")


@pytest.mark.parametrize("exc", [InputError("bad", hint="h"), RuntimeError("boom")])
def test_debug_reraises(exc):
    err = io.StringIO()
    with pytest.raises(type(exc)) as info:
        guarded(_raise(exc), err, debug=True)
    assert info.value is exc
    assert err.getvalue() == ""


def test_broken_pipe_exits_0_and_silences_stdout(monkeypatch, tmp_path):
    target = tmp_path / "stdout.txt"
    with open(target, "w") as fake_stdout:
        monkeypatch.setattr(sys, "stdout", fake_stdout)
        err = io.StringIO()
        assert guarded(_raise(BrokenPipeError()), err) == ExitCode.EXPLAINED == 0
        assert err.getvalue() == ""
        # stdout now points at the null device: a final flush writes nowhere
        fake_stdout.write("lost")
        fake_stdout.flush()
    assert target.read_text() == ""


def test_broken_pipe_with_a_stdout_without_a_file_descriptor(monkeypatch):
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert guarded(_raise(BrokenPipeError()), io.StringIO()) == 0


# ----------------------------------------------------------------------- through run_argv


def test_run_argv_domain_error(capsys):
    code = run_argv(["errexplain", "show", "0000000000000000"])
    assert code == ExitCode.BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("errexplain: no catalog entry has the id 0000000000000000\n")
    assert "hint: " in captured.err


def test_run_argv_debug_reraises():
    with pytest.raises(InputError, match="no catalog entry has the id"):
        run_argv(["errexplain", "show", "0000000000000000", "--debug"])
