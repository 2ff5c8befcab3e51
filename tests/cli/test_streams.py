"""Streams and signals at the command line (issue 14): each case ends with its documented exit
code and one line of ours, never a Python traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.interrupts import INTERRUPTED, ctrl_c, start

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "kimi_k3_multirank.log"
CMD = [sys.executable, "-m", "errexplain"]


def _sh(script: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ERRX": " ".join(CMD), "TB": str(EXAMPLE)}
    return subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, check=False
    )


def _clean(err: str) -> None:
    assert "Traceback" not in err, err


def test_stdout_closed_exits_2_with_one_line():
    r = _sh('$ERRX < "$TB" >&-')
    assert r.returncode == 2 and "standard output is closed" in r.stderr
    _clean(r.stderr)


@pytest.mark.parametrize("args", ["", "explain -"])
def test_stdin_closed_reads_as_empty_input(args):
    r = _sh(f"$ERRX {args} <&-")
    assert r.returncode == 2 and "stdin is empty" in r.stderr
    _clean(r.stderr)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", ["", "explain --format rich -", "explain --json -"])
def test_a_full_disk_exits_2_with_one_line(args):
    r = _sh(f'$ERRX {args} < "$TB" > /dev/full')
    assert r.returncode == 2 and "cannot write the output" in r.stderr
    _clean(r.stderr)


@pytest.mark.parametrize("fmt", ["text", "rich", "json"])
def test_a_closed_pipe_exits_0_quietly(fmt):
    """--format rich used to exit 1 (Rich's own exit), which means "nothing matched"."""
    r = _sh(
        f'$ERRX explain --format {fmt} "$TB" | head -c 1 > /dev/null; echo "${{PIPESTATUS[0]}}"'
    )
    assert r.stdout.strip() == "0", r.stderr
    _clean(r.stderr)


def test_ctrl_c_during_an_index_build_exits_130_without_worker_tracebacks(tmp_path):
    """Ctrl-C during an index build printed a traceback from every loader worker."""
    cat = tmp_path / "cat"
    (cat / "demo").mkdir(parents=True)
    (cat / "demo" / "project.yaml").write_text("name: demo\n")
    entry = "- id: '{:016x}'\n  exception: ValueError\n  template: 'message {} here'\n"
    for k in range(500):
        body = "".join(entry.format(k * 100 + i, i) for i in range(60))
        (cat / "demo" / f"m{k}.yaml").write_text(f"module: m{k}.py\nentries:\n{body}")
    env = {**os.environ, "ERREXPLAIN_CACHE_DIR": str(tmp_path / "cache")}
    proc = start([*CMD, "lookup", "--catalog", str(cat), "message 1 here"], env=env, text=True)
    time.sleep(3)
    _, err = ctrl_c(proc)
    assert proc.returncode in (*INTERRUPTED, 0), err  # 0 when the build was already done
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
