"""`errexplain scan` on the fast path (errexplain.cli._fast_scan_args): the common options are
served without Typer, with the same output and exit code as the Typer command; every other
option, a bad value or no path goes to Typer."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.logs_data import burst, info

from errexplain import cli
from errexplain.cli import typer_app


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "server.log"
    path.write_text(info("2026-10-02 10:00:00", 30) + burst("2026-10-02 10:00:05", range(3)))
    return str(path)


@pytest.mark.parametrize(
    "options",
    [
        ["--json"],
        ["--format", "text", "-v", "--workers", "1"],
        ["--format=json", "--workers=2", "--cutoff", "0.5", "--no-color"],
        ["--verbose", "--cutoff=1"],
    ],
)
def test_the_fast_path_answers_as_the_typer_command(log, options, capsys, monkeypatch):
    assert cli._fast_scan_args([*options, log]) is not None
    code = typer_app.run(["errexplain", "scan", *options, log])
    typer_out = capsys.readouterr()

    def no_typer(argv):
        raise AssertionError("the Typer app was used")

    monkeypatch.setattr(typer_app, "run", no_typer)
    assert cli.run_argv(["errexplain", "scan", *options, log]) == code
    fast_out = capsys.readouterr()
    assert (fast_out.out, fast_out.err) == (typer_out.out, typer_out.err)


@pytest.mark.parametrize(
    "options",
    [
        ["--help"],
        ["--format", "bogus"],
        ["--workers", "-1"],
        ["--workers", "two"],
        ["--cutoff", "2"],
        ["--cutoff"],
        ["--release", "sglang=0.5.23"],
        ["--catalog", "."],
        ["--debug"],
        ["--"],
        ["-vv"],
        ["--json=1"],
    ],
)
def test_other_options_and_bad_values_go_to_typer(log, options, monkeypatch):
    assert cli._fast_scan_args([*options, log]) is None
    seen = []
    monkeypatch.setattr(typer_app, "run", lambda argv: seen.append(argv) or 0)
    assert cli.run_argv(["errexplain", "scan", *options, log]) == 0
    assert seen == [["errexplain", "scan", *options, log]]


def test_no_path_goes_to_typer(monkeypatch):
    assert cli._fast_scan_args(["--json"]) is None
    assert cli._fast_scan_args([]) is None


def test_typer_is_not_imported(log):
    code = (
        "import sys; from errexplain.cli import run_argv; "
        f"c = run_argv(['errexplain', 'scan', '--json', {log!r}]); "
        "print(int(c), 'typer' in sys.modules, 'click' in sys.modules, file=sys.stderr)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.stderr.split() == ["0", "False", "False"]
    assert '"count": 3' in r.stdout
