"""`--redact` on explain, lookup and the bare pipe, and `errexplain redact`: nothing of what
is covered reaches the output (text or JSON), and the answer is still found."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from errexplain.app import explain, lookup
from errexplain.app import redact as redact_cmd
from errexplain.app.context import Context, Options
from errexplain.errors import ExitCode

CATALOG = str(Path(__file__).parent.parent / "data" / "catalog")
FEATURE_MSG = "feature length does not match image grids: 5824 != 5760"
SECRET = "hf_" + "Zq7" * 12
PASTE = f"""\
[2026-01-01 10:00:00 TP0] connecting to 10.20.30.40:29500 as alice@corp.example.com
HF_TOKEN={SECRET}
Traceback (most recent call last):
  File "/home/alice/venv/lib/python3.12/site-packages/demo/pkg/images.py", line 360, in prepare
    raise ValueError(msg)
ValueError: {FEATURE_MSG}
"""
LEAKS = ("alice", "10.20.30.40", SECRET, "corp.example.com")


def _run(command, *args, stdin: bytes = b"", fmt: str = "text", **opts):
    opts.setdefault("catalogs", (CATALOG,))
    ctx = Context(Options(fmt, **opts), io.BytesIO(stdin), io.StringIO(), io.StringIO(), False)
    code = command(ctx, *args)
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue()


@pytest.mark.parametrize("fmt", ["text", "json", "rich"])
def test_explain_redact(fmt):
    code, out, err = _run(explain.run, "-", stdin=PASTE.encode(), fmt=fmt, redact=True)
    assert code == ExitCode.EXPLAINED
    assert "5824" in out  # the values of the message are not secrets
    for leak in LEAKS:
        assert leak not in out + err
    assert "/home/<user-1>/venv" in out


def test_explain_without_redact_shows_the_paste():
    _, out, _ = _run(explain.run, "-", stdin=PASTE.encode())
    assert "/home/alice/venv" in out


def test_explain_redacts_the_file_name_in_json(tmp_path):
    home = tmp_path / "home" / "bob"
    home.mkdir(parents=True)
    log = home / "crash.log"
    log.write_text(PASTE)
    _, out, _ = _run(explain.run, str(log), fmt="json", redact=True)
    name = json.loads(out)["input"]["name"]
    assert name.endswith("/home/<user-2>/crash.log")  # alice of the text is <user-1>


def test_explain_redact_no_exception_quotes_the_redacted_line():
    from errexplain.errors import InputError

    with pytest.raises(InputError) as info:
        _run(explain.run, "-", stdin=b"hello from 10.20.30.40\n", redact=True)
    assert "10.20.30.40" not in info.value.message and "<ip-1>" in info.value.message


def test_lookup_redact():
    _, out, _ = _run(lookup.run, f"ValueError: {FEATURE_MSG} (host 10.20.30.40)", "")
    assert "10.20.30.40" in out
    _, out, _ = _run(lookup.run, f"ValueError: {FEATURE_MSG} (host 10.20.30.40)", "", redact=True)
    assert "10.20.30.40" not in out and "<ip-1>" in out


def test_redact_command_cleans_a_paste_line_by_line(tmp_path):
    log = tmp_path / "paste.txt"
    log.write_bytes(PASTE.encode() + b"caf\xe9 on 10.20.30.40\r\n")
    code, out, err = _run(redact_cmd.run, str(log))
    assert code == ExitCode.EXPLAINED
    assert out.startswith("[2026-01-01 10:00:00 TP0] connecting to <ip-1>:29500 as <email-1>\n")
    assert "HF_TOKEN=<token-1>\n" in out
    assert 'File "/home/<user-1>/venv/lib/python3.12/site-packages/demo' in out
    assert out.endswith("caf\ufffd on <ip-1>\r\n")  # same placeholder on a later line
    assert err == "errexplain: redacted 1 token, 1 e-mail address, 1 user name, 1 IP address\n"


def test_redact_command_stdin_and_errors(tmp_path):
    from errexplain.errors import InputError

    _, out, _ = _run(redact_cmd.run, "-", stdin=b"x 10.0.0.1")
    assert out == "x <ip-1>"
    with pytest.raises(InputError):
        _run(redact_cmd.run, str(tmp_path / "missing.txt"))
    with pytest.raises(InputError):
        _run(redact_cmd.run, str(tmp_path))


def test_bare_pipe_redact_subprocess():
    r = subprocess.run(
        [sys.executable, "-m", "errexplain", "--redact"],
        input=PASTE.replace("demo/pkg/images.py", "sglang/srt/x.py"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode in (0, 1), r.stderr
    assert "ValueError" in r.stdout
    for leak in LEAKS:
        assert leak not in r.stdout + r.stderr
    assert "/home/<user-1>/venv" in r.stdout


def test_bare_pipe_redact_does_not_import_typer(monkeypatch):
    from errexplain import cli

    seen = []
    monkeypatch.setattr(cli, "_fast", lambda got: seen.append(got.get("redact", False)) or 0)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert cli.run_argv(["errexplain", "--redact"]) == 0
    assert cli.run_argv(["errexplain"]) == 0
    assert seen == [True, False]


def test_the_machines_login_and_host_names_and_extra_words(monkeypatch):
    import getpass
    import socket

    monkeypatch.setattr(getpass, "getuser", lambda: "jdoe")
    monkeypatch.setattr(socket, "gethostname", lambda: "dgx-a100-07.cluster")
    paste = b"jdoe started projectx on dgx-a100-07 (dgx-a100-07.cluster)\nValueError: x\n"
    code, out, err = _run(redact_cmd.run, "-", stdin=paste, redact_extra=("projectx",))
    assert code == ExitCode.EXPLAINED
    assert out.splitlines()[0] == "<user-1> started <word-1> on <host-2> (<host-1>)"
    assert err == "errexplain: redacted 1 user name, 2 hosts, 1 extra word\n"
    _, out, _ = _run(explain.run, "-", stdin=paste, fmt="json", redact=True)
    assert "jdoe" not in out and "dgx-a100-07" not in out


def test_redact_extra_option_on_the_command_line():
    from typer.testing import CliRunner

    from errexplain.cli.typer_app import app

    paste = "projectx failed on node 3\nValueError: projectx\n"
    r = CliRunner().invoke(app, ["redact", "--redact-extra", "projectx", "-"], input=paste)
    assert r.exit_code == 0 and "projectx" not in r.stdout and "<word-1> failed" in r.stdout
    r = CliRunner().invoke(app, ["lookup", "--redact-extra", "projectx", "ValueError: projectx"])
    assert "projectx" not in r.stdout
