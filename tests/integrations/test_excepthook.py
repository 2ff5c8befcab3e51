"""errexplain.install() and the ERREXPLAIN_HOOK .pth switch, run for real in subprocesses: the
original traceback comes out byte for byte as Python prints it, then the explanation; threads
and asyncio loops too; a failure of errexplain is one line; the .pth costs no import."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from tests.integrations.sglang_stub import write_stub

from errexplain.integrations.report import HEADER

REPO = Path(__file__).parent.parent.parent
HOOK_LINE = "import errexplain; errexplain.install()\n"
SAME_LENGTH = "#" * (len(HOOK_LINE) - 1) + "\n"  # a script of the same lines, without the hook

pytestmark = pytest.mark.slow

MAIN = """
def divide(heads, tp):
    if heads % tp:
        raise ValueError(f"{heads} is not divisible by {tp}")


def load():
    try:
        divide(16, 6)
    except ValueError as exc:
        raise RuntimeError("model construction failed") from exc


load()
"""

THREAD = """
import threading
from sglang.srt.layers.utils import divide


def work():
    divide(16, 6)


t = threading.Thread(target=work, name="worker")
t.start()
t.join()
print("main thread carries on")
"""

ASYNCIO = """
import asyncio

loop = asyncio.new_event_loop()
if HOOKED:
    import errexplain
    errexplain.install(loop=loop)


def callback():
    raise ValueError("16 is not divisible by 6")


loop.call_soon(callback)
loop.call_soon(loop.stop)
loop.run_forever()
loop.close()
"""


def _run(script: Path, env: dict[str, str] | None = None, python: str = sys.executable):
    return subprocess.run(
        [python, str(script)],
        capture_output=True,
        env={**os.environ, **(env or {})},
        check=False,
        timeout=300,
    )


def _pair(tmp_path: Path, body: str):
    """Run the script without the hook, then with it (same path, same line numbers)."""
    write_stub(tmp_path)
    script = tmp_path / "script.py"
    script.write_text(SAME_LENGTH + textwrap.dedent(body))
    plain = _run(script)
    script.write_text(HOOK_LINE + textwrap.dedent(body))
    hooked = _run(script)
    return plain, hooked


def _original_then_explanation(plain, hooked) -> str:
    assert hooked.returncode == plain.returncode
    assert hooked.stdout == plain.stdout
    assert plain.stderr, "the script must fail"
    assert hooked.stderr.startswith(plain.stderr), "the original traceback changed"
    rest = hooked.stderr[len(plain.stderr) :].decode()
    assert rest.startswith(HEADER), rest[:300]
    return rest


def test_original_traceback_is_byte_identical_then_explained(tmp_path):
    plain, hooked = _pair(tmp_path, MAIN)
    assert plain.returncode == 1
    assert b"The above exception was the direct cause" in plain.stderr
    rest = _original_then_explanation(plain, hooked)
    # the chain's cause first, as the traceback printed it, then the error it caused
    assert rest.startswith(HEADER + "ValueError: 16 is not divisible by 6\n")
    assert "it caused the RuntimeError below" in rest
    assert "\nRuntimeError: model construction failed\n" in rest
    assert "root cause: ValueError: 16 is not divisible by 6" in rest
    assert "Traceback" not in rest


def test_thread_exception(tmp_path):
    plain, hooked = _pair(tmp_path, THREAD)
    assert plain.returncode == 0 and b"Exception in thread worker" in plain.stderr
    assert b"main thread carries on" in hooked.stdout
    rest = _original_then_explanation(plain, hooked)
    assert "16 is not divisible by 6" in rest and "Match 1" in rest


def test_asyncio_loop_handler(tmp_path):
    script = tmp_path / "loop.py"
    script.write_text("HOOKED = False\n" + textwrap.dedent(ASYNCIO))
    plain = _run(script)
    script.write_text("HOOKED = True\n" + textwrap.dedent(ASYNCIO))
    hooked = _run(script)
    assert b"Exception in callback" in plain.stderr
    rest = _original_then_explanation(plain, hooked)
    assert "16 is not divisible by 6" in rest


def test_errexplain_failure_is_one_line_and_hides_nothing(tmp_path):
    script = tmp_path / "script.py"
    body = "raise ValueError('16 is not divisible by 6')\n"
    script.write_text(SAME_LENGTH + body)
    plain = _run(script)
    script.write_text(HOOK_LINE + body)
    broken = _run(script, {"ERREXPLAIN_CATALOG": str(tmp_path / "no-such-catalog")})
    assert broken.returncode == plain.returncode == 1
    assert broken.stderr.startswith(plain.stderr)
    rest = broken.stderr[len(plain.stderr) :].decode()
    assert rest.startswith("errexplain: could not explain this error (")
    assert rest.count("\n") == 1


def test_keyboard_interrupt_is_not_explained(tmp_path):
    plain, hooked = _pair(tmp_path, "raise KeyboardInterrupt\n")
    assert hooked.stderr == plain.stderr and hooked.returncode == plain.returncode


def test_install_is_idempotent_and_uninstall_restores():
    import threading

    import errexplain
    from errexplain.integrations import excepthook

    before = (sys.excepthook, threading.excepthook)
    try:
        errexplain.install()
        errexplain.install(redact=True)
        assert sys.excepthook is excepthook.excepthook
        assert threading.excepthook is excepthook.threading_excepthook
        errexplain.uninstall()
        assert (sys.excepthook, threading.excepthook) == before
    finally:
        sys.excepthook, threading.excepthook = before
        excepthook._state["redact"] = False


def test_hook_writes_to_the_current_stderr_and_redacts(monkeypatch, capsys):
    from errexplain.integrations import excepthook

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    seen = []
    monkeypatch.setitem(excepthook._state, "sys", lambda *exc: seen.append(exc))
    monkeypatch.setitem(excepthook._state, "redact", True)
    try:
        raise ValueError("cannot reach 10.1.2.3 from /home/alice")
    except ValueError as exc:
        excepthook.excepthook(type(exc), exc, exc.__traceback__)
    err = capsys.readouterr().err
    assert len(seen) == 1
    assert err.startswith(HEADER)
    assert "<ip-1>" in err and "10.1.2.3" not in err and "alice" not in err


def test_threading_hook_in_process(monkeypatch, capsys):
    import threading

    from errexplain.integrations import excepthook

    seen = []
    monkeypatch.setitem(excepthook._state, "threading", seen.append)
    try:
        raise ValueError("16 is not divisible by 6")
    except ValueError as exc:
        args = threading.ExceptHookArgs((type(exc), exc, exc.__traceback__, None))
    excepthook.threading_excepthook(args)
    exit_args = threading.ExceptHookArgs((SystemExit, SystemExit(0), None, None))
    excepthook.threading_excepthook(exit_args)
    assert seen == [args, exit_args]
    err = capsys.readouterr().err
    assert err.count(HEADER) == 1 and "16 is not divisible by 6" in err


def test_asyncio_handler_in_process(capsys):
    import asyncio

    from errexplain.integrations.excepthook import asyncio_handler

    calls = []
    loop = asyncio.new_event_loop()
    try:
        exc = ValueError("16 is not divisible by 6")
        asyncio_handler(lambda lp, ctx: calls.append(ctx))(loop, {"exception": exc})
        asyncio_handler(lambda lp, ctx: calls.append(ctx))(loop, {"message": "no exception"})
    finally:
        loop.close()
    assert len(calls) == 2
    assert capsys.readouterr().err.count(HEADER) == 1


def test_install_from_env_never_raises(monkeypatch, capsys):
    from errexplain.integrations import excepthook

    def boom(**kw):
        raise RuntimeError("no hook today")

    monkeypatch.setattr(excepthook, "install", boom)
    excepthook.install_from_env()
    assert capsys.readouterr().err == (
        "errexplain: could not explain this error (RuntimeError: no hook today)\n"
    )


# ------------------------------------------------------------------ the .pth switch


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A fresh virtual environment that sees errexplain and its dependencies through a .pth
    (no network, no pip): its interpreter runs `errexplain hook install` for real."""
    import sysconfig

    root = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    site = Path(out.stdout.strip())
    paths = [str(REPO / "src"), sysconfig.get_paths()["purelib"]]
    (site / "_deps.pth").write_text("\n".join(paths) + "\n")
    return python


