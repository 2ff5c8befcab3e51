"""errexplain.integrations.run and `errexplain run`: run for real in subprocesses. Exit codes
(0, 1, 3, a signal), output passed through byte for byte, a missing or non-executable command,
signals forwarded, the explanation on stderr, `python -m errexplain run script.py`, and a
pseudo-terminal for the child when our stdout is one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from errexplain.errors import CommandError, ExitCode
from errexplain.integrations.run import Tail, check_command, command_for, run_command

ERREXPLAIN = [sys.executable, "-m", "errexplain", "run", "--"]
PY = sys.executable
FEATURE = "Kimi-K3 processor feature length does not match image grids: 5824 != 5760"

pytestmark = pytest.mark.slow


def _run(args, **kw):
    return subprocess.run([*ERREXPLAIN, *args], capture_output=True, check=False, **kw)


@pytest.mark.parametrize("code", [0, 1, 3])
def test_exit_code_is_the_commands(code):
    r = _run([PY, "-c", f"import sys; print('out'); sys.exit({code})"])
    assert r.returncode == code
    assert r.stdout == b"out\n"


def test_a_signal_gives_128_plus_n():
    r = _run([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"])
    assert r.returncode == 128 + signal.SIGKILL
    r = _run(["sh", "-c", "kill -TERM $$"])
    assert r.returncode == 128 + signal.SIGTERM


def test_output_passes_through_byte_for_byte():
    script = (
        "import sys, os\n"
        "o, e = sys.stdout.buffer, sys.stderr.buffer\n"
        "o.write(bytes(range(256)) * 3); o.flush()\n"
        "e.write(b'\\xff\\xfe not utf-8 \\r\\n'); e.flush()\n"
        "o.write(b'x' * 300000); o.write(b'no newline at the end'); o.flush()\n"
    )
    r = _run([PY, "-c", script])
    assert r.returncode == 0
    assert r.stdout == bytes(range(256)) * 3 + b"x" * 300000 + b"no newline at the end"
    assert r.stderr == b"\xff\xfe not utf-8 \r\n"  # nothing explained: no error in it


def test_errors_are_explained_on_stderr_after_the_output():
    script = f"print('serving'); raise ValueError({FEATURE!r})"
    r = _run([PY, "-c", script])
    assert r.returncode == 1
    assert r.stdout == b"serving\n"  # stdout stays clean
    err = r.stderr.decode()
    tb_at = err.index("Traceback (most recent call last)")
    note = err.index("errexplain: exit code 1; errors in the command's output")
    assert tb_at < note < err.index("410dccf11ac35f1e")


def test_a_failure_with_no_python_error_says_so():
    r = _run(["sh", "-c", "echo plain failure >&2; exit 4"])
    assert r.returncode == 4
    assert r.stderr.decode().endswith(
        "plain failure\nerrexplain: exit code 4; no Python error found in the output\n"
    )


def test_missing_and_non_executable_commands(tmp_path):
    r = _run(["no-such-command-xyz"])
    assert r.returncode == ExitCode.COMMAND_NOT_FOUND == 127
    assert r.stderr.decode().splitlines()[0] == "errexplain: no-such-command-xyz: command not found"
    r = _run([str(tmp_path / "nope")])
    assert r.returncode == 127
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    r = _run([str(script)])
    assert r.returncode == ExitCode.CANNOT_EXECUTE == 126
    assert "permission denied" in r.stderr.decode()
    r = _run([str(tmp_path)])
    assert r.returncode == 126


def test_no_command_is_a_usage_error():
    r = subprocess.run([*ERREXPLAIN[:-1]], capture_output=True, check=False)
    assert r.returncode == 2


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 3), (signal.SIGINT, 4)])
def test_signals_are_forwarded_to_the_command(sig, code):
    script = (
        "import signal, sys, time\n"
        f"def on(*a):\n    print('got', {int(sig)}, flush=True)\n    sys.exit({code})\n"
        f"signal.signal({int(sig)}, on)\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n"
    )
    proc = subprocess.Popen(
        [*ERREXPLAIN, PY, "-c", script],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"ready\n"
    proc.send_signal(sig)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == code
    assert out == f"got {int(sig)}\n".encode()


def test_python_m_errexplain_run_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(f"import sys\nprint(sys.argv[1:])\nraise ValueError({FEATURE!r})\n")
    r = subprocess.run(
        [PY, "-m", "errexplain", "run", str(script), "--lr", "3"], capture_output=True, check=False
    )
    assert r.returncode == 1
    assert r.stdout == b"['--lr', '3']\n"
    assert b"410dccf11ac35f1e" in r.stderr


def test_the_command_gets_a_terminal_when_we_have_one():
    pty = pytest.importorskip("pty")
    script = "import sys; print(sys.stdout.isatty(), sys.stderr.isatty()); print('a\\nb')"
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover (the child)
        os.execv(PY, [PY, "-m", "errexplain", "run", "--", PY, "-c", script])
    out = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    # our (outer) pty turns \n into \r\n once; the inner one adds nothing
    assert out == b"True True\r\na\r\nb\r\n"


def test_run_command_in_process_with_pipes(tmp_path):
    out = tmp_path / "out"
    with open(out, "wb") as fh:
        got = run_command([PY, "-c", "print('x' * 10)"], out_fd=fh.fileno(), use_pty=False)
    assert (got.code, got.signal, got.output, got.dropped) == (0, None, b"x" * 10 + b"\n", 0)
    assert out.read_bytes() == b"x" * 10 + b"\n"


def test_tail_keeps_the_last_bytes():
    tail = Tail(10)
    for chunk in (b"abc", b"defgh", b"ijklmnop", b"q"):
        tail.add(chunk)
    assert tail.value() == b"hijklmnopq"
    assert tail.dropped == 3


def test_command_for_runs_scripts_under_this_python(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("")
    assert command_for([str(script), "a"]) == [sys.executable, str(script), "a"]
    assert command_for(["ls", "-l"]) == ["ls", "-l"]
    with pytest.raises(CommandError, match="no command"):
        check_command([])
