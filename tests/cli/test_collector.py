"""The garbage collector while a command starts (errexplain.cli: off from main(), frozen before
exit, back on for the Typer path's commands)."""

from __future__ import annotations

import gc
import io
import sys

import pytest

from errexplain import cli
from errexplain.cli import typer_app


@pytest.fixture
def collector():
    """Restore the collector whatever a test leaves behind."""
    yield
    gc.unfreeze()
    gc.enable()


def test_main_runs_with_the_collector_off_and_freezes_before_exit(monkeypatch, collector):
    seen = []
    monkeypatch.setattr(cli, "run_argv", lambda argv: seen.append(gc.isenabled()) or 0)
    monkeypatch.setattr(sys, "argv", ["errexplain"])
    with pytest.raises(SystemExit) as exc:
        cli.main()
    assert exc.value.code == 0
    assert seen == [False]
    assert gc.get_freeze_count() > 0  # the final collection has nothing to walk


def test_the_piped_path_keeps_it_off(monkeypatch, collector):
    seen = []
    monkeypatch.setattr(cli, "_fast", lambda got: seen.append(gc.isenabled()) or 0)
    monkeypatch.setattr(sys, "stdin", io.StringIO("ValueError: x\n"))
    gc.disable()
    assert cli.run_argv(["errexplain", "--json"]) == 0
    assert seen == [False]


def test_the_typer_path_turns_it_back_on_without_walking_its_imports(monkeypatch, collector):
    seen = []

    def run(argv):
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        return 0

    monkeypatch.setattr(typer_app, "run", run)
    gc.disable()
    assert cli.run_argv(["errexplain", "list"]) == 0
    [(enabled, frozen)] = seen
    assert enabled
    assert frozen > 0


def test_an_enabled_collector_is_left_alone(monkeypatch, collector):
    """In-process callers (tests, embedding code) keep their collector as it is."""
    monkeypatch.setattr(typer_app, "run", lambda argv: 0)
    assert gc.isenabled()
    assert cli.run_argv(["errexplain", "list"]) == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_only_the_commands_piped_explain_ends_without_finalization(monkeypatch, collector):
    """The script's `main(quick_exit=True)` ends a piped explain with os._exit once its output
    is flushed (the interpreter's teardown was a tenth of the run); any other path, and any
    in-process caller of main(), exits as usual."""
    import os

    ended = []
    monkeypatch.setattr(os, "_exit", lambda code: ended.append(code))
    monkeypatch.setattr(sys, "argv", ["errexplain"])
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)

    def piped(argv):
        cli._RUN["piped"] = True
        print("explained")
        return 1

    monkeypatch.setattr(cli, "run_argv", piped)
    monkeypatch.setattr(cli, "_RUN", {})
    with pytest.raises(SystemExit):  # (os._exit stubbed: it returns, and sys.exit follows)
        cli.main(quick_exit=True)
    assert ended == [1] and out.getvalue() == "explained\n"
    ended.clear()
    monkeypatch.setattr(cli, "_RUN", {})
    with pytest.raises(SystemExit):
        cli.main()  # an in-process caller
    assert ended == []
    monkeypatch.setattr(cli, "_RUN", {})
    monkeypatch.setattr(cli, "run_argv", lambda argv: 0)  # another path (Typer, scan)
    with pytest.raises(SystemExit):
        cli.main(quick_exit=True)
    assert ended == []