def _cli(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), "-m", "errexplain", *args], capture_output=True, text=True, check=False
    )


def test_pth_install_switch_status_uninstall(venv, tmp_path):
    r = _cli(venv, "hook", "status")
    assert r.returncode == 0 and "not installed" in r.stdout
    r = _cli(venv, "hook", "install")
    assert r.returncode == 0 and "errexplain-hook.pth" in r.stdout
    pth = Path(r.stdout.split()[1])
    assert pth.parent.parent.parent.parent == venv.parent.parent or pth.exists()

    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(MAIN))
    off = _run(script, {"ERREXPLAIN_HOOK": "0"}, str(venv))
    unset = _run(script, {}, str(venv))
    on = _run(script, {"ERREXPLAIN_HOOK": "1"}, str(venv))
    assert off.stderr == unset.stderr and HEADER.encode() not in unset.stderr
    rest = _original_then_explanation(unset, on)
    assert "16 is not divisible by 6" in rest

    r = _cli(venv, "hook", "status")
    assert f"{pth}: installed" in r.stdout
    r = _cli(venv, "hook", "uninstall")
    assert r.returncode == 0 and not pth.exists()
    assert "not installed" in _cli(venv, "hook", "uninstall").stdout
    again = _run(script, {"ERREXPLAIN_HOOK": "1"}, str(venv))
    assert again.stderr == unset.stderr


def test_pth_imports_nothing_unless_switched_on(venv):
    assert _cli(venv, "hook", "install").returncode == 0
    try:
        probe = "import sys; print(sorted(m for m in sys.modules if 'errexplain' in m))"
        env = {k: v for k, v in os.environ.items() if k != "ERREXPLAIN_HOOK"}
        off = subprocess.run(
            [str(venv), "-c", probe], capture_output=True, text=True, env=env, check=True
        )
        assert off.stdout.strip() == "[]"
        on = subprocess.run(
            [str(venv), "-c", probe],
            capture_output=True,
            text=True,
            env={**env, "ERREXPLAIN_HOOK": "1"},
            check=True,
        )
        loaded = eval(on.stdout)
        assert "errexplain.integrations.excepthook" in loaded
        assert not any(m.startswith(("errexplain.explainer", "errexplain.catalog")) for m in loaded)
    finally:
        _cli(venv, "hook", "uninstall")
