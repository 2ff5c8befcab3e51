"""`errexplain hook install|uninstall|status` on a directory standing in for site-packages
(tests/integrations/test_excepthook.py runs the real thing in a fresh environment)."""

from __future__ import annotations

import io

import pytest

from errexplain.app import hook
from errexplain.app.context import Context, Options
from errexplain.errors import ErrexplainError, ExitCode


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.setattr(hook, "site_dir", lambda: str(tmp_path))
    monkeypatch.delenv(hook.ENV, raising=False)
    return tmp_path


def _run(command):
    ctx = Context(Options(), io.BytesIO(), io.StringIO(), io.StringIO(), False)
    assert command(ctx) == ExitCode.EXPLAINED
    return ctx.stdout.getvalue()


def test_install_status_uninstall(site, monkeypatch):
    pth = site / hook.PTH_NAME
    assert "not installed" in _run(hook.status)
    assert _run(hook.install) == (
        f"wrote {pth}\nset ERREXPLAIN_HOOK=1 to explain uncaught exceptions in this environment "
        "(ERREXPLAIN_HOOK=logs: logged errors too)\n"
    )
    assert pth.read_text() == hook.PTH_LINE
    assert _run(hook.status) == f"{pth}: installed\nERREXPLAIN_HOOK is not set: off in this shell\n"
    monkeypatch.setenv(hook.ENV, "1")
    assert "ERREXPLAIN_HOOK=1: on in this shell" in _run(hook.status)
    monkeypatch.setenv(hook.ENV, "0")
    assert "ERREXPLAIN_HOOK=0: off in this shell" in _run(hook.status)
    pth.write_text("import os\n")
    assert "an older line" in _run(hook.status)
    assert _run(hook.uninstall) == f"removed {pth}\n"
    assert not pth.exists()
    assert "not installed" in _run(hook.uninstall)


def test_install_where_one_cannot_write(site):
    (site / hook.PTH_NAME).mkdir()  # writing a file there fails
    with pytest.raises(ErrexplainError) as info:
        _run(hook.install)
    assert "cannot write" in info.value.message and info.value.hint


def test_pth_line_is_one_import_line_and_cheap():
    line = hook.PTH_LINE
    assert line.count("\n") == 1 and line.startswith("import os;")
    compile(line, "errexplain-hook.pth", "exec")  # site executes it as is


def test_site_dir_is_this_interpreters_purelib():
    import sysconfig

    assert hook.site_dir() == sysconfig.get_paths()["purelib"]
