"""`%load_ext errexplain`, run for real with `ipython -c`: IPython's own traceback first,
unchanged, then the explanation; `%unload_ext` puts the old handler back; a notebook gets HTML."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from tests.integrations.sglang_stub import IMPORT, write_stub

from errexplain.integrations.report import HEADER

pytest.importorskip("IPython")
pytestmark = pytest.mark.slow

CELL = IMPORT + "divide(16, 6)\n"


def _ipython(tmp_path, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    write_stub(tmp_path)
    return subprocess.run(
        [sys.executable, "-m", "IPython", "--no-banner", "--colors=NoColor", *args, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "IPYTHONDIR": str(tmp_path / "ipython")},
        cwd=tmp_path,
        check=False,
        timeout=300,
    )


def test_load_ext_adds_the_explanation_after_ipythons_traceback(tmp_path):
    plain = _ipython(tmp_path, CELL)
    loaded = _ipython(tmp_path, CELL, "--ext", "errexplain")
    assert "ValueError: 16 is not divisible by 6" in plain.stdout
    assert loaded.stdout.startswith(plain.stdout), "IPython's traceback changed"
    rest = loaded.stdout[len(plain.stdout) :]
    assert rest.startswith(HEADER), rest[:300]
    assert "Values:   numerator = 16; denominator = 6" in rest
    assert "interactiveshell.py" not in rest  # IPython's own frames are not the user's
    assert loaded.stderr == plain.stderr


def test_load_ext_magic_and_unload(tmp_path):
    on = _ipython(tmp_path, "%load_ext errexplain\n" + CELL)
    assert HEADER.strip() in on.stdout and "Match 1" in on.stdout
    off = _ipython(tmp_path, "%load_ext errexplain\n%unload_ext errexplain\n" + CELL)
    assert "ValueError: 16 is not divisible by 6" in off.stdout
    assert HEADER.strip() not in off.stdout


def test_notebook_gets_html_and_a_terminal_text(monkeypatch):
    from IPython.core.formatters import DisplayFormatter

    from errexplain import explain
    from errexplain.integrations.ipython import Explained

    exps = explain("ValueError: 16 is not divisible by 6")
    data, _ = DisplayFormatter().format(Explained(exps))
    assert data["text/plain"].startswith(HEADER)
    assert "<pre" in data["text/html"] and "is not divisible by" in data["text/html"]
    assert "<span" in data["text/html"]  # Rich's styles, inline

    def broken(exps):
        raise RuntimeError("no html today")

    monkeypatch.setattr("errexplain.integrations.report.html", broken)
    data, _ = DisplayFormatter().format(Explained(exps))
    assert "text/html" not in data and "text/plain" in data


def test_handler_failure_is_one_line(monkeypatch, capsys):
    from errexplain.integrations import ipython

    shown = []

    class Shell:
        class InteractiveTB:
            tb_offset = 1

        def showtraceback(self, exc_tuple, tb_offset=None):
            shown.append(exc_tuple[0])

    def boom(*args, **kw):
        raise OSError("disk on fire")

    monkeypatch.setattr("errexplain.integrations.report.explain_exception", boom)
    ipython._handler(Shell(), ValueError, ValueError("x"), None)
    assert shown == [ValueError]
    assert capsys.readouterr().out == (
        "errexplain: could not explain this error (OSError: disk on fire)\n"
    )
